import Geodesy

/// One heading or attitude report, as a sensor sent it: every heading sentence (HDT, HDG,
/// HDM, THS, ROT, XDR attitude, `$PASHR`, `$PSTI,036`, `$PTNTHTM`) gives one, at the rate
/// the sensor sends, apart from the fixes.
///
/// Values the sentence did not carry are `nil`, never 0. A magnetic heading becomes a true
/// one (and the reverse) with a ``declination``: the sentence's own variation (HDG), else
/// the receiver's latest (RMC), else the World Magnetic Model's at the last position and
/// date; ``declinationSource`` says which.
public struct HeadingReading: Sendable, Equatable {
  /// The sentence's UTC time of day, or else that of the cycle it came in.
  public var timeOfDay: TimeOfDay?
  /// The full UTC time, once a date is known.
  public var time: Timestamp?
  /// Degrees clockwise from true north.
  public var trueHeading: Double?
  /// Degrees clockwise from magnetic north.
  public var magneticHeading: Double?
  /// Degrees east of true north that magnetic north lies, as used between the two
  /// headings.
  public var declination: Double?
  /// Where ``declination`` came from; `nil` when none was applied.
  public var declinationSource: DeclinationSource?
  /// For a declination from the World Magnetic Model that is not reliable there and then
  /// (outside the model's years, near a magnetic pole), how; `nil` otherwise.
  public var declinationCaveat: MagneticModel.Reliability?
  /// The heading's 1-sigma uncertainty, degrees, when the sensor states one.
  public var accuracy: Double?
  /// Degrees per minute, positive turning to starboard (ROT).
  public var rateOfTurn: Double?
  /// Degrees, starboard side down positive.
  public var roll: Double?
  /// Degrees, bow up positive.
  public var pitch: Double?
  /// 1-sigma degrees.
  public var rollAccuracy: Double?
  /// The pitch's 1-sigma uncertainty, degrees (`$PASHR`); `nil` when the sensor states none.
  public var pitchAccuracy: Double?
  /// Metres, up positive.
  public var heave: Double?
  /// The magnetic field's dip below the horizontal, degrees.
  public var dip: Double?
  /// The sentence it came from (`HDT`, `PASHR`, `PSTI,036`).
  public var sentence: String

  /// An empty reading from `sentence`.
  public init(sentence: String) { self.sentence = sentence }

  /// Whether it carries a heading, true or magnetic.
  public var hasHeading: Bool { trueHeading != nil || magneticHeading != nil }
}

/// Where the declination between a true and a magnetic heading came from.
public enum DeclinationSource: Sendable, Equatable, CustomStringConvertible {
  /// The heading sentence's own variation (HDG's fields 4 and 5: the compass's setting).
  case sentence
  /// The GNSS receiver's magnetic variation (RMC's).
  case receiver
  /// The World Magnetic Model 2025, at the last position and date.
  case wmm2025

  public var description: String {
    switch self {
    case .sentence: "sentence"
    case .receiver: "receiver"
    case .wmm2025: "WMM2025"
    }
  }
}

/// Angles on the compass.
public enum HeadingMath {
  /// `degrees` in [0, 360).
  public static func normalized(_ degrees: Double) -> Double {
    var value = degrees.truncatingRemainder(dividingBy: 360)
    if value < 0 { value += 360 }
    return value == 360 ? 0 : value
  }

  /// The smaller angle between two headings, degrees, 0 to 180.
  public static func difference(_ first: Double, _ second: Double) -> Double {
    let delta = abs(normalized(first) - normalized(second))
    return min(delta, 360 - delta)
  }
}
