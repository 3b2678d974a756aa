/// The address of a sentence, the text between its delimiter and the first comma
/// (`GPGGA`, `PGRME`, `AIVDM`), kept in a single integer so that counting by address
/// costs no allocation.
public struct SentenceAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Up to eight ASCII bytes packed big-endian; longer addresses keep their first eight.
  public let rawValue: UInt64
  /// The number of bytes kept (at most 8).
  public let length: Int

  /// Packs an address from its bytes.
  public init(_ bytes: UnsafeBufferPointer<UInt8>) {
    var value: UInt64 = 0
    let kept = min(bytes.count, 8)
    for index in 0..<kept { value = value << 8 | UInt64(bytes[index]) }
    rawValue = value
    length = kept
  }

  /// Packs an address from text (for tests and look-ups).
  public init(_ text: String) {
    var bytes = Array(text.utf8)
    self = bytes.withUnsafeMutableBufferPointer { SentenceAddress(UnsafeBufferPointer($0)) }
  }

  /// The talker, for a standard five-letter address that is not proprietary.
  public var talker: Talker? {
    guard length == 5, !isProprietary else { return nil }
    return Talker(UInt8(rawValue >> 32 & 0xFF), UInt8(rawValue >> 24 & 0xFF))
  }

  /// The three-letter sentence type of a standard address (`GGA` of `GPGGA`).
  public var type: String? {
    guard length == 5, !isProprietary else { return nil }
    return String(description.dropFirst(2))
  }

  /// Whether this is a manufacturer's proprietary sentence (`$P…`).
  public var isProprietary: Bool {
    length > 0 && UInt8(rawValue >> (8 * UInt64(length - 1)) & 0xFF) == UInt8(ascii: "P")
  }

  public var description: String {
    var bytes: [UInt8] = []
    for index in stride(from: length - 1, through: 0, by: -1) {
      bytes.append(UInt8(rawValue >> (8 * UInt64(index)) & 0xFF))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  public static func < (lhs: SentenceAddress, rhs: SentenceAddress) -> Bool {
    lhs.description < rhs.description
  }
}
