/// A JSON document (RFC 8259), parsed from bytes: enough to read GeoJSON files.
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// Members in the order written; a repeated name keeps its last value when looked up.
  case object([(String, JSONValue)])

  static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
    default: false
    }
  }

  /// The member `name` of an object; `nil` for anything else or a missing member.
  subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == name }?.1
  }

  var string: String? { if case .string(let value) = self { value } else { nil } }
  var number: Double? { if case .number(let value) = self { value } else { nil } }
  var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

  /// A value as a name: a string as it is, a number without a needless fraction.
  var nameText: String? {
    switch self {
    case .string(let value): value
    case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    default: nil
    }
  }

  /// Where a document is not JSON: the line and column (from 1) and why.
  struct ParseError: Error, Equatable {
    var line: Int
    var column: Int
    var reason: String
  }

  /// Parses a whole document; nesting deeper than `maximumDepth` is refused (so that no
  /// file can exhaust the stack).
  static func parse(_ bytes: [UInt8], maximumDepth: Int = 512) throws(ParseError) -> JSONValue {
    var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else { throw parser.error("text after the end of the document") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    func error(_ reason: String) -> ParseError {
      var line = 1
      var column = 1
      for byte in bytes[..<min(index, bytes.count)] {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return ParseError(line: line, column: column, reason: reason)
    }

    mutating func skipSpace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
      guard depth < maximumDepth else { throw error("nested deeper than \(maximumDepth) levels") }
      guard index < bytes.count else { throw error("the document ends where a value should be") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object(depth: depth)
      case UInt8(ascii: "["): return try array(depth: depth)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      default: return .number(try number())
      }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
      let letters = Array(word.utf8)
      guard bytes.count - index >= letters.count, Array(bytes[index..<index + letters.count]) == letters else {
        throw error("not a JSON value")
      }
      index += letters.count
      return value
    }

    mutating func object(depth: Int) throws(ParseError) -> JSONValue {
      index += 1
      var members: [(String, JSONValue)] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("a member name is missing") }
        let name = try string()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("':' is missing") }
        index += 1
        skipSpace()
        members.append((name, try value(depth: depth + 1)))
        skipSpace()
        guard index < bytes.count else { throw error("the document ends inside an object") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw error("',' or '}' is missing") }
        index += 1
        return .object(members)
      }
    }

    mutating func array(depth: Int) throws(ParseError) -> JSONValue {
      index += 1
      var elements: [JSONValue] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        skipSpace()
        elements.append(try value(depth: depth + 1))
        skipSpace()
        guard index < bytes.count else { throw error("the document ends inside an array") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "]") else { throw error("',' or ']' is missing") }
        index += 1
        return .array(elements)
      }
    }

    mutating func string() throws(ParseError) -> String {
      index += 1
      var scalars: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""):
          return String(decoding: scalars, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { break }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
          case UInt8(ascii: "b"): scalars.append(0x08)
          case UInt8(ascii: "f"): scalars.append(0x0C)
          case UInt8(ascii: "n"): scalars.append(0x0A)
          case UInt8(ascii: "r"): scalars.append(0x0D)
          case UInt8(ascii: "t"): scalars.append(0x09)
          case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            {
              index += 2
              let low = try hex4()
              guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a string") }
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("a lone surrogate in a string") }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
          default:
            index -= 1
            throw error("an unknown escape in a string")
          }
        case 0..<0x20:
          index -= 1
          throw error("a control character in a string")
        default:
          scalars.append(byte)
        }
      }
      throw error("the document ends inside a string")
    }

    mutating func hex4() throws(ParseError) -> UInt32 {
      guard bytes.count - index >= 4 else { throw error("a \\u escape needs four hex digits") }
      var code: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw error("a \\u escape needs four hex digits")
        }
        code = code << 4 | UInt32(digit)
        index += 1
      }
      return code
    }

    mutating func number() throws(ParseError) -> Double {
      let start = index
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      func digits() -> Int {
        let from = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - from
      }
      guard digits() > 0 else {
        index = start
        throw error("not a JSON value")
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw error("a number needs digits after its '.'") }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw error("a number needs digits in its exponent") }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard let value = Double(text), value.isFinite else {
        index = start
        throw error("the number \(text) is out of range")
      }
      return value
    }
  }
}
