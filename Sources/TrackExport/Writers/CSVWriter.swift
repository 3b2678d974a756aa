import LocationKit
import NMEA

/// CSV per RFC 4180: a header row, then one row per fix with every field of
/// ``ExportField/all``; CRLF line ends, an empty cell for what the receiver did not give.
///
/// Numbers are written as `print --json` writes them (`.` decimal point, no thousands
/// separator), times as ISO 8601 UTC, so spreadsheets and `pandas.read_csv` take them
/// without options. The fixes of several gpsd devices are rows as they come, told apart by
/// the `device` column, each with its own `segment` and distance figures.
public final class CSVWriter: ExportWriter {
  private let fields = ExportField.all
  public var interleavesDevices: Bool { true }

  /// A writer for one document; CSV has no header fields of its own beyond the columns, so
  /// `header` is not used.
  public init(_ header: ExportHeader) {}

  public func begin(into output: inout ByteBuffer) {
    for (index, field) in fields.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      output.append(field.name)
    }
    output.append("\r\n")
  }

  public func add(_ fix: ExportFix, into output: inout ByteBuffer) {
    // By index: enumerating copied every field, with a retain of its closure, for every
    // cell of every row.
    for index in fields.indices {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      switch fields[index].value(fix) {
      case .missing: break
      case .number(let number, let decimals): output.append(number, decimals: decimals)
      case .integer(let integer): output.append(integer: integer)
      case .text(let text): Self.append(cell: text, into: &output)
      case .time(let timestamp): output.append(timestamp)
      }
    }
    output.append("\r\n")
  }

  public func endTracks(into output: inout ByteBuffer, flush: ExportFlush) {}
  public func endDocument(into output: inout ByteBuffer, flush: ExportFlush) {}

  /// A text cell, quoted (with inner quotes doubled) when it holds a comma, a quote or a
  /// line break, as RFC 4180 requires.
  public static func append(cell text: String, into output: inout ByteBuffer) {
    var text = text
    // Through the contiguous bytes: iterating the UTF-8 view cost hundreds of
    // instructions for a short cell, and every row has four.
    let plain = text.withUTF8 { bytes in
      guard
        !bytes.contains(where: {
          $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
        })
      else { return false }
      output.append(bytes)
      return true
    }
    if plain { return }
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\"") { output.append(UInt8(ascii: "\"")) }
      output.append(byte)
    }
    output.append(UInt8(ascii: "\""))
  }
}
