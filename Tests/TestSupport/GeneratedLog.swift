import Foundation

/// A log of 10 Hz cycles written for the parallel decoding tests: GGA, GSA, GSV every second and, when
/// `dated`, RMC; every `lossEvery` cycles, 30 cycles without a fix.
public final class GeneratedLog {
  public let path: String

  deinit { try? FileManager.default.removeItem(atPath: path) }

  public init(cycles: Int, start: Int, dated: Bool, lossEvery: Int) throws {
    var text = "# a generated log\r\n"
    var latitude = 48.1
    for index in 0..<cycles {
      let tenths = (start * 10 + index) % 864_000
      let seconds = tenths / 10
      let time = String(format: "%02d%02d%02d.%d", seconds / 3600, seconds / 60 % 60, seconds % 60, tenths % 10)
      let lost = lossEvery > 0 && index % lossEvery >= lossEvery - 30
      latitude += 0.00001
      let minutes = (latitude - 48) * 60
      let position = String(format: "48%08.5f,N,01134.00000,E", minutes)
      text +=
        checksummed(
          "$GPGGA,\(time),\(lost ? ",,," : position),\(lost ? 0 : 1),08,0.9,\(lost ? "" : "520.0"),M,47.0,M,,") + "\r\n"
      text += checksummed("$GPGSA,A,\(lost ? 1 : 3),01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2") + "\r\n"
      if tenths % 10 == 0 {
        text += checksummed("$GPGSV,2,1,08,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45") + "\r\n"
        text += checksummed("$GPGSV,2,2,08,05,40,083,46,06,17,308,41,07,07,344,39,08,22,228,45") + "\r\n"
      }
      if dated {
        let day = (start * 10 + index) >= 864_000 ? "021226" : "011226"
        text +=
          checksummed(
            "$GPRMC,\(time),\(lost ? "V" : "A"),\(lost ? ",,," : position),1.2,45.0,\(day),,,\(lost ? "N" : "A")")
          + "\r\n"
      }
      if index == cycles / 3 { text += "$GPGGA,garbage*00\r\n\u{1}\u{2}binary\r\n" }
    }
    path = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UUID().uuidString).nmea").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
  }

  /// Puts a compass's magnetic heading (HDM) into the log every 2,000 to 5,000 lines, and
  /// gives the first RMC at least 20 lines after each a magnetic variation of its own, a
  /// different one each time: the headings come before the variation, as when the
  /// corpus's receivers' logs are joined end to end. Returns how many headings it put in.
  public func insertHeadingsBeforeVariations(seed: UInt64) throws -> Int {
    var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n")
    var random = SeededRandom(seed: seed)
    var index = 200
    var stretches = 0
    while index < lines.count - 100 {
      lines.insert(checksummed("$HCHDM,\(Int.random(in: 100...300, using: &random)).4,M"), at: index)
      guard let rmc = lines[(index + 20)...].firstIndex(where: { $0.hasPrefix("$GPRMC") }) else { break }
      let body = lines[rmc].dropFirst().prefix { $0 != "*" }
      let variation = "\(Int.random(in: 1...9, using: &random)).\(stretches % 10),\(stretches % 2 == 0 ? "E" : "W")"
      lines[rmc] = checksummed("$" + body.replacingOccurrences(of: ",011226,,,", with: ",011226,\(variation),"))
      stretches += 1
      index += Int.random(in: 2000...5000, using: &random)
    }
    try lines.joined(separator: "\r\n").write(toFile: path, atomically: false, encoding: .utf8)
    return stretches
  }
}
