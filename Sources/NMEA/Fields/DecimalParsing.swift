#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exact powers of ten: every one up to 10^22 is representable in a Double.
@usableFromInline
let exactPowersOfTen: [Double] = (0...22).map { exponent in
  var value = 1.0
  for _ in 0..<exponent { value *= 10 }
  return value
}

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
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    var seenPoint = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") {
        if seenPoint { return nil }
        seenPoint = true
      } else {
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        if digitCount < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
        if seenPoint {
          fractionDigits += 1
        } else {
          if integerDigits < 18 { integerPart = integerPart &* 10 &+ UInt64(digit) }
          integerDigits += 1
        }
      }
      index += 1
    }
    if digitCount == 0 { return nil }
  }

  /// The correctly rounded value (as `strtod` would give).
  func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
    let magnitude: Double
    if digitCount <= 19, mantissa < (1 << 53), fractionDigits <= 22 {
      // Both operands are exact, so the single division is correctly rounded.
      magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
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
