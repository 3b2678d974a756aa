import NMEA

/// What an input that gave no fix held instead, for the message that says so.
enum InputDiagnosis {
  /// "no fix in FILE: 1,234 bytes, 56 lines, 0 sentences accepted, 56 rejected (bad
  /// checksum 56); it is gzip-compressed: try zcat FILE | whereami print -".
  static func noFix(in name: String, _ statistics: DecoderStatistics, leadingBytes: [UInt8]) -> String {
    var text =
      "no fix in \(name): \(statistics.bytes) bytes, \(statistics.lines) lines, "
      + "\(statistics.sentences) sentences accepted, \(statistics.totalRejected) rejected"
    let reasons = RejectionReason.allCases.compactMap { reason -> String? in
      let count = statistics.rejected(reason)
      return count > 0 ? "\(reason) \(count)" : nil
    }
    if !reasons.isEmpty { text += " (" + reasons.joined(separator: ", ") + ")" }
    if let hint = hint(statistics, leadingBytes, name: name) { text += "; " + hint }
    return text
  }

  private static func hint(_ statistics: DecoderStatistics, _ leading: [UInt8], name: String) -> String? {
    if statistics.bytes == 0 { return "it is empty" }
    let file = name == "standard input" ? "FILE" : name
    if leading.starts(with: [0x1f, 0x8b]) { return "it is gzip-compressed: try zcat \(file) | whereami print -" }
    if leading.starts(with: Array("BZh".utf8)) { return "it is bzip2-compressed: try bzcat \(file) | whereami print -" }
    if leading.starts(with: [0xfd, 0x37, 0x7a, 0x58]) {
      return "it is xz-compressed: try xzcat \(file) | whereami print -"
    }
    let utf16 =
      leading.starts(with: [0xff, 0xfe]) || leading.starts(with: [0xfe, 0xff])
      || (leading.count >= 4 && (leading[1] == 0 && leading[3] == 0 || leading[0] == 0 && leading[2] == 0))
    if utf16 { return "it looks like UTF-16 text: try iconv -f UTF-16 -t ASCII \(file) | whereami print -" }
    if statistics.sentences > 0 && statistics.fixesWithPosition == 0 {
      return "the receiver reported no position in its \(statistics.cycles) reporting cycles (no fix yet?)"
    }
    if statistics.sentences == 0 { return "it is not NMEA 0183 (no sentence starting with $ or ! was accepted)" }
    return nil
  }
}
