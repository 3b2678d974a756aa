import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct TripsCommandTests {
  /// Stand 5 min, drive 10 min with a 40 s stop at a light, park 10 min, walk 8 min,
  /// stand 5 min.
  static let phases: [MovementPhase] = [
    .stand(seconds: 300), .move(seconds: 600, speed: 12), .stand(seconds: 40), .move(seconds: 300, speed: 9),
    .stand(seconds: 600), .move(seconds: 480, speed: 1.4), .stand(seconds: 300),
  ]

  static func log(seed: UInt64) throws -> (path: String, track: SimulatedTrack) {
    var random = SeededRandom(seed: seed)
    var receiver = ReceiverModel.drawn(&random)
    receiver.multipathPerHour = 6
    let track = TrackSimulator(receiver: receiver, style: .driving, phases: phases).generate(seed: seed)
    let path = NSTemporaryDirectory() + "whereami-trips-\(getpid())-\(seed).nmea"
    try Data(track.nmea).write(to: URL(fileURLWithPath: path))
    return (path, track)
  }

  @Test func listsTripsAndStopsOfALog() throws {
    let (path, track) = try Self.log(seed: 31)
    defer { unlink(path) }
    let result = try runWhereAmI(["trips", "--json", path])
    #expect(result.code == 0, "\(result.error)")
    let objects = try result.output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(objects.map { $0["class"] as? String } == ["STOP", "TRIP", "STOP", "TRIP", "STOP"], "\(result.output)")
    let trips = objects.filter { $0["class"] as? String == "TRIP" }
    guard trips.count == 2 else { return }
    let drive = track.movements[0].distance + track.movements[1].distance
    let walk = track.movements[2].distance
    for (trip, truth) in zip(trips, [drive, walk]) {
      let distance = try #require(trip["distance"] as? Double)
      #expect(abs(distance - truth) / truth < 0.02, "\(distance) m for \(truth) m")
      for key in ["start", "end", "duration", "movingTime", "maxSpeed", "meanSpeed", "startLat", "endLon"] {
        #expect(trip[key] != nil, "missing \(key)")
      }
    }
    // Durations add up to the log's span, without overlaps.
    let total = objects.compactMap { $0["duration"] as? Double }.reduce(0, +)
    #expect(abs(total - (Self.phases.totalSeconds - 1)) < 2, "\(total) s")

    // summary: the same split into moving and standing time.
    let summary = try runWhereAmI(["summary", "--json", path])
    let figures = try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as! [String: Any]
    let moving = track.movements.map { $0.end - $0.start }.reduce(0, +)
    let movingTime = try #require(figures["movingTime"] as? Double)
    let stoppedTime = try #require(figures["stoppedTime"] as? Double)
    #expect(abs(movingTime - moving) < 6, "\(movingTime) s moving for \(moving) s")
    let duration = try #require(figures["duration"] as? Double)
    #expect(abs(movingTime + stoppedTime - duration) < 1e-6, "\(movingTime) + \(stoppedTime) s for \(duration) s")

    let text = try runWhereAmI(["trips", path])
    #expect(text.code == 0)
    let lines = text.output.split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines[1].hasPrefix("trip 2026-03-14T08:0"), "\(lines[1])")
    #expect(lines[1].contains(" km  moving "))
    #expect(lines[2].hasPrefix("stop ") && lines[2].contains(" at 48."))
  }

  /// `summary` and `trips` give one mean speed, by one definition (distance over moving
  /// time): a log that is one trip has the trip's, and neither is above its maximum.
  @Test(arguments: [1, 10]) func summaryAndTripsGiveOneMeanSpeed(rate: Int) throws {
    let constant = MovementStyle(meanTimeBetweenTurns: 1e9, turnRate: 0, acceleration: 50, speedWander: 0)
    for (style, speed) in [(constant, 5.0), (MovementStyle.driving, 14)] {
      let seed = UInt64(40 + rate)
      var random = SeededRandom(seed: seed)
      var receiver = ReceiverModel.drawn(&random, rate: rate)
      receiver.speedSigma = 0.01
      let phases: [MovementPhase] = [.stand(seconds: 120), .move(seconds: 40, speed: speed), .stand(seconds: 120)]
      let track = TrackSimulator(receiver: receiver, style: style, phases: phases).generate(seed: seed)
      let path = NSTemporaryDirectory() + "whereami-mean-\(getpid())-\(rate).nmea"
      try Data(track.nmea).write(to: URL(fileURLWithPath: path))
      defer { unlink(path) }
      let trips = try runWhereAmI(["trips", "--json", path]).output.split(separator: "\n").compactMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["class"] as? String == "TRIP" }
      let summary = try runWhereAmI(["summary", "--json", path])
      let figures = try #require(try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as? [String: Any])
      #expect(trips.count == 1, "\(trips)")
      let trip = try #require(trips.first)
      let mean = try #require(figures["meanSpeed"] as? Double)
      let tripMean = try #require(trip["meanSpeed"] as? Double)
      #expect(abs(mean - tripMean) <= 0.0011, "summary \(mean) m/s, trip \(tripMean) m/s; \(receiver)")
      #expect(mean <= (figures["maxSpeed"] as? Double ?? 0), "\(figures)")
      #expect(tripMean <= (trip["maxSpeed"] as? Double ?? 0), "\(trip)")
      let text = try runWhereAmI(["summary", path]).output
      #expect(text.contains("mean speed       \(String(format: "%.2f", mean)) m/s (moving)"), "\(text)")
    }
  }

  /// Two drives joined end to end, the second starting (on the day before) ten minutes
  /// before the first ended: both count, each on its own, and every command says so
  /// without -v.
  @Test func sessionsJoinedEndToEndBothCountAndAreSaid() throws {
    let drive = try String(contentsOfFile: Paths.fixture("drive-midnight.nmea"), encoding: .utf8)
    let scratch = try ExportScratch()
    let joined = try scratch.write("twice.nmea", drive + drive)
    func figures(_ path: String) throws -> [String: Any] {
      let output = try runWhereAmI(["summary", "--json", path]).output
      return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }
    let once = try #require(try figures(Paths.fixture("drive-midnight.nmea"))["distance"] as? Double)
    let twice = try figures(joined)
    let distance = try #require(twice["distance"] as? Double)
    // What is lost: the fixes the plausibility check sets aside before it follows the
    // second session, and its first step; at most 30 m each (JSON rounds to millimetres).
    #expect(distance <= 2 * once + 0.01 && distance > 2 * once - 4 * 31, "\(distance) m for 2 × \(once) m")
    #expect(twice["sessions"] as? Int == 2)
    let text = try runWhereAmI(["summary", joined])
    #expect(text.output.contains("  sessions         2 sessions (logs joined or a clock reset"), "\(text.output)")
    let printed = try runWhereAmI(["print", joined])
    #expect(printed.code == 0)
    #expect(printed.error.components(separatedBy: "another session").count == 2, "\(printed.error)")
    let trips = try runWhereAmI(["trips", joined]).output.split(separator: "\n").filter { $0.hasPrefix("trip ") }
    #expect(trips.count == 2, "\(trips)")
  }

  /// Two minutes standing, then the same two minutes a year later (a receiver whose first
  /// fix took a stale date, two logs joined): another session, and a stop ends with its
  /// session as a trip does. The corpus's gp-320fw-2019-03-28.log listed a stop of
  /// 74,040 h for 20 s of fixes.
  @Test func aStopEndsWithItsSession() throws {
    let cycles = try TestPaths.cycles("static-hour.nmea", limit: 120).joined()
    let later = cycles.split(separator: "\r\n").map { line -> String in
      guard line.hasPrefix("$GPRMC") else { return line + "\r\n" }
      let body = line.split(separator: "*")[0].replacingOccurrences(of: ",060525,", with: ",060526,")
      return checksummed(body)
    }.joined()
    let scratch = try ExportScratch()
    let joined = try scratch.write("a-year-apart.nmea", cycles + later)
    let result = try runWhereAmI(["trips", "--json", joined])
    #expect(result.code == 0, "\(result.error)")
    let stops = try result.output.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(stops.map { $0["class"] as? String } == ["STOP", "STOP"], "\(result.output)")
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for stop in stops {
      let start = try #require(format.date(from: stop["start"] as? String ?? ""))
      let end = try #require(format.date(from: stop["end"] as? String ?? ""))
      #expect(end.timeIntervalSince(start) == 119, "\(stop)")
    }
  }

  /// A log of one fix (five of the corpus's receivers) is a stop of no time where it was,
  /// as two fixes are a stop of a second: nothing had been listed, and exit 0 read as no
  /// data. So is a session of one fix among others.
  @Test func aSessionOfOneFixIsAStopOfNoTime() throws {
    // A second apart in the time of day: RMCs of one time are one reporting cycle.
    func fix(year: Int) -> String {
      checksummed("$GPRMC,1000\(year - 25)0.00,A,4025.193151,N,00342.074299,W,0.250,126.71,0605\(year),,,A") + "\r\n"
    }
    let scratch = try ExportScratch()
    let one = try runWhereAmI(["trips", "--json", try scratch.write("one.nmea", fix(year: 25))])
    #expect(one.code == 0, "\(one.error)")
    #expect(
      one.output
        == "{\"class\":\"STOP\",\"start\":\"2025-05-06T10:00:00.000Z\",\"end\":\"2025-05-06T10:00:00.000Z\","
        + "\"duration\":0.000,\"lat\":40.419885850,\"lon\":-3.701238317}\n", "\(one.output)")
    // The same fix a year later: another session, of one fix too.
    let two = try runWhereAmI(["trips", try scratch.write("two.nmea", fix(year: 25) + fix(year: 26))])
    #expect(two.code == 0, "\(two.error)")
    #expect(
      two.output == "stop 2025-05-06T10:00:00.000Z  2025-05-06T10:00:00.000Z  0 s  at 40.419886,-3.701238\n"
        + "stop 2026-05-06T10:00:10.000Z  2026-05-06T10:00:10.000Z  0 s  at 40.419886,-3.701238\n", "\(two.output)")
  }

  /// A GLL a second before the first RMC (the corpus's neo-m8n.log): the fix has a time
  /// of day but no date; the track's clock counts its second, and so does the duration,
  /// so that moving and stopped time add up to it.
  @Test func aFixBeforeTheFirstDateCountsInTheDuration() throws {
    let cycles = try TestPaths.cycles("static-hour.nmea", limit: 30).joined()
    let gll = checksummed("$GPGLL,4025.193151,N,00342.074299,W,095959.00,A,A")
    let scratch = try ExportScratch()
    let log = try scratch.write("undated-first.nmea", gll + cycles)
    let output = try runWhereAmI(["summary", "--json", log]).output
    let figures = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let duration = try #require(figures["duration"] as? Double)
    let moving = try #require(figures["movingTime"] as? Double)
    let stopped = try #require(figures["stoppedTime"] as? Double)
    #expect(duration == 30 && moving + stopped == duration, "\(figures)")
  }

  /// The same log's stop begins at the undated GLL: its start is dated from the end's
  /// date and the track's clock, so that the text line does not pair a time of day with
  /// a date, and the JSON stop has a start.
  @Test func aStopThatBeginsBeforeTheFirstDateIsDated() throws {
    let cycles = try TestPaths.cycles("static-hour.nmea", limit: 30).joined()
    let gll = checksummed("$GPGLL,4025.193151,N,00342.074299,W,095959.00,A,A")
    let scratch = try ExportScratch()
    let log = try scratch.write("undated-first.nmea", gll + cycles)
    let json = try runWhereAmI(["trips", "--json", log])
    #expect(json.code == 0, "\(json.error)")
    let stop = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    #expect(stop["start"] as? String == "2025-05-06T09:59:59.000Z", "\(stop)")
    #expect(stop["end"] as? String == "2025-05-06T10:00:29.000Z", "\(stop)")
    let text = try runWhereAmI(["trips", log]).output
    #expect(text.hasPrefix("stop 2025-05-06T09:59:59.000Z  2025-05-06T10:00:29.000Z  30"), "\(text)")
  }

  @Test func aLiveSourcePrintsEachTripAsItEnds() throws {
    let (path, _) = try Self.log(seed: 32)
    defer { unlink(path) }
    let fifo = NSTemporaryDirectory() + "whereami-trips-\(getpid()).fifo"
    unlink(fifo)
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let writer = FileHandle(fileDescriptor: open(fifo, O_RDWR | O_CLOEXEC), closeOnDealloc: true)
    let child = try ChildProcess(Paths.whereami, ["trips", "-"], stdinPath: fifo)
    defer { child.terminate() }
    // Up to the middle of the long stop after the drive: the drive has ended (a minute
    // standing) and is printed while the pipe stays open.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let cut = lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("GPGGA,085000") } ?? lines.count
    writer.write(Data(lines[..<cut].joined(separator: [UInt8(ascii: "\n")])) + Data("\n".utf8))
    #expect(child.waitForOutputLines(2, timeout: 20), "\(child.standardOutput)")
    #expect(child.standardOutput.split(separator: "\n").last?.hasPrefix("trip ") == true)
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 30) == 0)
  }

  @Test func exportSplitsByTripAndLeavesOutTheStops() throws {
    let (path, _) = try Self.log(seed: 33)
    defer { unlink(path) }
    let trips = try runWhereAmI(["trips", "--json", path]).output.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }.filter { $0["class"] as? String == "TRIP" }
    #expect(trips.count == 2)

    let geojson = try runWhereAmI(["export", "--split", "trips", "--format", "geojson", path])
    #expect(geojson.code == 0, "\(geojson.error)")
    let collection = try JSONSerialization.jsonObject(with: Data(geojson.output.utf8)) as! [String: Any]
    let features = try #require(collection["features"] as? [[String: Any]])
    #expect(features.count == trips.count)
    for (feature, trip) in zip(features, trips) {
      let properties = try #require(feature["properties"] as? [String: Any])
      #expect(properties["start"] as? String == trip["start"] as? String)
      #expect(properties["end"] as? String == trip["end"] as? String)
      let distance = try #require(properties["distance"] as? Double)
      let tripDistance = try #require(trip["distance"] as? Double)
      #expect(abs(distance - tripDistance) / tripDistance < 0.01, "\(distance) m for \(tripDistance) m")
    }

    let gpx = try runWhereAmI(["export", "--split", "trips", "--format", "gpx", path])
    #expect(gpx.code == 0)
    #expect(gpx.output.components(separatedBy: "<trk>").count - 1 == 2)
    #expect(gpx.output.contains("<name>whereami-trips-\(getpid())-33, trip 2</name>"))
    // Every exported point lies within a trip: none from the stops.
    // (CSV lines end in CRLF, a single Character to Swift.)
    let whole = try runWhereAmI(["export", "--format", "csv", path]).output.split(separator: "\r\n").count - 1
    let split =
      try runWhereAmI(["export", "--split", "trips", "--format", "csv", path]).output
      .split(separator: "\r\n").count - 1
    let tripSeconds = trips.compactMap { $0["duration"] as? Double }.reduce(0, +)
    #expect(split < whole)
    #expect(abs(Double(split) - (tripSeconds + 2)) <= 2, "\(split) fixes in \(tripSeconds) s of trips")

    let bad = try runWhereAmI(["export", "--split", "stops", "--format", "gpx", path])
    #expect(bad.code == 64)
  }

  @Test func summarySaysWhatWasBridgedAcrossFixLosses() throws {
    var random = SeededRandom(seed: 34)
    var simulator = TrackSimulator(
      receiver: .drawn(&random), style: .driving, phases: [.move(seconds: 1200, speed: 15)])
    simulator.meanTimeBetweenOutages = 200
    let track = simulator.generate(seed: 34)
    try #require(track.pathInOutages > 0)
    let path = NSTemporaryDirectory() + "whereami-bridges-\(getpid()).nmea"
    try Data(track.nmea).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let summary = try runWhereAmI(["summary", "--json", path])
    let object = try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as! [String: Any]
    let bridged = try #require(object["bridgedDistance"] as? Double)
    #expect((object["fixLosses"] as? Int ?? 0) > 0)
    // A bridge runs from the last fix before the loss to the first after it.
    #expect(bridged >= track.pathInOutages && bridged < track.pathInOutages + 40 * 15, "\(bridged) m")
    let text = try runWhereAmI(["summary", path])
    #expect(text.output.contains(" bridged, "))
  }
}
