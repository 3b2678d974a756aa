/// Reads the comma-separated fields of one framed sentence, straight from its bytes.
///
/// Every sentence decoder is a flat list of calls on one reader. Each accessor returns
/// `nil` for an empty field (absent, never 0) and throws a ``FieldError`` naming the
/// field when it is malformed or impossible. Field 0 is the first field after the
/// address. The reader borrows the sentence's bytes and the storage ``read(_:_:)``
/// lends it: it must not outlive the call it is handed to.
struct FieldReader {
  /// At most this many fields after the address are read; the rest are ignored.
  static let maximumFields = 63

  let bytes: UnsafeBufferPointer<UInt8>
  /// Offsets of the separating commas; `separators[i]` ends field i-1 (i = 0 ends the
  /// address), and `separators[count]` is the end of the last field. Borrowed storage:
  /// an inline array here was copied whole by every field access.
  private let separators: UnsafePointer<UInt8>
  /// The number of fields after the address.
  private(set) var count = 0
  /// Where the fields ignored for a value unknown to an informational field are counted
  /// (see ``informational(_:oneOf:)``); `nil` counts nowhere.
  private var ignoredFields: UnsafeMutablePointer<Int>?

  /// Hands `body` a reader of a framed sentence: with the split the framer found, or
  /// splitting it here.
  @inline(__always)
  static func read<Result, Failure: Error>(
    _ framed: FramedSentence, _ body: (FieldReader) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try read(framed, countingIgnoredFieldsIn: nil, body)
  }

  /// Hands `body` a reader of a framed sentence that counts the informational fields it
  /// ignores in `ignoredFields`.
  @inline(__always)
  static func read<Result, Failure: Error>(
    _ framed: FramedSentence, countingIgnoredFieldsIn ignoredFields: UnsafeMutablePointer<Int>?,
    _ body: (FieldReader) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if let split = framed.split {
      var reader = FieldReader(framed.bytes, split: split)
      reader.ignoredFields = ignoredFields
      return try body(reader)
    }
    return try read(framed.bytes) { (reader) throws(Failure) -> Result in
      var reader = reader
      reader.ignoredFields = ignoredFields
      return try body(reader)
    }
  }

  /// Splits `bytes` (the sentence from its delimiter up to the checksum's `*`) and hands
  /// the reader to `body`, with its offsets on the stack.
  @inline(__always)
  static func read<Result, Failure: Error>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (FieldReader) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumFields + 1) {
      (storage) throws(Failure) -> Result in
      try body(FieldReader(bytes, separators: storage.baseAddress!))
    }
  }

  @inline(__always)
  private init(_ bytes: UnsafeBufferPointer<UInt8>, split: FieldSplit) {
    self.bytes = bytes
    separators = split.ends
    count = split.count
  }

  private init(_ bytes: UnsafeBufferPointer<UInt8>, separators: UnsafeMutablePointer<UInt8>) {
    self.bytes = bytes
    self.separators = UnsafePointer(separators)
    var fields = 0
    var index = 0
    let end = min(bytes.count, 255)
    if let base = bytes.baseAddress {
      // Eight bytes at a time: a byte is a comma where the word XOR ",,,,,,,," has a zero
      // byte, found without carries between bytes.
      words: while index &+ 8 <= end {
        let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let difference = word ^ 0x2C2C_2C2C_2C2C_2C2C
        var commas =
          ~(((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | difference) & 0x8080_8080_8080_8080
        while commas != 0 {
          let position = index &+ commas.trailingZeroBitCount >> 3
          if fields == Self.maximumFields {
            index = position
            break words
          }
          separators[fields] = UInt8(truncatingIfNeeded: position)
          fields &+= 1
          commas &= commas &- 1
        }
        index &+= 8
      }
    }
    while index < end {
      if bytes[index] == UInt8(ascii: ",") {
        if fields == Self.maximumFields { break }
        separators[fields] = UInt8(truncatingIfNeeded: index)
        fields += 1
      }
      index += 1
    }
    separators[fields] = UInt8(truncatingIfNeeded: index)
    count = fields
  }

  /// The address after the delimiter: talker and type (`GPGGA`) or a proprietary name.
  var address: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[1..<Int(separators[0])])
  }

  /// The raw bytes of field `index`; empty when the sentence has fewer fields.
  @inline(__always)
  func raw(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    guard index < count else { return UnsafeBufferPointer(start: bytes.baseAddress, count: 0) }
    let start = Int(separators[index]) &+ 1
    let end = Int(separators[index &+ 1])
    // The separators are offsets within `bytes`, in order, so the slice needs no check.
    return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: end &- start)
  }

  /// Whether field `index` is present and not empty.
  func has(_ index: Int) -> Bool { !raw(index).isEmpty }

  /// Fails unless the sentence has at least `fields` fields.
  func require(fields: Int, name: String) throws(FieldError) {
    if count < fields { throw FieldError(index: fields - 1, name: name, problem: .missing) }
  }

  // MARK: Scalars

  /// A single character.
  func character(_ index: Int, _ name: String) throws(FieldError) -> UInt8? {
    let field = raw(index)
    if field.isEmpty { return nil }
    guard field.count == 1 else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
    return field[0]
  }

  /// An informational field: one of `allowed`, or `nil` when it is empty or holds a
  /// value unknown to it. Such a field informs and decides nothing else in its sentence
  /// (a navigational status, a mode letter beside the status that decides validity), so an
  /// unknown value costs the field only: it is counted as ignored, never rejects the
  /// sentence.
  @inline(__always)
  func informational(_ index: Int, oneOf allowed: StaticString) -> UInt8? {
    let field = raw(index)
    if field.isEmpty { return nil }
    if field.count == 1 {
      let value = field[0]
      if allowed.withUTF8Buffer({ $0.contains(value) }) { return value }
    }
    ignoredFields?.pointee += 1
    return nil
  }

  /// One of `allowed` characters.
  ///
  /// Inlined, so that `allowed`, always a literal, becomes a few comparisons.
  @inline(__always)
  func character(_ index: Int, _ name: String, oneOf allowed: StaticString) throws(FieldError)
    -> UInt8?
  {
    try character(index, of: name, suffix: "", oneOf: allowed)
  }

  /// ``character(_:_:oneOf:)`` for a field that qualifies the one before it, named after
  /// it (`name` and `suffix`, "magnetic variation" and " direction"). The name is put
  /// together only for an error: joining two strings for every sentence cost RMC more
  /// than reading its numbers.
  @inline(__always)
  func character(_ index: Int, of name: String, suffix: StaticString, oneOf allowed: StaticString)
    throws(FieldError) -> UInt8?
  {
    let field = raw(index)
    if field.isEmpty { return nil }
    if field.count == 1 {
      let value = field[0]
      // Through the buffer: a one-character literal may be stored as a scalar, not bytes.
      if allowed.withUTF8Buffer({ $0.contains(value) }) { return value }
    }
    throw FieldError(
      index: index, name: name + suffix.description, problem: field.count == 1 ? .outOfRange : .invalidFormat)
  }

  /// A non-negative decimal integer, optionally limited to `range`.
  ///
  /// Inlined where it is read, with the error cases apart: a satellite list is a dozen
  /// of these per sentence, and the call and the error handling cost more than the
  /// digits.
  @inline(__always)
  func integer(_ index: Int, _ name: String, in range: ClosedRange<Int>? = nil) throws(FieldError)
    -> Int?
  {
    let field = raw(index)
    if field.isEmpty { return nil }
    if let value = Self.plainInteger(field), range?.contains(value) ?? true { return value }
    try Self.integerFailure(index, name, field)
  }

  /// The value of a field of one to three digits (satellite IDs, elevations, azimuths,
  /// SNRs: most fields of GSA and GSV), without a loop; `nil` for anything else.
  @inline(__always)
  static func shortInteger(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = field.baseAddress, field.count >= 1 else { return nil }
    let first = Int(base[0] &- UInt8(ascii: "0"))
    switch field.count {
    case 1:
      return first < 10 ? first : nil
    case 2:
      let second = Int(base[1] &- UInt8(ascii: "0"))
      return first < 10 && second < 10 ? first &* 10 &+ second : nil
    case 3:
      let second = Int(base[1] &- UInt8(ascii: "0"))
      let third = Int(base[2] &- UInt8(ascii: "0"))
      return first < 10 && second < 10 && third < 10 ? (first &* 10 &+ second) &* 10 &+ third : nil
    default:
      return nil
    }
  }

  /// The value of a field of 1 to 18 digits; `nil` for anything else.
  @inline(__always)
  private static func plainInteger(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
    if field.count <= 3 { return shortInteger(field) }
    guard field.count <= 18 else { return nil }
    var value = 0
    for byte in field {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      // At most 18 digits: no overflow.
      value = value &* 10 &+ Int(digit)
    }
    return value
  }

  /// Why an integer field was refused: too long, not digits, or out of range.
  @inline(never)
  private static func integerFailure(_ index: Int, _ name: String, _ field: UnsafeBufferPointer<UInt8>)
    throws(FieldError) -> Never
  {
    if field.count <= 18, field.contains(where: { $0 &- UInt8(ascii: "0") >= 10 }) {
      throw FieldError(index: index, name: name, problem: .invalidFormat)
    }
    throw FieldError(index: index, name: name, problem: .outOfRange)
  }

  /// A hexadecimal integer (NMEA 4.11 signal IDs go up to `F`).
  ///
  /// Inlined for the one digit of every GSA's system ID and GSV's signal ID; longer
  /// numbers and errors apart.
  @inline(__always)
  func hexInteger(_ index: Int, _ name: String) throws(FieldError) -> Int? {
    let field = raw(index)
    if field.isEmpty { return nil }
    if field.count == 1, let digit = hexValue(field[0]) { return Int(digit) }
    return try Self.longHexInteger(index, name, field)
  }

  @inline(never)
  private static func longHexInteger(_ index: Int, _ name: String, _ field: UnsafeBufferPointer<UInt8>)
    throws(FieldError) -> Int
  {
    guard field.count <= 8 else { throw FieldError(index: index, name: name, problem: .outOfRange) }
    var value = 0
    for byte in field {
      guard let digit = hexValue(byte) else {
        throw FieldError(index: index, name: name, problem: .invalidFormat)
      }
      value = value << 4 | Int(digit)
    }
    return value
  }

  /// A decimal number such as `-12.345`, optionally limited to `range`.
  ///
  /// The common form (``DecimalDigits/plainValue(_:)``) in range is read inline; signs,
  /// long numbers and errors apart.
  @inline(__always)
  func decimal(_ index: Int, _ name: String, in range: ClosedRange<Double>? = nil)
    throws(FieldError) -> Double?
  {
    let field = raw(index)
    if field.isEmpty { return nil }
    if let value = DecimalDigits.plainValue(field), range?.contains(value) ?? true { return value }
    return try decimal(index, name, field, range)
  }

  @inline(never)
  private func decimal(
    _ index: Int, _ name: String, _ field: UnsafeBufferPointer<UInt8>, _ range: ClosedRange<Double>?
  ) throws(FieldError) -> Double {
    let value: Double
    if let plain = DecimalDigits.plainValue(field) {
      value = plain
    } else {
      guard let digits = DecimalDigits(field) else {
        throw FieldError(index: index, name: name, problem: .invalidFormat)
      }
      value = digits.value(field)
    }
    if let range, !range.contains(value) {
      throw FieldError(index: index, name: name, problem: .outOfRange)
    }
    return value
  }

  /// A decimal number followed by a unit field that must be `unit` when present,
  /// optionally limited to `range`.
  func decimal(_ index: Int, _ name: String, unit: UInt8, in range: ClosedRange<Double>? = nil)
    throws(FieldError) -> Double?
  {
    let value = try decimal(index, name, in: range)
    let unitField = raw(index + 1)
    if !unitField.isEmpty && (unitField.count != 1 || unitField[0] != unit) {
      throw FieldError(index: index + 1, name: name + " unit", problem: .outOfRange)
    }
    return value
  }

  // MARK: Positions and times

  /// Latitude `ddmm.mmmm` in field `index` and `N`/`S` in the next, in signed degrees.
  func latitude(_ index: Int) throws(FieldError) -> Double? {
    try angle(index, "latitude", maximumDegrees: 90, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
  }

  /// Longitude `dddmm.mmmm` in field `index` and `E`/`W` in the next, in signed degrees.
  func longitude(_ index: Int) throws(FieldError) -> Double? {
    try angle(index, "longitude", maximumDegrees: 180, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
  }

  /// The common form read inline (``plainAngle(_:maximumDegrees:)``); everything else,
  /// errors included, by the full reading.
  @inline(__always)
  private func angle(
    _ index: Int, _ name: String, maximumDegrees: UInt64, positive: UInt8, negative: UInt8
  ) throws(FieldError) -> Double? {
    let hemisphere = raw(index + 1)
    if hemisphere.count == 1, let value = plainAngle(raw(index), maximumDegrees: maximumDegrees) {
      if hemisphere[0] == positive { return value }
      if hemisphere[0] == negative { return -value }
    }
    return try fullAngle(index, name, maximumDegrees: maximumDegrees, positive: positive, negative: negative)
  }

  /// The unsigned degrees of an angle in its common form: 3 to 5 digits of degrees and
  /// whole minutes, then a point and the minutes' decimals, 15 digits at most and in
  /// range; `nil` for anything else. The same value as ``fullAngle(_:_:maximumDegrees:positive:negative:)``
  /// gives, to the bit: the digits are read eight at a time, but they make the same exact
  /// integer, divided by the same exact power of ten.
  @inline(__always)
  func plainAngle(_ field: UnsafeBufferPointer<UInt8>, maximumDegrees: UInt64) -> Double? {
    let count = field.count
    guard count >= 3, count <= 16, let start = field.baseAddress, let base = bytes.baseAddress else { return nil }
    let point: Int
    if count > 4 && start[4] == UInt8(ascii: ".") {
      point = 4
    } else if count > 5 && start[5] == UInt8(ascii: ".") {
      point = 5
    } else if count > 3 && start[3] == UInt8(ascii: ".") {
      point = 3
    } else if count <= 5 {
      point = count
    } else {
      return nil
    }
    let decimals = point < count ? count &- point &- 1 : 0
    // Eight bytes are read before the end of each group of digits: they must lie in the
    // sentence, which the address before any field makes nearly always true.
    guard point &+ decimals <= 15, start + point - base >= 8,
      let whole = DecimalDigits.group(endingAt: start + point, count: point)
    else { return nil }
    var fraction: UInt64 = 0
    if decimals > 8 {
      guard let high = DecimalDigits.group(endingAt: start + count - 8, count: decimals &- 8),
        let low = DecimalDigits.group(endingAt: start + count, count: 8)
      else { return nil }
      fraction = high &* 100_000_000 &+ low
    } else if decimals > 0 {
      guard let low = DecimalDigits.group(endingAt: start + count, count: decimals) else { return nil }
      fraction = low
    }
    // Both terms are integers below 2⁵³, and so is their sum: exact, as the one integer
    // of all the digits is.
    let scale = exactPowersOfTen[decimals]
    let value = (Double(whole) * scale + Double(fraction)) / scale
    let degrees = whole / 100
    let minutes = value - Double(degrees * 100)
    guard whole % 100 < 60, degrees < maximumDegrees || (degrees == maximumDegrees && minutes == 0) else {
      return nil
    }
    return Double(degrees) + minutes / 60
  }

  @inline(never)
  func fullAngle(
    _ index: Int, _ name: String, maximumDegrees: UInt64, positive: UInt8, negative: UInt8
  ) throws(FieldError) -> Double? {
    let field = raw(index)
    let hemisphere = raw(index + 1)
    if field.isEmpty && hemisphere.isEmpty { return nil }
    guard !field.isEmpty, hemisphere.count == 1 else {
      throw FieldError(index: index, name: name, problem: .incompletePair)
    }
    guard let digits = DecimalDigits(field), !digits.negative, field[0] != UInt8(ascii: "+"),
      digits.integerDigits >= 3, digits.integerDigits <= 5
    else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
    let degrees = digits.integerPart / 100
    let wholeMinutes = digits.integerPart % 100
    let minutes = digits.value(field) - Double(degrees * 100)
    guard wholeMinutes < 60, degrees < maximumDegrees || (degrees == maximumDegrees && minutes == 0)
    else { throw FieldError(index: index, name: name, problem: .outOfRange) }
    let value = Double(degrees) + minutes / 60
    switch hemisphere[0] {
    case positive: return value
    case negative: return -value
    default: throw FieldError(index: index + 1, name: name + " hemisphere", problem: .outOfRange)
    }
  }

  /// The decimals of the minutes in a latitude (`index`) and a longitude field, the fewer
  /// of the two: how finely the receiver rounds its position. `nil` when either is empty.
  func coordinateDecimals(_ latitudeIndex: Int, _ longitudeIndex: Int) -> Int? {
    @inline(__always) func decimals(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
      if field.isEmpty { return nil }
      // A field that reads as an angle has 3 to 5 digits before its point, so its first
      // point is the first of these; the fields of a sentence refused for its angles
      // are never asked.
      for point in 3...5 where point < field.count && field[point] == UInt8(ascii: ".") {
        return field.count - point - 1
      }
      guard let point = field.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
      return field.count - point - 1
    }
    guard let latitude = decimals(raw(latitudeIndex)), let longitude = decimals(raw(longitudeIndex)) else {
      return nil
    }
    return min(latitude, longitude)
  }

  /// UTC time `hhmmss` or `hhmmss.sss…` (fraction kept to the microsecond).
  func time(_ index: Int, _ name: String = "time") throws(FieldError) -> TimeOfDay? {
    let field = raw(index)
    if field.isEmpty { return nil }
    guard field.count >= 6 else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
    @inline(__always) func digit(_ position: Int) -> Int { Int(field[position] &- UInt8(ascii: "0")) }
    let digits = (digit(0), digit(1), digit(2), digit(3), digit(4), digit(5))
    // Bytes below "0" wrap to large values: one comparison each.
    guard digits.0 < 10, digits.1 < 10, digits.2 < 10, digits.3 < 10, digits.4 < 10, digits.5 < 10
    else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
    let parts = (digits.0 * 10 + digits.1, digits.2 * 10 + digits.3, digits.4 * 10 + digits.5)
    var microsecond = 0
    if field.count > 6 {
      guard field[6] == UInt8(ascii: ".") else {
        throw FieldError(index: index, name: name, problem: .invalidFormat)
      }
      var scale = 100_000
      for position in 7..<field.count {
        let digit = field[position] &- UInt8(ascii: "0")
        guard digit < 10 else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
        microsecond += Int(digit) * scale
        scale /= 10
      }
    }
    guard let time = TimeOfDay(hour: parts.0, minute: parts.1, second: parts.2, microsecond: microsecond)
    else { throw FieldError(index: index, name: name, problem: .outOfRange) }
    return time
  }

  /// A `ddmmyy` date; two-digit years 80–99 are 1980–1999, the others 2000–2079.
  func date(_ index: Int, _ name: String = "date") throws(FieldError) -> CalendarDate? {
    let field = raw(index)
    if field.isEmpty { return nil }
    guard field.count == 6 else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
    var parts = (0, 0, 0)
    for position in 0..<6 {
      let digit = field[position] &- UInt8(ascii: "0")
      guard digit < 10 else { throw FieldError(index: index, name: name, problem: .invalidFormat) }
      switch position {
      case 0, 1: parts.0 = parts.0 * 10 + Int(digit)
      case 2, 3: parts.1 = parts.1 * 10 + Int(digit)
      default: parts.2 = parts.2 * 10 + Int(digit)
      }
    }
    let year = parts.2 >= 80 ? 1900 + parts.2 : 2000 + parts.2
    guard let date = CalendarDate(year: year, month: parts.1, day: parts.0) else {
      throw FieldError(index: index, name: name, problem: .outOfRange)
    }
    return date
  }

  /// The field as text (for free-text fields such as TXT's message).
  func text(_ index: Int) -> String? {
    let field = raw(index)
    return field.isEmpty ? nil : String(decoding: field, as: UTF8.self)
  }
}
