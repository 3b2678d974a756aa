/// What a source tells its location manager.
public enum SourceEvent: Sendable {
  /// A fix with a position.
  case location(Location)
  /// A reporting cycle without a position (no fix yet, or fix lost).
  case noFix
  /// Something went wrong; ``LocationError/isFinal`` errors end the source.
  case error(LocationError)
}

/// Where locations come from: a log file, standard input, a serial receiver, a TCP NMEA
/// stream, a gpsd daemon.
///
/// A source reads on a thread of its own and reports through the sink it is started
/// with. The manager knows nothing else about it, so new kinds of source need no change
/// to the manager.
public protocol LocationSource: AnyObject, Sendable {
  /// A short description for messages (`fixtures/walk.nmea`, `tcp://host:port`).
  var name: String { get }
  /// Starts reading; events go to `sink`, from the source's own thread, in order.
  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void)
  /// Stops reading and releases the file, device or socket. When it returns the reading
  /// thread has ended and `sink` is not called again. It may be called from within the
  /// sink; then the thread ends as soon as the sink returns.
  func stop()
}
