import NMEA

/// Human-readable figures for the export's titles and descriptions.
public enum ExportText {
  /// `45 s`, `19 min 19 s`, `2 h 05 min`: as precise as a title needs.
  public static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "-" }
    let total = Int(seconds.rounded())
    if total < 60 { return "\(total) s" }
    if total < 3600 { return "\(total / 60) min \(total % 60) s" }
    let minutes = total / 60 % 60
    return "\(total / 3600) h \(minutes < 10 ? "0" : "")\(minutes) min"
  }

  /// A distance in kilometres with two decimals: `1.62 km`.
  public static func kilometres(_ metres: Double) -> String {
    "\(fixed(metres / 1000, 2)) km"
  }

  /// The span of dates between two timestamps: `2025-06-14`, or `2025-12-31 – 2026-01-01`
  /// across midnight; `date unknown` for logs without a date.
  public static func dates(_ start: Timestamp?, _ end: Timestamp?) -> String {
    guard let start else { return "date unknown" }
    guard let end, end.date != start.date else { return start.date.description }
    return "\(start.date) – \(end.date)"
  }

  /// `07:42:13`: a time of day to the second.
  public static func clock(_ time: TimeOfDay) -> String {
    String(time.description.prefix(8))
  }
}
