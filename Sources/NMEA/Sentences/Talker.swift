/// The two-letter talker of a sentence (`GP`, `GN`, `GL`, ...): who produced it.
public struct Talker: Hashable, Sendable, CustomStringConvertible {
  /// The two ASCII letters packed big-endian.
  public let rawValue: UInt16

  /// Creates a talker from its two ASCII bytes.
  public init(_ first: UInt8, _ second: UInt8) { rawValue = UInt16(first) << 8 | UInt16(second) }

  /// Creates a talker from two ASCII letters; `nil` when `text` is not two characters.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 2 else { return nil }
    self.init(bytes[0], bytes[1])
  }

  /// `GP`: GPS.
  public static let gps = Talker(UInt8(ascii: "G"), UInt8(ascii: "P"))
  /// `GL`: GLONASS.
  public static let glonass = Talker(UInt8(ascii: "G"), UInt8(ascii: "L"))
  /// `GA`: Galileo.
  public static let galileo = Talker(UInt8(ascii: "G"), UInt8(ascii: "A"))
  /// `GB`: BeiDou.
  public static let beidou = Talker(UInt8(ascii: "G"), UInt8(ascii: "B"))
  /// `BD`: BeiDou, as receivers named it before NMEA 4.10.
  public static let beidouLegacy = Talker(UInt8(ascii: "B"), UInt8(ascii: "D"))
  /// `GQ`: QZSS.
  public static let qzss = Talker(UInt8(ascii: "G"), UInt8(ascii: "Q"))
  /// `QZ`: QZSS, as some receivers name it.
  public static let qzssLegacy = Talker(UInt8(ascii: "Q"), UInt8(ascii: "Z"))
  /// `GI`: NavIC (IRNSS).
  public static let navic = Talker(UInt8(ascii: "G"), UInt8(ascii: "I"))
  /// Several constellations combined.
  public static let multiple = Talker(UInt8(ascii: "G"), UInt8(ascii: "N"))

  /// The constellation this talker stands for; `nil` for `GN` (several) and non-GNSS talkers.
  public var constellation: Constellation? {
    switch self {
    case .gps: .gps
    case .glonass: .glonass
    case .galileo: .galileo
    case .beidou, .beidouLegacy: .beidou
    case .qzss, .qzssLegacy: .qzss
    case .navic: .navic
    default: nil
    }
  }

  public var description: String {
    String(decoding: [UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)], as: UTF8.self)
  }
}

/// A satellite navigation system.
public enum Constellation: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// GPS (gpsd `gnssid` 0).
  case gps = 0
  /// SBAS augmentation satellites: WAAS, EGNOS, MSAS, … (gpsd `gnssid` 1).
  case sbas = 1
  /// Galileo (gpsd `gnssid` 2).
  case galileo = 2
  /// BeiDou (gpsd `gnssid` 3).
  case beidou = 3
  /// QZSS (gpsd `gnssid` 5).
  case qzss = 5
  /// GLONASS (gpsd `gnssid` 6).
  case glonass = 6
  /// NavIC, formerly IRNSS (gpsd `gnssid` 7).
  case navic = 7

  /// gpsd's `gnssid` (u-blox numbering), the raw value.
  public var gnssID: Int { rawValue }

  /// The constellation for an NMEA 4.10 GSA/GSV/GBS system ID (1 GPS ... 6 NavIC).
  public init?(systemID: Int) {
    switch systemID {
    case 1: self = .gps
    case 2: self = .glonass
    case 3: self = .galileo
    case 4: self = .beidou
    case 5: self = .qzss
    case 6: self = .navic
    default: return nil
    }
  }

  /// The constellation a satellite ID belongs to under the NMEA numbering used by
  /// multi-constellation (`GN`) sentences: 1–32 GPS, 33–64 and 120–158 SBAS, 65–96
  /// GLONASS, 193–200 QZSS, 201–264 and 401–437 BeiDou (some receivers), 301–336 Galileo
  /// (some receivers). QZSS's 201 and 202 fall in BeiDou's range and are read as BeiDou.
  public init?(nmeaSatelliteID id: Int) {
    switch id {
    case 1...32: self = .gps
    case 33...64, 120...158: self = .sbas
    case 65...96: self = .glonass
    case 193...200: self = .qzss
    case 201...264, 401...437: self = .beidou
    case 301...336: self = .galileo
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .gps: "GPS"
    case .sbas: "SBAS"
    case .galileo: "Galileo"
    case .beidou: "BeiDou"
    case .qzss: "QZSS"
    case .glonass: "GLONASS"
    case .navic: "NavIC"
    }
  }
}
