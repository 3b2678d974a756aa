/// The GGA fix quality indicator: how the position was obtained.
public enum FixQuality: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// No fix, or an invalid one (quality 0).
  case invalid = 0
  /// Autonomous GPS/GNSS fix (quality 1).
  case gps = 1
  /// Differential fix, DGPS or SBAS (quality 2).
  case differential = 2
  /// Precise Positioning Service fix (quality 3).
  case pps = 3
  /// RTK fix with integer ambiguities (quality 4).
  case rtkFixed = 4
  /// RTK float solution (quality 5).
  case rtkFloat = 5
  /// Estimated position, dead reckoning (quality 6).
  case deadReckoning = 6
  /// Position entered manually (quality 7).
  case manualInput = 7
  /// Simulated position (quality 8).
  case simulation = 8

  /// The quality implied by an FAA mode indicator (RMC, GLL, VTG, GNS).
  public init(_ mode: FAAMode) {
    switch mode {
    case .autonomous, .precise: self = .gps
    case .differential: self = .differential
    case .rtkFixed: self = .rtkFixed
    case .rtkFloat: self = .rtkFloat
    case .estimated: self = .deadReckoning
    case .manual: self = .manualInput
    case .simulated: self = .simulation
    case .notValid: self = .invalid
    }
  }

  /// gpsd's TPV `status` code for this quality (1 GPS, 2 DGPS, 3 RTK fixed, 4 RTK
  /// float, 6 dead reckoning, 7 surveyed/manual, 8 simulated); `nil` for no fix.
  public var gpsdStatus: Int? {
    switch self {
    case .invalid: nil
    case .gps, .pps: 1
    case .differential: 2
    case .rtkFixed: 3
    case .rtkFloat: 4
    case .deadReckoning: 6
    case .manualInput: 7
    case .simulation: 8
    }
  }

  public var description: String {
    switch self {
    case .invalid: "invalid"
    case .gps: "GPS"
    case .differential: "DGPS"
    case .pps: "PPS"
    case .rtkFixed: "RTK fixed"
    case .rtkFloat: "RTK float"
    case .deadReckoning: "dead reckoning"
    case .manualInput: "manual"
    case .simulation: "simulated"
    }
  }
}

/// The FAA mode indicator of NMEA 2.3 and later: one letter per fix.
public enum FAAMode: UInt8, Sendable, Hashable {
  /// Autonomous fix (`A`).
  case autonomous = 0x41  // A
  /// Differential fix (`D`).
  case differential = 0x44  // D
  /// Estimated position, dead reckoning (`E`).
  case estimated = 0x45  // E (dead reckoning)
  /// RTK float solution (`F`).
  case rtkFloat = 0x46  // F
  /// Position entered manually (`M`).
  case manual = 0x4D  // M
  /// No valid fix (`N`).
  case notValid = 0x4E  // N
  /// Precise fix, with no deliberate degradation such as selective availability (`P`).
  case precise = 0x50  // P
  /// RTK fix with integer ambiguities (`R`).
  case rtkFixed = 0x52  // R
  /// Simulated position (`S`).
  case simulated = 0x53  // S

  /// Whether a position given with this mode can be used.
  public var isValid: Bool { self != .notValid }
}

/// NMEA 4.10 navigational status (RMC, GNS): whether the receiver vouches for its output.
public enum NavigationalStatus: UInt8, Sendable, Hashable {
  /// Safe: the output is within the receiver's integrity limits (`S`).
  case safe = 0x53  // S
  /// Caution: integrity is degraded (`C`).
  case caution = 0x43  // C
  /// Unsafe: the output should not be relied on (`U`).
  case unsafe = 0x55  // U
  /// Not valid: the equipment gives no navigational status (`V`).
  case notValid = 0x56  // V
}

/// The fix dimension.
public enum FixMode: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
  /// No position.
  case noFix = 1
  /// Latitude and longitude only.
  case twoD = 2
  /// Latitude, longitude and altitude.
  case threeD = 3

  public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String {
    switch self {
    case .noFix: "no fix"
    case .twoD: "2D"
    case .threeD: "3D"
    }
  }
}
