import NMEA

/// A growable byte buffer that output is rendered straight into.
///
/// Rendering a fix must not cost a `String` per field: `print --json` writes hundreds of
/// thousands of lines from a large log. Appends check the capacity and store; numbers
/// are written digit by digit, with the same text as ``fixed(_:_:)`` and `String(_:)`.
public struct ByteBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes held.
  public private(set) var count = 0

  /// An empty buffer with room for `capacity` bytes (at least 64); it grows when needed.
  public init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes held, valid until the next change.
  public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Forgets the bytes held, keeping the storage.
  public mutating func removeAll() { count = 0 }

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  @inline(never)
  private mutating func grow(_ needed: Int) {
    let newCapacity = max(needed, 2 * capacity)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  // MARK: Bytes and text

  /// Appends one byte.
  @inline(__always)
  public mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends a copy of `bytes`.
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends literal text (keys, units, punctuation).
  @inline(__always)
  public mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append($0) }
  }

  /// Appends a string's UTF-8.
  public mutating func append(string: String) {
    var text = string
    text.withUTF8 { append($0) }
  }

  /// Appends a JSON string literal, escaped per RFC 8259: the package's one JSON escaper.
  public mutating func append(jsonString value: String) {
    var text = value
    let plain = text.withUTF8 { bytes in
      // Names and descriptions need no escapes: their bytes go out as they are.
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
        return false
      }
      append(UInt8(ascii: "\""))
      append(bytes)
      append(UInt8(ascii: "\""))
      return true
    }
    if !plain { append(escaping: text) }
  }

  private mutating func append(escaping value: String) {
    append(UInt8(ascii: "\""))
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": append("\\\"")
      case "\\": append("\\\\")
      case "\n": append("\\n")
      case "\r": append("\\r")
      case "\t": append("\\t")
      case let control where control.value < 0x20:
        append("\\u00")
        append(Self.hexDigit(UInt8(control.value >> 4)))
        append(Self.hexDigit(UInt8(control.value & 0xF)))
      default:
        for byte in UTF8.encode(scalar)! { append(byte) }
      }
    }
    append(UInt8(ascii: "\""))
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  // MARK: Numbers

  /// "00" to "99", for two digits per division.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// 10^0 through 10^18.
  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
  ]

  /// The number of decimal digits of `value`.
  @inline(__always)
  private static func digitCount(_ value: UInt64) -> Int {
    if value < 10 { return 1 }
    if value < 100 { return 2 }
    if value < 1000 { return 3 }
    var digits = 4
    var limit: UInt64 = 10_000
    while digits < 20 && value >= limit {
      digits += 1
      limit &*= 10
    }
    return digits
  }

  /// Appends the lowest `length` decimal digits of `value`, zero-padded.
  @inline(__always)
  private mutating func append(digitsOf value: UInt64, length: Int) {
    reserve(length)
    let pairs = Self.digitPairs.utf8Start
    var rest = value
    var position = count &+ length
    while position &- count >= 2 {
      let pair = Int(truncatingIfNeeded: rest % 100) &* 2
      rest /= 100
      position &-= 2
      base[position] = pairs[pair]
      base[position &+ 1] = pairs[pair &+ 1]
    }
    if position > count { base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
    count &+= length
  }

  /// Appends `String(value)`.
  public mutating func append(integer value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    let magnitude = UInt64(value.magnitude)
    append(digitsOf: magnitude, length: Self.digitCount(magnitude))
  }

  /// Appends `String(value)` left-padded with zeros to `width` characters, the sign
  /// counted (as `pad(_:_:)` of the NMEA module does).
  public mutating func append(integer value: Int, width: Int) {
    let magnitude = UInt64(value.magnitude)
    let digits = Self.digitCount(magnitude)
    if value < 0 {
      for _ in 0..<max(0, width - 1 - digits) { append(UInt8(ascii: "0")) }
      append(UInt8(ascii: "-"))
      append(digitsOf: magnitude, length: digits)
    } else {
      append(digitsOf: magnitude, length: max(digits, width))
    }
  }

  /// Appends exactly what ``fixed(_:_:)`` returns for the same arguments.
  public mutating func append(_ value: Double, decimals: Int) {
    guard value.isFinite else {
      append(value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf"))
      return
    }
    guard decimals >= 0 && decimals < Self.powersOfTen.count else {
      append(string: fixed(value, decimals))
      return
    }
    // The powers of ten up to 10^22 are exact doubles: this is the scale `fixed` builds.
    let divisor = Self.powersOfTen[decimals]
    // Through Int64, below 2^63 here: the same values, and each conversion between
    // integer and double one instruction, where an unsigned one takes a dozen.
    let magnitude = abs(value) * Double(Int64(bitPattern: divisor))
    // Doubles this large are 1024 apart: rounded, they stay on the same side of 9e18.
    guard magnitude < 9e18 else {
      append(string: String(value))
      return
    }
    // Rounded half away from zero, as `rounded()` does, without its call: the fraction
    // left by truncation is exact (the two doubles are within a factor of two, or the
    // truncation is 0).
    var signedUnits = Int64(magnitude)
    if magnitude - Double(signedUnits) >= 0.5 { signedUnits += 1 }
    let units = UInt64(bitPattern: signedUnits)
    if value < 0 && units != 0 { append(UInt8(ascii: "-")) }
    let whole = units / divisor
    append(digitsOf: whole, length: Self.digitCount(whole))
    if decimals > 0 {
      append(UInt8(ascii: "."))
      append(digitsOf: units % divisor, length: decimals)
    }
  }

  // MARK: Times

  /// Appends `hh:mm:ss.sss`, as `TimeOfDay.description`.
  public mutating func append(_ time: TimeOfDay) {
    let parts = time.clockParts
    append(integer: parts.hour, width: 2)
    append(UInt8(ascii: ":"))
    append(integer: parts.minute, width: 2)
    append(UInt8(ascii: ":"))
    append(integer: parts.second, width: 2)
    append(UInt8(ascii: "."))
    append(integer: parts.millisecond, width: 3)
  }

  /// Appends a fix's time as ISO 8601: the timestamp, except in a leap second, which
  /// the timestamp (counting none) has as the next day's `00:00:00`: then the day before
  /// and `23:59:60.sss`, as the receiver said.
  public mutating func append(_ timestamp: Timestamp, at timeOfDay: TimeOfDay) {
    guard timeOfDay.isLeapSecond else { return append(timestamp) }
    let dayBefore = Timestamp(microsecondsSinceEpoch: timestamp.microsecondsSinceEpoch - TimeOfDay.microsecondsPerDay)
    append(dayBefore.date, timeOfDay)
  }

  /// Appends ISO 8601 `YYYY-MM-DDThh:mm:ss.sssZ`, as `Timestamp.description`.
  public mutating func append(_ timestamp: Timestamp) {
    append(timestamp.date, timestamp.timeOfDay)
  }

  /// `YYYY-MM-DDThh:mm:ss.sssZ` from its parts.
  private mutating func append(_ date: CalendarDate, _ time: TimeOfDay) {
    append(integer: date.year, width: 4)
    append(UInt8(ascii: "-"))
    append(integer: date.month, width: 2)
    append(UInt8(ascii: "-"))
    append(integer: date.day, width: 2)
    append(UInt8(ascii: "T"))
    append(time)
    append(UInt8(ascii: "Z"))
  }
}
