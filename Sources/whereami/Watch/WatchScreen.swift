import Geodesy
import LocationKit
import NMEA
import TrackExport

/// Whether the screen uses colours: never under `NO_COLOR`.
struct ScreenStyle: Sendable, Equatable {
  var color: Bool

  /// No escape sequence at all.
  static let plain = ScreenStyle(color: false)
  static let colored = ScreenStyle(color: true)

  /// SGR attributes the screen uses.
  enum Attribute: String {
    case bold = "1"
    case reverse = "7"
    case red = "31"
    case green = "32"
    case yellow = "33"
  }

  /// `text` with `attributes` switched on and then reset, or `text` alone without colour.
  func paint(_ text: String, _ attributes: Attribute...) -> String {
    guard color, !text.isEmpty, !attributes.isEmpty else { return text }
    return "\u{1B}[" + attributes.map(\.rawValue).joined(separator: ";") + "m" + text + "\u{1B}[0m"
  }
}

/// The full-screen view of `whereami watch`, as a pure function of a ``WatchModel``: the
/// same model, size and time always give the same lines, so frames are tested without a
/// terminal.
///
/// Layout: a title line, the body, and a status line. The body has the values on the left
/// (most important first, so that a short terminal keeps them) with the satellite table
/// under them, and the track map on the right. A wide but short terminal gives the table
/// a column of its own (from ``threeColumnWidth``); one narrower than ``twoColumnWidth``
/// stacks everything. Whatever does not fit is cut, never wrapped.
enum WatchScreen {
  /// The width of the left panel: values and satellite table.
  static let panelWidth = 40
  /// The narrowest map worth a column of its own.
  static let minimumMapWidth = 20
  /// From this width on the map sits beside the values.
  static let twoColumnWidth = panelWidth + 1 + minimumMapWidth
  /// From this width on, a table too long to fit under the values gets a column of its
  /// own between the values and the map.
  static let threeColumnWidth = panelWidth + 1 + SatelliteTable.width + 1 + 30
  private static let labelWidth = 12

  /// Exactly `height` lines, each at most `width` columns wide (escape sequences aside).
  /// `now` is the wall-clock time (seconds since the Unix epoch) the ages are counted to.
  static func render(_ model: WatchModel, width: Int, height: Int, now: Double, style: ScreenStyle) -> [String] {
    guard height > 0 else { return [] }
    guard width > 0 else { return Array(repeating: "", count: height) }
    let status = statusLine(model, width: width, now: now, style: style)
    guard height > 1 else { return [status] }
    let title = titleLine(model, width: width, style: style)
    let body = body(model, width: width, height: height - 2, now: now, style: style)
    return [title] + body + [status]
  }

  // MARK: Title and status

  private static func titleLine(_ model: WatchModel, width: Int, style: ScreenStyle) -> String {
    var title = " whereami watch · " + model.sourceName
    var keys = "q quit "
    if model.anchor?.alarm != nil { keys = "a acknowledge · " + keys }
    if model.devices.count > 1, let device = model.device {
      title += " · " + TextWidth.sanitized(device) + " (\(model.devices.index) of \(model.devices.count))"
      keys = "d next device · " + keys
    }
    let line = TextWidth.spread(title, keys, width)
    return style.paint(TextWidth.pad(line, width), .reverse)
  }

  /// The status: the end of the source; the latest error while no fix came after it;
  /// before the first fix, the latest message or that we wait; otherwise `receiving`,
  /// with the latest error or message (a rejected line under `-v`) and its age.
  static func statusText(_ model: WatchModel, now: Double) -> (text: String, attribute: ScreenStyle.Attribute?) {
    // The anchor alarm before all else, until it is acknowledged.
    if let anchor = model.anchor, let alarm = anchor.alarm {
      return (anchor.alarmMessage(alarm) + " — press a to acknowledge", .red)
    }
    if model.ended {
      return ("source ended — press q to quit", .yellow)
    }
    if let error = model.lastError, let time = model.lastErrorAt, time >= model.lastFixAt ?? -Double.infinity {
      return (describe(error), .red)
    }
    if model.fixCount == 0 {
      if let message = model.lastMessage { return (message, .yellow) }
      return ("waiting for the first fix from \(model.sourceName)", nil)
    }
    var notes: [(time: Double, text: String)] = []
    if let error = model.lastError, let time = model.lastErrorAt {
      notes.append((time, "last error \(WatchFormat.age(now - time)) ago: \(describe(error))"))
    }
    if let message = model.lastMessage, let time = model.lastMessageAt {
      notes.append((time, "last message \(WatchFormat.age(now - time)) ago: \(message)"))
    }
    guard let latest = notes.max(by: { $0.time < $1.time }) else { return ("receiving", nil) }
    return ("receiving · " + latest.text, nil)
  }

  /// `location unknown: no fix`; the kind is not repeated when the message starts with it
  /// (`cannot connect to gpsd at ...`).
  private static func describe(_ error: LocationError) -> String {
    error.message.hasPrefix(error.kind) ? error.message : "\(error.kind): \(error.message)"
  }

  private static func statusLine(_ model: WatchModel, width: Int, now: Double, style: ScreenStyle) -> String {
    let (text, attribute) = statusText(model, now: now)
    let fixes = model.fixCount == 1 ? "1 fix" : "\(model.fixCount) fixes"
    let line = TextWidth.spread(text, fixes, width)
    guard let attribute else { return line }
    return style.paint(line, attribute)
  }

  // MARK: Body

  private static func body(_ model: WatchModel, width: Int, height: Int, now: Double, style: ScreenStyle) -> [String] {
    guard height > 0 else { return [] }
    let values = valueLines(model, now: now)
    let satellites = model.satellites
    let table = SatelliteTable.lines(satellites, rows: Int.max, style: style)
    let tableFitsUnder = values.count + 1 + table.count <= height
    if width >= threeColumnWidth && !tableFitsUnder {
      // Wide but short: the table gets a column of its own rather than being cut.
      let tableLines = SatelliteTable.lines(satellites, rows: height, style: style)
      let mapWidth = width - panelWidth - SatelliteTable.width - 2
      return zip3(
        column(values, width: panelWidth, height: height),
        column(tableLines, width: SatelliteTable.width, height: height),
        mapLines(model, columns: mapWidth, rows: height, style: style)
      ).map { $0 + "│" + $1 + "│" + $2 }
    }
    if width >= twoColumnWidth {
      let left =
        values
        + (tableFitsUnder ? [""] + table : SatelliteTable.lines(satellites, rows: height - values.count, style: style))
      let right = mapLines(model, columns: width - panelWidth - 1, rows: height, style: style)
      return zip(column(left, width: panelWidth, height: height), right).map { $0 + "│" + $1 }
    }
    var lines = values.map { TextWidth.fit($0, width) }
    if lines.count + 2 < height {
      lines +=
        [""]
        + SatelliteTable.lines(satellites, rows: height - lines.count - 1, style: style)
        .map { TextWidth.fit($0, width) }
    }
    if lines.count + 6 <= height {
      lines += [""] + mapLines(model, columns: width, rows: height - lines.count - 1, style: style)
    }
    return column(lines, width: nil, height: height)
  }

  /// `lines` cut or filled with empty lines to `height`, each padded to `width` if given.
  private static func column(_ lines: [String], width: Int?, height: Int) -> [String] {
    let cut = Array(lines.prefix(height)) + Array(repeating: "", count: max(0, height - lines.count))
    guard let width else { return cut }
    return cut.map { TextWidth.pad($0, width) }
  }

  private static func zip3(_ a: [String], _ b: [String], _ c: [String]) -> [(String, String, String)] {
    (0..<min(a.count, b.count, c.count)).map { (a[$0], b[$0], c[$0]) }
  }

  private static func mapLines(_ model: WatchModel, columns: Int, rows: Int, style: ScreenStyle) -> [String] {
    let header = TextWidth.spread(style.paint("Track", .bold), "N↑", columns)
    guard rows > 1 else { return rows == 1 ? [header] : [] }
    let circle = model.anchor.flatMap { anchor in
      anchor.position.map { (latitude: $0.latitude, longitude: $0.longitude, radius: anchor.radius) }
    }
    let map = TrackMap.render(
      track: model.track.points, location: model.location, columns: columns, rows: rows - 1,
      units: model.options.units, circle: circle)
    return [header] + map
  }

  /// The values, most important first: a short terminal shows the first ones.
  static func valueLines(_ model: WatchModel, now: Double) -> [String] {
    let units = model.options.units
    let coordinates = model.options.coordinates
    let location = model.location
    let unknown = WatchFormat.unknown
    func line(_ label: String, _ value: String) -> String {
      TextWidth.pad(label, labelWidth) + TextWidth.fit(value, panelWidth - labelWidth)
    }
    func plusMinus(_ metres: Double?) -> String {
      metres == nil ? unknown : "±" + WatchFormat.length(metres, units)
    }
    var accuracy = plusMinus(location?.horizontalAccuracy)
    if location?.horizontalAccuracy != nil, let source = location?.accuracySource {
      accuracy += source == .dilutionOfPrecision ? " (from DOP)" : " (\(source))"
    }
    // The vertical accuracy goes with the altitude it qualifies: `36.3 m MSL ±6.9 m`.
    var altitude = unknown
    if let metres = location?.altitude {
      altitude = WatchFormat.length(metres, units) + " MSL"
      if let vertical = location?.verticalAccuracy { altitude += " " + plusMinus(vertical) }
    }
    // Values the receiver did not send: `~` before a speed or course from positions, the
    // model's name after an ellipsoidal height built on it.
    func derived(_ text: String, _ value: Double?) -> String {
      value != nil && location?.speedSource == .positions ? "~" + text : text
    }
    var ellipsoidal = WatchFormat.length(location?.ellipsoidalAltitude, units)
    if location?.ellipsoidalAltitude != nil, location?.geoidSource == .egm96 { ellipsoidal += " (EGM96 geoid)" }
    let odometer = model.odometer
    let hasTrack = model.fixCount > 0
    // The compass, for sources with a heading: where the vehicle points beside where it goes.
    var compass: [String] = []
    if let heading = model.heading {
      compass.append(line("Heading", WatchFormat.heading(heading)))
      compass.append(line("Compass", WatchFormat.compass(heading.trueHeading, course: location?.course)))
    }
    // The device's own motion, with --motion.
    let sensors = model.motionPanel?.lines.map { line($0.0, $0.1) } ?? []
    // The anchor watch first: it is what the user watches for.
    var anchorLines: [String] = []
    if let anchor = model.anchor {
      // Where the anchor is from here, and the swing radius.
      var place = "swing " + WatchFormat.length(anchor.radius, units)
      if let location, let to = anchor.toAnchor(from: location) {
        place = WatchFormat.length(to.distance, units) + " " + fixed(to.bearing, 0) + "° · " + place
      } else if anchor.position == nil {
        place += " · drops at 1st fix"
      }
      anchorLines.append(line("Anchor", place))
      anchorLines.append(line("Alarm", anchorText(anchor, location, units)))
    }
    return anchorLines + [
      line("Latitude", location.map { WatchFormat.latitude($0.latitude, coordinates) } ?? unknown),
      line("Longitude", location.map { WatchFormat.longitude($0.longitude, coordinates) } ?? unknown),
      line("Accuracy", accuracy),
      line("Axes", axesText(location, units)),
      line("Speed", derived(WatchFormat.speed(location?.speed, units), location?.speed)),
      line("Course", derived(WatchFormat.course(location?.course), location?.course)),
    ] + compass + [
      line(
        "Distance",
        hasTrack
          ? WatchFormat.distance(odometer.distance, units) + " ±" + WatchFormat.distance(odometer.distanceError, units)
          : unknown),
      line("From start", hasTrack ? WatchFormat.distance(odometer.displacement, units) : unknown),
      line("Motion", motionText(model)),
      line("Fix", fixText(location, sky: model.sky)),
      line("Fix age", model.lastFixAt.map { WatchFormat.age(now - $0) } ?? unknown),
      line("UTC", utcText(location, sky: model.sky)),
      line("Local", localText(location, model.localZone)),
      line("Altitude", altitude),
      line("Ellipsoidal", ellipsoidal),
      line("Climb", WatchFormat.climb(location?.climb, units)),
      line("DOP", dopText(location?.dop)),
      line(
        "Grid square",
        location.flatMap { Maidenhead.locator(latitude: $0.latitude, longitude: $0.longitude) } ?? unknown),
    ] + sensors
  }

  /// `holding · 12.3 m to spare`, `DRAGGING — press a`, `outside (acknowledged)`: the
  /// watch's state, and how far the latest fix is from the swing circle.
  static func anchorText(_ anchor: AnchorWatch, _ location: Location?, _ units: UnitSystem) -> String {
    if anchor.alarm != nil { return "DRAGGING — press a" }
    switch anchor.state {
    case .inside:
      guard let location, let to = anchor.toAnchor(from: location) else { return "holding" }
      let spare = anchor.radius - to.distance
      return spare >= 0
        ? "holding · " + WatchFormat.length(spare, units) + " to spare"
        : "holding · " + WatchFormat.length(-spare, units) + " out · noise"
    case .outside: return "outside (acknowledged)"
    case .unknown: return anchor.position == nil ? "waiting for the first fix" : "not known yet"
    }
  }

  /// The 1-sigma errors east–west and north–south (gpsd's epx, epy): `E ±2.5 m  N ±3.1 m`.
  private static func axesText(_ location: Location?, _ units: UnitSystem) -> String {
    guard let axes = location?.axisAccuracies else { return WatchFormat.unknown }
    return "E ±" + WatchFormat.length(axes.east, units) + "  N ±" + WatchFormat.length(axes.north, units)
  }

  /// `moving for 12 min`, `stopped for 3 min 5 s`, in the receiver's time.
  private static func motionText(_ model: WatchModel) -> String {
    guard let motion = model.motion, let location = model.location, location.hasTime else { return WatchFormat.unknown }
    let seconds = Trip.elapsed(from: motion.since, to: location)
    return (motion.moving ? "moving for " : "stopped for ") + ExportText.duration(max(0, seconds))
  }

  private static func fixText(_ location: Location?, sky: SkyView?) -> String {
    if let sky {
      // Without a fix now (a fix lost shows its last position above).
      let used = sky.satellitesUsed.map { ", \($0) used" } ?? ""
      return "no fix · \(sky.satellites.count) in view" + used
    }
    guard let location else { return "no fix" }
    var parts = [location.mode.description]
    if let quality = location.quality { parts.append(quality.description) }
    if let used = location.satellitesUsed { parts.append("\(used) used") }
    return parts.joined(separator: " · ")
  }

  private static func utcText(_ location: Location?, sky: SkyView?) -> String {
    if let sky {
      if let timestamp = sky.timestamp { return WatchFormat.dateTime(timestamp) }
      if let time = sky.timeOfDay { return WatchFormat.time(time) + " (no date)" }
    }
    guard let location, location.hasTime else { return WatchFormat.unknown }
    guard let timestamp = location.timestamp else { return WatchFormat.time(location.timeOfDay) + " (no date)" }
    return WatchFormat.dateTime(timestamp)
  }

  private static func localText(_ location: Location?, _ zone: LocalZone?) -> String {
    guard let timestamp = location?.timestamp, let zone else { return WatchFormat.unknown }
    let name = zone.abbreviation.isEmpty ? offsetText(zone.offset) : zone.abbreviation
    return WatchFormat.dateTime(zone.local(timestamp)) + " " + name
  }

  /// `+02:00`, `-03:30`.
  static func offsetText(_ seconds: Int) -> String {
    let minutes = abs(seconds) / 60
    return (seconds < 0 ? "-" : "+") + WatchFormat.padded(minutes / 60, 2) + ":" + WatchFormat.padded(minutes % 60, 2)
  }

  private static func dopText(_ dop: DilutionOfPrecision?) -> String {
    guard let dop, dop.horizontal != nil || dop.vertical != nil || dop.position != nil else {
      return WatchFormat.unknown
    }
    func value(_ number: Double?) -> String { number.map { fixed($0, 2) } ?? WatchFormat.unknown }
    return "H \(value(dop.horizontal))  V \(value(dop.vertical))  P \(value(dop.position))"
  }
}
