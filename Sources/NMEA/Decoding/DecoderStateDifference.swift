/// The part of a decoder's state that a decoder started partway into a log had not
/// learned by the end of its warm-up, so that its chunk was decoded again in order
/// (see ``NMEADecoder`` and LocationKit's `ParallelLogDecoder`).
public enum DecoderStateDifference: String, CaseIterable, Sendable {
  /// A line was being read at the cut, and the two had read different parts of it.
  case halfReadLine
  /// The open reporting cycle (its time, or whether one is open).
  case openCycle
  /// The date the fixes are dated by: a date sentence or comment seen by one only, or a
  /// date carried past midnight.
  case date
  /// The previous fix, from which speeds and courses are derived.
  case previousFix
  /// An accuracy (GST, PGRME, ...) waiting for the cycle it belongs to.
  case pendingAccuracy
  /// The fix mode a GSA stated, carried to the cycles after it.
  case fixMode
  /// The last heading reading or magnetic variation.
  case headingOrVariation
  /// A completed fix not yet handed out.
  case completedFix
  /// The learned sentence that ends the receiver's cycles, and where the cycle stands.
  case cycleEnd
  /// The satellites in view and in use (GSV and GSA), and how long ago each group came.
  case skyView
}
