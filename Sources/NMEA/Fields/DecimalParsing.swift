#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exact powers of ten: every one up to 10^22 is representable in a Double. Written out,
/// so that the table is constant data rather than a lazily initialised global.
@usableFromInline
let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
  1e19, 1e20, 1e21, 1e22,
]

/// The pieces of a decimal number `[-+]digits[.digits]` read straight from bytes.
struct DecimalDigits {
  var negative = false
  /// All digits, integer and fraction, as one integer (valid while `digitCount <= 19`).
  var mantissa: UInt64 = 0
  /// The integer part alone (valid while it has at most 18 digits).
  var integerPart: UInt64 = 0
  var integerDigits = 0
  var fractionDigits = 0
  var digitCount: Int { integerDigits + fractionDigits }

  /// Reads `bytes` whole; nil when anything but one optional sign, digits and at most one
  /// point is present, or when there is no digit at all.
  @inline(__always)
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    let count = bytes.count
    var index = 0
    if count > 0, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
      negative = bytes[0] == UInt8(ascii: "-")
      index = 1
    }
    // One pass over all digits; past 19 of them the wrapped value is not used.
    var value: UInt64 = 0
    let integerStart = index
    while index < count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      if digit >= 10 { break }
      value = value &* 10 &+ UInt64(digit)
      index &+= 1
    }
    integerDigits = index &- integerStart
    integerPart = value
    if index < count {
      guard bytes[index] == UInt8(ascii: ".") else { return nil }
      index &+= 1
      let fractionStart = index
      while index < count {
        let digit = bytes[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value &* 10 &+ UInt64(digit)
        index &+= 1
      }
      fractionDigits = index &- fractionStart
    }
    if integerDigits == 0 && fractionDigits == 0 { return nil }
    mantissa = value
    if integerDigits > 18 {
      // As the digit-by-digit reading had it: past 18 digits the integer part stops growing.
      integerPart = 0
      for position in integerStart..<integerStart + 18 {
        integerPart = integerPart * 10 + UInt64(bytes[position] &- UInt8(ascii: "0"))
      }
    }
  }

  /// The value of the common form, `digits[.digits]` with at most 15 digits and no sign,
  /// read in one pass; `nil` for anything else (which the full reading then takes, or
  /// refuses). Correctly rounded: the digits make an integer below 2⁵³ and the power of
  /// ten is exact, so one division rounds once.
  @inline(__always)
  static func plainValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = bytes.count
    guard count <= 16 else { return nil }
    var mantissa: UInt64 = 0
    var point = -1
    var index = 0
    while index < count {
      let byte = bytes[index]
      let digit = byte &- UInt8(ascii: "0")
      if digit < 10 {
        mantissa = mantissa &* 10 &+ UInt64(digit)
      } else if byte == UInt8(ascii: ".") && point < 0 {
        point = index
      } else {
        return nil
      }
      index &+= 1
    }
    // A lone point has no digit; 16 digits may pass 2⁵³.
    guard count > (point < 0 ? 0 : 1), mantissa < (1 << 53) else { return nil }
    return point < 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[count &- 1 &- point]
  }

  /// The value of the `count` (1 to 8) digits just before `end`, or `nil` if any of them
  /// is not a digit. Reads the eight bytes before `end`, which must lie in one buffer.
  ///
  /// The bytes before the group are made zeros; the eight digits then combine in three
  /// multiplications, pairs into hundreds, into ten-thousands, into the whole (a
  /// little-endian load puts the first digit in the lowest byte).
  @inline(__always)
  static func group(endingAt end: UnsafePointer<UInt8>, count: Int) -> UInt64? {
    var word = UInt64(littleEndian: UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self))
    let before: UInt64 = count >= 8 ? 0 : (1 &<< UInt64(8 &* (8 &- count))) &- 1
    word = (word & ~before) | (0x3030_3030_3030_3030 & before)
    // A digit's high nibble is 3, and still 3 with 6 added (0x3A and up carry into 4).
    // A byte that carries out (0xFA and up) has failed the first test already.
    let nibbles = (word & 0xF0F0_F0F0_F0F0_F0F0) | ((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4
    guard nibbles == 0x3333_3333_3333_3333 else { return nil }
    word = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
    word = ((word & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    return ((word & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
  }

  /// The correctly rounded value (as `strtod` would give).
  @inline(__always)
  func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
    let magnitude: Double
    if digitCount <= 19, mantissa < (1 << 53), fractionDigits <= 22 {
      // Both operands are exact, so the single division is correctly rounded (and an
      // integer, the common case in satellite lists, needs none).
      magnitude =
        fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[fractionDigits]
    } else {
      magnitude = Self.slowValue(bytes)
    }
    return negative ? -magnitude : magnitude
  }

  private static func slowValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text in
      var length = 0
      for byte in bytes where byte != UInt8(ascii: "-") && byte != UInt8(ascii: "+") {
        text[length] = CChar(bitPattern: byte)
        length += 1
      }
      text[length] = 0
      return strtod(text.baseAddress!, nil)
    }
  }
}
