import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami regions` and the anchor watch of `print`, on logs and live (UDP, gpsd, a
/// serial line), with a generated boat that swings at anchor and then drags.
@Suite struct RegionsCommandTests {
  /// Where the boat lies at anchor: the simulator's start.
  static let anchor = (latitude: 48.137, longitude: 11.575)

  /// A minute at anchor, then dragging east at 0.5 m/s for 200 s: out of a 30 m circle
  /// after about a minute of it.
  static let drag: [String] = {
    var receiver = ReceiverModel(correlatedSigma: 1.5, correlationTime: 40, whiteSigma: 0.4, speedSigma: 0.05)
    receiver.multipathPerHour = 0
    var simulator = TrackSimulator(
      receiver: receiver,
      style: MovementStyle(meanTimeBetweenTurns: .infinity, turnRate: 0, acceleration: 0.05, speedWander: 0.02),
      phases: [.stand(seconds: 60), .move(seconds: 200, speed: 0.5)])
    simulator.initialHeading = 90
    let text = String(decoding: simulator.generate(seed: 7).nmea, as: UTF8.self)
    // One cycle a string: each ends with its RMC.
    var cycles: [String] = []
    var current = ""
    for line in text.split(separator: "\r\n") {
      current += line + "\r\n"
      if line.dropFirst(3).hasPrefix("RMC,") {
        cycles.append(current)
        current = ""
      }
    }
    return cycles
  }()

  static let dragLog: String = {
    let path = NSTemporaryDirectory() + "whereami-drag-\(getpid()).nmea"
    _ = FileManager.default.createFile(atPath: path, contents: Data(drag.joined().utf8))
    atexit { unlink(NSTemporaryDirectory() + "whereami-drag-\(getpid()).nmea") }
    return path
  }()

  static func file(_ name: String, _ text: String) -> String {
    let path = NSTemporaryDirectory() + "whereami-regions-\(getpid())-\(name)"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  static var circle: String { "anchor=\(anchor.latitude),\(anchor.longitude),30" }

  /// A 200 m × 200 m square east of the anchor, which the boat drags into.
  static let squareGeoJSON = """
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"name": "shoal"}, "geometry": {"type": "Polygon", "coordinates":
        [[[11.5756, 48.1361], [11.5786, 48.1361], [11.5786, 48.1379], [11.5756, 48.1379], [11.5756, 48.1361]]]}}]}
    """

  static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  @Test func aLogGivesEachStateAndCrossingOnce() throws {
    let geojson = Self.file("square.geojson", Self.squareGeoJSON)
    defer { unlink(geojson) }
    let result = try runWhereAmI(["regions", "--region", Self.circle, "--geojson", geojson, Self.dragLog])
    #expect(result.code == 0, "\(result.error)")
    let kinds = Self.lines(result.output).map { line in
      line.split(separator: " ", omittingEmptySubsequences: true).prefix(4).enumerated()
        .filter { $0.offset != 1 }.map { String($0.element) }.joined(separator: " ")
    }
    #expect(kinds == ["STATE anchor inside", "STATE shoal outside", "EXIT anchor outside", "ENTER shoal inside"])
    #expect(result.error.isEmpty, "\(result.error)")

    let json = try runWhereAmI(["regions", "--json", "--region", Self.circle, Self.dragLog])
    #expect(json.code == 0)
    let objects = try Self.lines(json.output).map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.map { $0["event"] as? String } == ["STATE", "EXIT"])
    let exit = try #require(objects.last)
    #expect(exit["class"] as? String == "REGION")
    #expect(exit["region"] as? String == "anchor")
    #expect(exit["state"] as? String == "outside")
    let distance = try #require(exit["distance"] as? Double)
    let threshold = try #require(exit["threshold"] as? Double)
    #expect(distance > threshold && threshold > 0)
    // The boat left at 0.5 m/s from second 60: 30 m out at about 120 s, told within the
    // threshold's and the allowance's time after.
    let time = try #require(exit["time"] as? String)
    let seconds = try #require(Int(time.dropFirst(17).prefix(2))) + 60 * Int(time.dropFirst(14).prefix(2))!
    #expect((120...160).contains(seconds), "exit at \(time)")
  }

  /// The README's example is what the command prints, line for line.
  @Test func theReadmeExampleIsTrue() throws {
    let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let command = "$ whereami regions --geojson examples/tiergarten.geojson fixtures/walk.nmea\n"
    let block = try #require(readme.components(separatedBy: command).dropFirst().first)
    let shown = try #require(block.components(separatedBy: "\n```").first)
    let result = try runWhereAmI([
      "regions", "--geojson", Paths.packageRoot.appendingPathComponent("examples/tiergarten.geojson").path,
      Paths.fixture("walk.nmea"),
    ])
    #expect(result.code == 0)
    #expect(result.output == shown + "\n")
  }

  @Test func invalidRegionsAreRefusedWithTheFeatureNamed() throws {
    let cases: [(text: String, message: String)] = [
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "dock"}, "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [3, 4], [1, 2]]]}}]}"#,
        #"feature 1 ("dock"): its outer ring has fewer than 4 positions"#
      ),
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": null}, {"type": "Feature", "id": "x", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}]}"#,
        "feature 1 has no geometry"
      ),
      (
        #"{"type": "Feature", "properties": {"name": "buoy"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#,
        #"feature 1 ("buoy"): a Point is a region only with a "radius" property in metres"#
      ),
      (
        #"{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[1, 2], [3, 4], [5, 6], [1, 3]]]}}"#,
        #"feature 1 ("a"): its outer ring is not closed"#
      ),
      (
        #"{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "Polygon", "coordinates": [[[1, 95], [3, 4], [5, 6], [1, 95]]]}}"#,
        #"feature 1 ("a"): [1.0, 95.0] is not a longitude and latitude"#
      ),
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "#,
        "not JSON at line 1, column 64: a member name is missing"
      ),
      (#"{"type": "FeatureCollection", "features": []}"#, "the FeatureCollection has no features"),
      (
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "a", "radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}, {"type": "Feature", "properties": {"name": "a", "radius": 5}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#,
        "two regions are named 'a'"
      ),
    ]
    for (index, (text, message)) in cases.enumerated() {
      let path = Self.file("bad-\(index).geojson", text)
      defer { unlink(path) }
      let result = try runWhereAmI(["regions", "--geojson", path, Self.dragLog])
      #expect(result.code == 65, "\(text): \(result.error)")
      #expect(result.error.contains(message), "\(result.error)")
      #expect(result.output.isEmpty)
    }
    let missing = try runWhereAmI(["regions", "--geojson", "/nonexistent/regions.geojson", Self.dragLog])
    #expect(missing.code == 66)
    #expect(missing.error.contains("cannot open '/nonexistent/regions.geojson'"))
    let none = try runWhereAmI(["regions", Self.dragLog])
    #expect(none.code == 64)
    #expect(none.error.contains("name a region"))
    for bad in ["home", "home=1,2", "=1,2,3", "home=1,2,-5", "home=91,2,5", "home=a,b,c"] {
      let result = try runWhereAmI(["regions", "--region", bad, Self.dragLog])
      #expect(result.code == 64, "\(bad): \(result.error)")
    }
    let twice = try runWhereAmI(["regions", "--region", "a=1,2,3", "--region", "a=3,4,5", Self.dragLog])
    #expect(twice.code == 64)
    #expect(twice.error.contains("two regions are named 'a'"))
    // Names from a property of the user's choice.
    let named = Self.file(
      "named.geojson",
      #"{"type": "Feature", "properties": {"ref": 17, "radius": 30}, "geometry": {"type": "Point", "coordinates": [11.575, 48.137]}}"#
    )
    defer { unlink(named) }
    let byReference = try runWhereAmI(["regions", "--geojson", named, "--name-property", "ref", Self.dragLog])
    #expect(byReference.code == 0)
    #expect(byReference.output.contains(#/EXIT +\S+ +17 +outside/#), "\(byReference.output)")
    let unnamed = try runWhereAmI(["regions", "--geojson", named, "--name-property", "title", Self.dragLog])
    #expect(unnamed.code == 65)
    #expect(unnamed.error.contains(#"feature 1 has no property "title" to name it by"#))
  }

  @Test func printAnchorEndsWithItsOwnExitCodeWhenTheBoatDrags() throws {
    let dropped = try runWhereAmI(["print", "--anchor", "30", Self.dragLog])
    #expect(dropped.code == 3, "\(dropped.error)")
    #expect(dropped.error.contains("whereami: anchor dropped at 48.13"))
    #expect(
      dropped.error.contains(
        #/whereami: ANCHOR ALARM 2026-03-14T08:0\d:\d\d\.000Z: \d+\.\d m from the anchor \(swing radius 30 m\), bearing 2\d\d° to it/#
      ))
    // It printed fixes until the one that raised the alarm, and no more; the same each run.
    let printed = Self.lines(dropped.output)
    let alarmTime = try #require(dropped.error.firstMatch(of: #/ANCHOR ALARM (\S+):/#)).output.1
    #expect(printed.last?.hasPrefix(alarmTime) == true, "\(printed.last ?? "")")
    #expect((110...170).contains(printed.count), "\(printed.count) fixes printed")
    #expect(try runWhereAmI(["print", "--anchor", "30", Self.dragLog]).output == dropped.output)

    let json = try runWhereAmI(["print", "--json", "--anchor", "30@48.137,11.575", Self.dragLog])
    #expect(json.code == 3)
    let lastLine = try #require(Self.lines(json.output).last)
    let last = try #require(JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
    #expect(last["class"] as? String == "REGION")
    #expect(last["event"] as? String == "EXIT")
    #expect(last["region"] as? String == "anchor")

    let holding = try runWhereAmI(["print", "--anchor", "500", Self.dragLog])
    #expect(holding.code == 0)
    #expect(Self.lines(holding.output).count == Self.drag.count)
    for bad in ["0", "-3", "30@", "30@91,0", "30@1", "x"] {
      let result = try runWhereAmI(["print", "--anchor", bad, Self.dragLog])
      #expect(result.code == 64, "\(bad): \(result.error)")
    }
    let nmea = try runWhereAmI(["print", "--nmea", "--anchor", "30", Self.dragLog])
    #expect(nmea.code == 64)
  }

  @Test func regionsFollowALiveUDPSource() throws {
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["regions", "--region", Self.circle, "udp://127.0.0.1:\(port)"])
    defer { child.terminate() }
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port): \(child.standardError)")
    let sender = try DatagramSender(host: "127.0.0.1", port: port)
    for cycle in Self.drag where child.standardOutput.split(separator: "\n").count < 2 {
      try sender.send(cycle)
      usleep(2000)
    }
    #expect(child.waitForOutputLines(2, timeout: 30))
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    let lines = Self.lines(child.standardOutput)
    #expect(lines.first?.hasPrefix("STATE") == true && lines.first?.contains("anchor  inside") == true, "\(lines)")
    #expect(lines.dropFirst().first?.hasPrefix("EXIT") == true, "\(lines)")
  }

  @Test func printAnchorThroughGpsdRaisesTheAlarm() throws {
    let daemon = try GPSDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let child = try ChildProcess(
      Paths.whereami, ["print", "--anchor", "30@48.137,11.575", "gpsd://127.0.0.1:\(daemon.port)"])
    defer { child.terminate() }
    #expect(daemon.waitForClients(1), "whereami never connected: \(child.standardError)")
    // At a receiver's pace, sped up: gpsd reports a cycle once it has it all.
    for cycle in Self.drag where !child.hasExited {
      daemon.feed.send(cycle)
      usleep(20_000)
    }
    #expect(child.wait(timeout: 30) == 3, "\(child.standardError)")
    #expect(child.standardError.contains("ANCHOR ALARM"), "\(child.standardError)")
  }

  @Test func printAnchorOnASerialReceiverRaisesTheAlarm() throws {
    let terminal = try PseudoTerminal()
    let child = try ChildProcess(Paths.whereami, ["print", "--anchor", "30@48.137,11.575", terminal.devicePath])
    defer { child.terminate() }
    for cycle in Self.drag where !child.hasExited {
      terminal.write(cycle)
      usleep(5000)
    }
    #expect(child.wait(timeout: 30) == 3, "\(child.standardError)")
    #expect(child.standardError.contains("ANCHOR ALARM"), "\(child.standardError)")
  }
}
