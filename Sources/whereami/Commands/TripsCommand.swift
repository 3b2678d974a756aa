import LocationKit
import NMEA
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami trips [SOURCE]`: the trips and stops of a track.
enum TripsCommand {
  static let spec = CommandSpec(
    name: "trips",
    abstract: "List trips and stops: start, end, duration, distance, moving time, speeds, coordinates.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(name: "json", value: nil, help: "One JSON object per trip (TRIP) and stop (STOP)."),
      OptionSpec(
        name: "stop", value: "SECONDS", help: "Standing this long ends a trip (default 60: lights do not)."),
      OptionSpec(
        name: "minimum", value: "METRES", help: "A trip shorter than this is noise, not a trip (default 50)."),
    ] + SourceRun.specs.filter { $0.name != "accuracy" && $0.name != "distance-filter" },
    discussion: """
      SOURCE is any source of whereami print (default gpsd://localhost:2947); a live
      source prints each trip as it ends, and Ctrl-C ends the trip under way. A trip begins when the receiver really
      starts moving (its Doppler speed at least 0.5 m/s for a second, or without speeds
      a departure beyond the position's noise) and ends when it has stood still for the
      --stop time; between trips are stops. Text columns: kind, start and end (UTC),
      duration, then for a trip its distance with its 1-sigma uncertainty, moving time, highest and mean moving speed
      and its start and end coordinates; for a stop where it was.
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let stop = try positive(arguments, "stop") ?? 60
    let minimum = try positive(arguments, "minimum") ?? 50
    let source = try SourceRun(
      arguments, address: SourceRun.address(arguments, defaultSource: PrintCommand.defaultSource),
      command: spec.name, label: "whereami.trips")
    let output = SharedOutput(descriptor: STDOUT_FILENO, flushingEachLine: source.isLive)
    let listing = TripListing(json: arguments.has("json"), output: output)
    let session = LocationSession(
      source, verbose: arguments.has("verbose"),
      movement: MovementRecognizer(stopDuration: stop, minimumDistance: minimum),
      recognized: { listing.recognized($0) },
      render: { location, odometer, _, _ in listing.located(location, sessions: odometer.sessions) })
    let code = session.run()
    // Ctrl-C on a live source: the trips under way end where the recording does.
    for (_, recognizer) in session.movementRecognizers.sorted(by: { $0.key < $1.key }) {
      var recognizer = recognizer
      if let event = recognizer.finish() { _ = listing.recognized(event) }
    }
    listing.finish()
    if let failure = output.finish() { throw failure }
    if code != .success { throw CommandError(message: nil, code: code) }
  }

  private static func positive(_ arguments: ParsedArguments, _ name: String) throws(CommandError) -> Double? {
    guard let text = arguments.value(name) else { return nil }
    guard let value = Double(text), value > 0, value.isFinite else {
      throw CommandError(message: "trips: --\(name) '\(text)' is not a positive number", code: .usage)
    }
    return value
  }
}

/// Writes trips as they end, and the stops between them.
final class TripListing: @unchecked Sendable {
  // @unchecked Sendable: `located` and `recognized` run on the session's serial callback
  // queue while the session runs; after it has ended (the manager stopped, its queue
  // drained by stopUpdatingLocation's sync), `recognized` and `finish` run on the main
  // thread: never at once.
  private let json: Bool
  private let output: SharedOutput
  /// By device ("" for a source that is one receiver): where the current stop began
  /// (the first fix, then each trip's end), and the latest fix.
  private var stopStart: [String: Location] = [:]
  private var latest: [String: Location] = [:]
  private var devices: [String] = []
  /// By device: the odometer's sessions so far, and, when the latest fix began another,
  /// the last fix of the one before and the new one's first. A stop ends with its session
  /// as a trip does (a log whose date jumped years ahead listed a stop of 74,040 h); it is
  /// written at the next fix, after the trip the session's end may have ended.
  private var sessions: [String: Int] = [:]
  private var sessionBreak: [String: (end: Location, start: Location)] = [:]
  /// The devices whose current session has had a trip or a stop written: one that ends
  /// without either (a single fix) still has its stop written, of no time, so that a log
  /// with fixes never lists nothing.
  private var listed: Set<String> = []

  init(json: Bool, output: SharedOutput) {
    self.json = json
    self.output = output
  }

  func located(_ location: Location, sessions count: Int) -> Bool {
    let device = location.device ?? ""
    guard settleSessionBreak(device) else { return false }
    if stopStart[device] == nil {
      stopStart[device] = location
      devices.append(device)
    } else if count != sessions[device], let last = latest[device] {
      sessionBreak[device] = (last, location)
    }
    sessions[device] = count
    latest[device] = location
    return true
  }

  /// Ends the stop under way where its session's fixes ended; the next begins with the
  /// next session's first fix.
  private func settleSessionBreak(_ device: String) -> Bool {
    guard let (end, start) = sessionBreak.removeValue(forKey: device) else { return true }
    guard writeStop(device, until: end, sessionEnds: true) else { return false }
    stopStart[device] = start
    listed.remove(device)
    return true
  }

  /// Writes `device`'s stop under way, up to `end`, if it lasted at all, or if its
  /// session ends with nothing else written.
  private func writeStop(_ device: String, until end: Location, sessionEnds: Bool = false) -> Bool {
    guard let start = stopStart[device] else { return true }
    guard Trip.elapsed(from: start, to: end) > 0 || sessionEnds && !listed.contains(device) else { return true }
    listed.insert(device)
    return write(stop: start, until: end)
  }

  func recognized(_ event: MovementEvent) -> Bool {
    guard event.state == .ended else { return true }
    let trip = event.trip
    let device = trip.start.device ?? ""
    guard writeStop(device, until: trip.start) else { return false }
    stopStart[device] = trip.end
    listed.insert(device)
    return write(trip: trip)
  }

  func finish() {
    for device in devices {
      guard settleSessionBreak(device) else { return }
      if let last = latest[device] { _ = writeStop(device, until: last, sessionEnds: true) }
    }
  }

  /// With several devices, each line says whose it is.
  private func prefix(_ location: Location) -> String {
    guard devices.count > 1, let device = location.device else { return "" }
    return device + " "
  }

  private func write(trip: Trip) -> Bool {
    let text: String
    if json {
      var object = JSONObject()
      object.add("class", string: "TRIP")
      if let device = trip.start.device { object.add("device", string: device) }
      Self.times(trip.start, trip.end, &object)
      object.add("distance", trip.distance, 3)
      object.add("distanceError", trip.distanceError, 3)
      object.add("movingTime", trip.movingTime, 3)
      object.add("maxSpeed", trip.maximumSpeed, 3)
      object.add("meanSpeed", trip.meanMovingSpeed, 3)
      object.add("startLat", trip.start.latitude, 9)
      object.add("startLon", trip.start.longitude, 9)
      object.add("endLat", trip.end.latitude, 9)
      object.add("endLon", trip.end.longitude, 9)
      text = object.finish() + "\n"
    } else {
      let (start, end) = Self.times(trip.start, trip.end)
      text =
        prefix(trip.start)
        + "trip \(start)  \(end)  \(ExportText.duration(trip.duration))  "
        + "\(fixed(trip.distance / 1000, 3)) km ±\(fixed(trip.distanceError / 1000, 3)) km  moving \(ExportText.duration(trip.movingTime))  "
        + "max \(trip.maximumSpeed.map { fixed($0, 1) + " m/s" } ?? "-")  "
        + "mean \(trip.meanMovingSpeed.map { fixed($0, 2) + " m/s" } ?? "-")  "
        + "\(Self.place(trip.start)) -> \(Self.place(trip.end))\n"
    }
    return output.write { $0.append(string: text) }
  }

  private func write(stop start: Location, until end: Location) -> Bool {
    let text: String
    if json {
      var object = JSONObject()
      object.add("class", string: "STOP")
      if let device = start.device { object.add("device", string: device) }
      Self.times(start, end, &object)
      object.add("lat", start.latitude, 9)
      object.add("lon", start.longitude, 9)
      text = object.finish() + "\n"
    } else {
      let duration = Trip.elapsed(from: start, to: end)
      let (startTime, endTime) = Self.times(start, end)
      text =
        prefix(start)
        + "stop \(startTime)  \(endTime)  \(ExportText.duration(duration))  at \(Self.place(start))\n"
    }
    return output.write { $0.append(string: text) }
  }

  private static func times(_ start: Location, _ end: Location, _ object: inout JSONObject) {
    let (startTime, endTime) = timestamps(start, end)
    if let startTime { object.add("start", string: startTime.description) }
    if let endTime { object.add("end", string: endTime.description) }
    object.add("duration", Trip.elapsed(from: start, to: end), 3)
  }

  /// The start's and the end's times, each fix's own; a fix that came before the log's
  /// first date (a GLL before the first RMC) takes the other's, less or plus the time
  /// between them on the track's clock, so that a line never pairs a time of day with a
  /// date (and JSON never leaves a stop without its start).
  private static func timestamps(_ start: Location, _ end: Location) -> (Timestamp?, Timestamp?) {
    let between = Int64((Trip.elapsed(from: start, to: end) * 1e6).rounded())
    switch (start.timestamp, end.timestamp) {
    case (nil, let endTime?):
      return (Timestamp(microsecondsSinceEpoch: endTime.microsecondsSinceEpoch - between), endTime)
    case (let startTime?, nil):
      return (startTime, Timestamp(microsecondsSinceEpoch: startTime.microsecondsSinceEpoch + between))
    case (let startTime, let endTime):
      return (startTime, endTime)
    }
  }

  /// The start's and the end's times for a text line: dated as ``timestamps(_:_:)``
  /// dates them, or both times of day.
  private static func times(_ start: Location, _ end: Location) -> (String, String) {
    let (startTime, endTime) = timestamps(start, end)
    return (
      startTime?.description ?? start.timeOfDay.description, endTime?.description ?? end.timeOfDay.description
    )
  }

  private static func place(_ location: Location) -> String {
    "\(fixed(location.latitude, 6)),\(fixed(location.longitude, 6))"
  }
}
