import Foundation
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// The gpsd source against a real gpsd 3.22 started by the tests on loopback.
@Suite(.serialized) struct GPSDSourceTests {
  private func updates(_ events: [LocationEvent]) -> Int {
    events.filter { if case .update = $0 { true } else { false } }.count
  }

  private func losses(_ events: [LocationEvent]) -> Int {
    events.filter { if case .failure(let error) = $0 { error.code == .locationUnknown } else { false } }.count
  }

  /// A fixture's cycles as text, each starting at an RMC (any talker).
  static func cycles(_ fixture: String, limit: Int) throws -> [String] {
    try TestPaths.cycles(fixture, limit: limit)
  }

  /// Our own decoding of the same cycles, by timestamp.
  static func decoded(_ cycles: [String]) -> [String: Fix] {
    var decoder = NMEADecoder()
    var fixes: [String: Fix] = [:]
    let handle: (DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event, let time = fix.time { fixes[time.description] = fix }
    }
    decoder.decode(Array(cycles.joined().utf8), handle)
    decoder.finish(handle)
    return fixes
  }

  /// A manager on `daemon`'s gpsd, set up by `configure`, recorded and updating.
  private func updating(
    from daemon: GPSDaemon, _ configure: (LocationManager) -> Void = { _ in }
  ) -> (LocationManager, Recorder) {
    let manager = LocationManager(source: GPSDSource(host: "127.0.0.1", port: daemon.port))
    configure(manager)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    return (manager, recorder)
  }

  private func feed(_ daemon: GPSDaemon, _ cycles: ArraySlice<String>) {
    for cycle in cycles {
      daemon.feed.send(cycle)
      usleep(4_000)
    }
  }

  /// A fixture's first cycles through a real gpsd, as the gpsd source delivers them.
  private func throughGpsd(_ fixture: String, cycles count: Int) throws -> (cycles: [String], locations: [Location]) {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon)
    defer { manager.stopUpdatingLocation() }
    let cycles = try Self.cycles(fixture, limit: count)
    #expect(daemon.waitForClients(1), "the source connects to gpsd")
    feed(daemon, cycles[...])
    let wanted = count * 5 / 6
    #expect(recorder.wait(timeout: 15) { $0.count >= wanted }, "\(recorder.events.count) events")
    // The last location is held until gpsd's burst for its cycle is over.
    Thread.sleep(forTimeInterval: 0.2)
    return (cycles, recorder.locations)
  }

  /// The same 1-sigma accuracy through gpsd as from our own decoding of the NMEA: from the
  /// DOPs (walk: GGA, GSA, no GST) and from the receiver's GST (the multi-GNSS fixture, whose
  /// RTK qualities also change the UERE), each within 1 %.
  @Test(arguments: [("walk.nmea", AccuracySource.dilutionOfPrecision), ("multi-gnss-burst.nmea", .receiverStatistics)])
  func accuraciesThroughGpsdEqualOurOwn(fixture: String, source: AccuracySource) throws {
    let (cycles, locations) = try throughGpsd(fixture, cycles: 90)
    let ours = Self.decoded(cycles)
    var compared = 0
    for location in locations {
      guard let time = location.timestamp?.description, let fix = ours[time], fix.mode == location.mode else {
        continue
      }
      compared += 1
      #expect(location.accuracySource == source, "\(time)")
      let expected = try #require(fix.horizontalAccuracy)
      let actual = try #require(location.horizontalAccuracy)
      #expect(abs(actual - expected) <= 0.01 * expected, "\(time): gpsd path \(actual) m, NMEA path \(expected) m")
      if let expectedVertical = fix.verticalAccuracy, location.altitude != nil {
        let vertical = try #require(location.verticalAccuracy)
        #expect(abs(vertical - expectedVertical) <= 0.01 * expectedVertical, "\(time): vertical \(vertical) m")
      }
    }
    #expect(compared >= 60, "\(compared) of \(locations.count) locations compared")
  }

  /// At a serial line's pace (NMEA 0183's 4,800 baud), until gpsd has learned the
  /// receiver's cycle it reports a TPV after each sentence, and the cycle's SKY comes a
  /// sentence's time later, after a pause longer than a burst's. The first fix still waits
  /// for it: it has the accuracy every later fix has (not gpsd's own 16.7 m), and each
  /// time is one fix, not one for each sentence of its cycle.
  @Test func theFirstFixesAtASerialLinesPaceHaveTheirCyclesAccuracy() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon)
    defer { manager.stopUpdatingLocation() }
    let cycles = try Self.cycles("walk.nmea", limit: 12)
    #expect(daemon.waitForClients(1), "the source connects to gpsd")
    for cycle in cycles.prefix(4) {
      for sentence in cycle.split(whereSeparator: \.isNewline) {
        daemon.feed.send(sentence + "\r\n")
        // The time the sentence takes on the line: 10 bits a byte.
        usleep(UInt32((sentence.utf8.count + 2) * 10 * 1_000_000 / 4800))
      }
    }
    feed(daemon, cycles[4...])
    #expect(
      recorder.wait(timeout: 15) { events in events.count { if case .update = $0 { true } else { false } } >= 11 })
    let locations = recorder.locations
    let times = locations.compactMap { $0.timestamp?.description }
    #expect(times == Array(Set(times)).sorted(), "one fix a time, in order: \(times)")
    let ours = Self.decoded(cycles)
    let first = try #require(locations.first)
    let time = try #require(first.timestamp?.description)
    #expect(time == "2025-06-14T07:42:13.000Z")
    #expect(first.accuracySource == .dilutionOfPrecision, "\(time): \(String(describing: first.accuracySource))")
    let expected = try #require(ours[time]?.horizontalAccuracy)
    #expect(abs((first.horizontalAccuracy ?? .nan) - expected) <= 0.01 * expected, "\(time): \(first)")
  }

  @Test func fixesThroughGpsdEqualOurOwnDecoding() throws {
    let (cycles, locations) = try throughGpsd("walk.nmea", cycles: 120)
    let ours = Self.decoded(cycles)
    #expect(locations.count >= 100)
    var compared = 0
    for location in locations {
      guard let time = location.timestamp?.description, let fix = ours[time] else {
        Issue.record("gpsd delivered \(location.timestamp?.description ?? "no time"), which we did not decode")
        continue
      }
      compared += 1
      #expect(abs(location.latitude - fix.latitude!) < 1e-9)
      #expect(abs(location.longitude - fix.longitude!) < 1e-9)
      // gpsd may report a cycle before its GGA arrives (2D, no altitude); a 3D report
      // must carry the same altitude.
      if location.mode == .threeD { #expect(abs((location.altitude ?? .nan) - fix.altitudeMSL!) < 1e-3) }
      #expect(location.quality == .gps)
    }
    #expect(compared == locations.count)
    #expect(locations.last?.satellites.isEmpty == false, "satellites from SKY")
    #expect(locations.last?.accuracySource == .dilutionOfPrecision)
  }

  /// gpsd without a date (GGA only: a time of day, no RMC or ZDA) reports TPVs without
  /// "time", as after a restart and for some receivers always. They are delivered as
  /// positions without a time, never as fixes at midnight, and the odometer, the movement
  /// recogniser and the plausibility check leave them out; once the date comes, the fixes
  /// are timed again.
  @Test func aTPVWithoutATimeIsAPositionWithoutATime() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon)
    defer { manager.stopUpdatingLocation() }
    #expect(daemon.waitForClients(1), "the source connects to gpsd")
    let cycles = try Self.cycles("walk.nmea", limit: 60)
    let undated = cycles[..<30].map { cycle in
      // Lines end in CR LF, one Character to Swift: split on either.
      cycle.split(whereSeparator: \.isNewline).filter { $0.contains("GGA") }.map { $0 + "\r\n" }.joined()
    }
    feed(daemon, undated[...])
    #expect(recorder.wait(timeout: 30) { $0.count { if case .update = $0 { true } else { false } } >= 20 })
    let untimed = recorder.locations
    #expect(untimed.allSatisfy { !$0.hasTime && $0.timestamp == nil }, "\(untimed.map(\.timestamp))")
    // Where they are is ours, cycle by cycle (GGA's own positions).
    let ours = Self.decoded(Array(cycles[..<30])).values.sorted { $0.time! < $1.time! }
    for location in untimed {
      #expect(
        ours.contains { abs($0.latitude! - location.latitude) < 1e-9 && abs($0.longitude! - location.longitude) < 1e-9 }
      )
    }
    var odometer = TrackOdometer()
    var recognizer = MovementRecognizer()
    var plausibility = FixPlausibility()
    for location in untimed {
      odometer.add(location)
      #expect(recognizer.add(location) == nil)
      #expect(plausibility.check(location) == nil)
    }
    #expect(odometer.distance == 0 && odometer.time == 0)
    // The date comes with the RMCs: timed fixes again, each a cycle of ours.
    feed(daemon, cycles[30...])
    #expect(
      recorder.wait(timeout: 30) {
        $0.contains { if case .update(let location, _) = $0 { location.hasTime } else { false } }
      })
    let decoded = Self.decoded(cycles)
    for location in recorder.locations.dropFirst(untimed.count) where location.hasTime {
      #expect(
        location.timestamp.map { decoded[$0.description] != nil } == true, "\(location.timestamp?.description ?? "-")")
    }
  }

  @Test func gpsdKilledAndRestartedReconnectsEachTime() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let source = GPSDSource(host: "127.0.0.1", port: daemon.port)
    let manager = LocationManager(source: source)
    manager.watchdogTimeout = 30
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    let cycles = try Self.cycles("walk.nmea", limit: 700)
    let rounds = 10
    for round in 0..<rounds {
      let slice = cycles[(round * 60)..<(round * 60 + 40)]
      if round > 0 {
        try daemon.start()
      }
      #expect(daemon.waitForClients(1), "round \(round): the source reconnects")
      let before = recorder.locations.count
      feed(daemon, slice)
      #expect(recorder.wait(timeout: 15) { updates($0) >= before + 20 }, "round \(round): updates after the restart")
      #expect(socketsConnected(toPort: daemon.port) == 1, "round \(round): one connection to gpsd")
      let lossesBefore = recorder.errors.filter { $0.code == .locationUnknown }.count
      daemon.kill()
      #expect(
        recorder.wait(timeout: 30) { losses($0) > lossesBefore },
        "round \(round): gpsd's death is location unknown")
    }
    #expect(recorder.errors.contains { $0.code == .locationUnknown && $0.message.contains("reconnecting") })
    #expect(manager.isUpdating)
    // Counted by name: the process's other threads come and go with the tests running
    // beside this one (dispatch's pool, above all under ThreadSanitizer).
    #expect(threadCount(named: "whereami.gpsd") == 1, "one reading thread after ten reconnections")
    manager.stopUpdatingLocation()
    // Joined, not just done with its work: gone when stop returns.
    #expect(threadCount(named: "whereami.gpsd") == 0, "stop ends the reading thread")
    #expect(socketsConnected(toPort: daemon.port) == 0, "stop closes the socket")
  }

  @Test func noGpsdIsCannotConnectRetried() throws {
    let port = freeLoopbackPort()
    let source = GPSDSource(host: "127.0.0.1", port: port)
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    #expect(recorder.wait(timeout: 30) { $0.count >= 3 }, "retried with backoff")
    manager.stopUpdatingLocation()
    let errors = recorder.errors
    #expect(errors.allSatisfy { $0.code == .cannotConnect })
    #expect(errors.first?.message.contains("127.0.0.1:\(port)") == true)
    #expect(errors.first?.message.contains("connection refused") == true)
    #expect(socketsConnected(toPort: port) == 0)
  }

  @Test func gpsdWithoutAFixIsLocationUnknown() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon)
    defer { manager.stopUpdatingLocation() }
    #expect(daemon.waitForClients(1), "the source connects to gpsd")
    for second in 0..<5 {
      daemon.feed.send(cycle(second, valid: false))
      usleep(50_000)
    }
    #expect(recorder.waitForError(.locationUnknown, timeout: 30))
    #expect(recorder.locations.isEmpty)
  }

  @Test func aDeviceGpsdDoesNotHaveIsNotFoundAndSaysWhy() throws {
    // A device only root may read: gpsd (user gpsd, group dialout) cannot open it.
    let path = NSTemporaryDirectory() + "whereami-ttyFAKE-\(getpid())"
    _ = FileManager.default.createFile(atPath: path, contents: Data())
    chmod(path, 0o600)
    defer { unlink(path) }
    let daemon = try GPSDaemon()
    try daemon.startWithoutDevice()
    defer { daemon.stop() }
    let manager = LocationManager(source: GPSDSource(host: "127.0.0.1", port: daemon.port, device: path))
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    // gpsd was never told of it: not managed, and gpsd could not have read it anyway.
    #expect(recorder.waitForError(.sourceNotFound))
    #expect(recorder.errors.last?.message.contains("gpsd does not manage \(path)") == true)
    #expect(recorder.errors.last?.message.contains("gpsdctl add") == true)
    #expect(recorder.errors.last?.message.contains("dialout") == true)
    #expect(!manager.isUpdating, "not found is final")
    // A device that does not exist at all is not found.
    let missing = LocationManager(
      source: GPSDSource(host: "127.0.0.1", port: daemon.port, device: "/dev/whereami-none"))
    let missingRecorder = Recorder()
    missing.delegate = missingRecorder
    missing.startUpdatingLocation()
    #expect(missingRecorder.waitForError(.sourceNotFound))
    let access = GPSDSource.gpsdCanRead(path)
    #expect(access?.readable == false)
    #expect(GPSDSource.gpsdCanRead("/nonexistent/tty") == nil)
    chmod(path, 0o666)
    #expect(GPSDSource.gpsdCanRead(path)?.readable == true)
  }

  @Test func twoDevicesAreTwoTracks() throws {
    // Berlin and Lisbon, 2,300 km apart, through one gpsd.
    // The second feed first: the daemon's port is picked free, and a listener made after
    // it could be given the same one.
    let lisbon = try LoopbackListener()
    let daemon = try GPSDaemon()
    try daemon.start(alsoFeeding: [lisbon])
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon) { $0.movementRecognizer = MovementRecognizer() }
    defer { manager.stopUpdatingLocation() }
    let walk = try Self.cycles("walk.nmea", limit: 100)
    let drive = try Self.cycles("drive-midnight.nmea", limit: 100)
    // gpsd passes on only what it parses after the client's WATCH.
    let connected = Date().addingTimeInterval(30)
    while socketsConnected(toPort: daemon.port) < 1, Date() < connected { usleep(20_000) }
    Thread.sleep(forTimeInterval: 0.5)
    for (berlin, portugal) in zip(walk, drive) {
      daemon.feed.send(berlin)
      lisbon.send(portugal)
      usleep(20_000)
    }
    #expect(recorder.wait(timeout: 15) { self.updates($0) >= 150 }, "\(self.updates(recorder.events)) updates")
    let devices = Dictionary(grouping: recorder.locations) { $0.device ?? "none" }
    #expect(Set(devices.keys) == ["tcp://127.0.0.1:\(daemon.feed.port)", "tcp://127.0.0.1:\(lisbon.port)"])
    // Each device is its own track: nothing set aside as a 2,300 km jump, and each
    // device's fixes stay in their city.
    #expect(!recorder.events.contains { if case .setAside = $0 { true } else { false } })
    #expect(manager.implausibleFixes.isEmpty)
    for (device, locations) in devices {
      let latitudes = locations.map(\.latitude)
      #expect((latitudes.max() ?? 0) - (latitudes.min() ?? 0) < 0.1, "\(device)")
    }
    #expect(manager.movementRecognizers.count == 2)
  }

  /// One of two gpsd devices falling silent while the other reports is said, naming the
  /// device, once per outage: a second outage after it came back is said again.
  @Test func aDeviceFallingSilentWhileAnotherReportsIsSaidEachTime() throws {
    let lisbon = try LoopbackListener()
    let daemon = try GPSDaemon()
    try daemon.start(alsoFeeding: [lisbon])
    defer { daemon.stop() }
    let (manager, recorder) = updating(from: daemon) { $0.watchdogTimeout = 1 }
    defer { manager.stopUpdatingLocation() }
    let berlin = "tcp://127.0.0.1:\(daemon.feed.port)"
    let walk = try Self.cycles("walk.nmea", limit: 400)
    let drive = try Self.cycles("drive-midnight.nmea", limit: 400)
    #expect(daemon.waitForClients(1), "the source connects to gpsd")
    func silences(of device: String) -> Int {
      recorder.errors.count { $0.code == .locationUnknown && $0.device == device }
    }
    func updates(from device: String) -> Int { recorder.locations.count { $0.device == device } }
    var next = 0
    /// Feeds a cycle a tenth of a second to Lisbon, and to Berlin too when it is on,
    /// until `done` or 400 cycles.
    func feed(berlinOn: Bool, until done: () -> Bool) -> Bool {
      while next < drive.count {
        if done() { return true }
        lisbon.send(drive[next])
        if berlinOn { daemon.feed.send(walk[next]) }
        next += 1
        usleep(100_000)
      }
      return done()
    }
    #expect(feed(berlinOn: true) { updates(from: berlin) >= 5 }, "Berlin reports")
    #expect(feed(berlinOn: false) { silences(of: berlin) == 1 }, "Berlin's silence is said: \(recorder.errors)")
    let before = updates(from: berlin)
    #expect(feed(berlinOn: true) { updates(from: berlin) >= before + 5 }, "Berlin reports again")
    #expect(feed(berlinOn: false) { silences(of: berlin) == 2 }, "the second outage is said too: \(recorder.errors)")
    #expect(!recorder.errors.contains { $0.device != nil && $0.device != berlin }, "\(recorder.errors)")
    let message = try #require(recorder.errors.first { $0.device == berlin }).message
    #expect(message.hasPrefix("no data from \(berlin) for "), "\(message)")
  }

  @Test func aReceiverThatLeavesGpsdAndComesBackIsFollowedAgain() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let source = GPSDSource(host: "127.0.0.1", port: daemon.port, rewatchInterval: 1)
    let manager = LocationManager(source: source)
    let recorder = Recorder()
    manager.delegate = recorder
    manager.startUpdatingLocation()
    defer { manager.stopUpdatingLocation() }
    let cycles = try Self.cycles("walk.nmea", limit: 60)
    feed(daemon, cycles[0..<20])
    #expect(recorder.wait(timeout: 30) { self.updates($0) >= 15 })
    let before = updates(recorder.events)
    // The receiver goes away (its feed closes); gpsd drops the device.
    daemon.feed.dropClient()
    usleep(1_500_000)
    // It comes back: gpsd connects to it again only for a client that watches anew.
    #expect(daemon.feed.accept(timeout: 15), "gpsd never came back for the device")
    feed(daemon, cycles[20..<60])
    #expect(recorder.wait(timeout: 15) { self.updates($0) >= before + 20 }, "\(self.updates(recorder.events))")
  }
}
