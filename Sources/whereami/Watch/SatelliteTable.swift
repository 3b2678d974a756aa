import NMEA

/// The satellite table of the watch screen: per constellation, each satellite's number,
/// elevation, azimuth, signal strength as a bar, and whether the fix used it.
///
/// ```
///  PRN  Elev  Azim  SNR             Used
/// GPS · 10 of 12 used
///    2   55°  121°   45 █████████     ✓
///   15    6°  230°    -
/// ```
enum SatelliteTable {
  /// The width the table needs.
  static let width = 38
  /// Bar cells: 5 dB-Hz each, so that 50 dB-Hz (a strong signal under open sky) fills it.
  static let barCells = 10
  private static let dBPerCell = 5.0
  private static let partialBlocks: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

  /// The table in at most `rows` lines; when it is longer, the last line says how many
  /// satellites are left out.
  static func lines(_ satellites: [SatelliteInfo], rows: Int, style: ScreenStyle) -> [String] {
    guard rows > 0 else { return [] }
    let merged = merge(satellites)
    guard !merged.isEmpty else { return ["no satellite data"] }
    // Each line, and whether it is a satellite's row (not a heading).
    var entries = [(" PRN  Elev  Azim  SNR" + String(repeating: " ", count: barCells + 3) + "Used", false)]
    let groups = Dictionary(grouping: merged) { $0.constellation }
    for constellation in order {
      guard let members = groups[constellation]?.sorted(by: { $0.id < $1.id }) else { continue }
      let used = members.filter(\.isUsed).count
      let name = constellation?.description ?? "Other"
      entries.append((style.paint("\(name) · \(used) of \(members.count) used", .bold), false))
      entries += members.map { (row($0, style: style), true) }
    }
    guard entries.count > rows else { return entries.map(\.0) }
    let kept = entries.prefix(rows - 1)
    let left = merged.count - kept.filter(\.1).count
    return kept.map(\.0) + ["… \(left) more"]
  }

  /// One line per satellite: a receiver reporting several signals of one satellite
  /// (L1 and L5, say) lists it once per signal; the table shows its strongest signal.
  static func merge(_ satellites: [SatelliteInfo]) -> [SatelliteInfo] {
    struct Key: Hashable {
      var constellation: Constellation?
      var id: Int
    }
    var merged: [SatelliteInfo] = []
    var index: [Key: Int] = [:]
    for satellite in satellites {
      let key = Key(constellation: satellite.constellation, id: satellite.id)
      guard let position = index[key] else {
        index[key] = merged.count
        merged.append(satellite)
        continue
      }
      var existing = merged[position]
      existing.isUsed = existing.isUsed || satellite.isUsed
      if let snr = satellite.snr, snr > (existing.snr ?? -1) { existing.snr = snr }
      existing.elevation = existing.elevation ?? satellite.elevation
      existing.azimuth = existing.azimuth ?? satellite.azimuth
      merged[position] = existing
    }
    return merged
  }

  /// A signal strength as a bar of `barCells` cells, in eighths of a cell.
  static func bar(_ snr: Double?) -> String {
    guard let snr, snr.isFinite, snr > 0 else { return "" }
    let eighths = min(barCells * 8, Int((snr / dBPerCell * 8).rounded()))
    var text = String(repeating: "█", count: eighths / 8)
    if eighths % 8 > 0 { text.append(partialBlocks[eighths % 8 - 1]) }
    return text
  }

  private static let order: [Constellation?] = [.gps, .sbas, .glonass, .galileo, .beidou, .qzss, .navic, nil]

  private static func row(_ satellite: SatelliteInfo, style: ScreenStyle) -> String {
    func right(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - TextWidth.width(text))) + text
    }
    let elevation = satellite.elevation.map { String(Int($0.rounded())) + "°" } ?? "-"
    let azimuth = satellite.azimuth.map { String(Int($0.rounded())) + "°" } ?? "-"
    let snr = satellite.snr.map { String(Int($0.rounded())) } ?? "-"
    let bar = TextWidth.pad(bar(satellite.snr), barCells)
    let used = satellite.isUsed ? "✓" : " "
    return right(String(satellite.id), 4) + right(elevation, 6) + right(azimuth, 6) + right(snr, 5) + " "
      + (satellite.isUsed ? style.paint(bar, .green) : bar) + "    "
      + (satellite.isUsed ? style.paint(used, .green) : used)
  }
}
