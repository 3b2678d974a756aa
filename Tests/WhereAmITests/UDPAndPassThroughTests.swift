import Foundation
import TestSupport
import Testing

/// NMEA over UDP with real sockets, and `print --nmea` recording a source as it came.
@Suite(.serialized) struct UDPAndPassThroughTests {
  /// The walk's first `cycles` cycles, each a string of CRLF-ended sentences.
  static func cycles(_ count: Int) throws -> [String] {
    try TestPaths.cycles("walk.nmea", limit: count)
  }

  /// Runs `print --json SOURCE`, sends `datagrams` to `host:port` and returns the times
  /// of the fixes printed, once `fixes` have come (or 30 s have passed).
  private func received(
    source: String, host: String, port: UInt16, datagrams: [String], fixes: Int, broadcast: Bool = false
  ) throws -> [String] {
    let child = try ChildProcess(Paths.whereami, ["print", "--json", source])
    defer { child.terminate() }
    // The listener binds as it starts; datagrams sent before are lost, as on a boat.
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port): \(child.standardError)")
    let sender = try DatagramSender(host: host, port: port, broadcast: broadcast)
    for datagram in datagrams {
      try sender.send(datagram)
      usleep(2000)
    }
    child.waitForOutputLines(fixes, timeout: 30)
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    return child.standardOutput.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["time"] as? String
    }
  }

  /// Datagrams of several sentences, and sentences cut in two across datagrams: every fix
  /// comes through, in order.
  @Test(arguments: [("127.0.0.1", "udp://127.0.0.1"), ("::1", "udp://[::1]"), ("127.0.0.1", "udp://")])
  func datagramsOfSeveralSentencesAndHalvesOfOne(host: String, source: String) throws {
    let cycles = try Self.cycles(20)
    var datagrams: [String] = []
    for (index, cycle) in cycles.enumerated() {
      if index % 2 == 0 {
        datagrams.append(cycle)  // a whole cycle, several sentences
      } else {
        let cut = cycle.index(cycle.startIndex, offsetBy: cycle.count / 2 + 7)
        datagrams.append(String(cycle[..<cut]))
        datagrams.append(String(cycle[cut...]))
      }
    }
    let port = freeLoopbackPort()
    let times = try received(
      source: source == "udp://" ? "udp://:\(port)" : "\(source):\(port)", host: host, port: port,
      datagrams: datagrams, fixes: 20)
    #expect(times.count == 20, "\(times)")
    #expect(times == times.sorted())
    #expect(times.first == "2025-06-14T07:42:13.000Z")
  }

  /// Broadcasts arrive, listening on every interface or on the broadcast address (the
  /// loopback network's broadcast, 127.255.255.255, so that no other interface is needed).
  @Test(arguments: ["udp://:", "udp://255.255.255.255:"])
  func broadcastsArrive(source: String) throws {
    let port = freeLoopbackPort()
    let times = try received(
      source: source + "\(port)", host: "127.255.255.255", port: port, datagrams: try Self.cycles(5), fixes: 5,
      broadcast: true)
    #expect(times.count == 5, "\(times)")
  }

  /// A multicast group is joined; its datagrams arrive.
  /// `udp://GROUP:PORT%IFACE`: the group joined on a named interface, not the default
  /// route's (a laptop whose boat network is another interface hears nothing otherwise).
  /// The datagrams go out of loopback only, where a member joined on another interface
  /// does not hear them.
  @Test func aMulticastGroupIsJoinedOnANamedInterface() throws {
    for (afterPort, group) in [(true, "239.255.42.97"), (false, "239.255.42.96")] {
      let port = freeLoopbackPort()
      let source = afterPort ? "udp://\(group):\(port)%lo" : "udp://\(group)%lo:\(port)"
      let child = try ChildProcess(Paths.whereami, ["print", "--json", "--count", "5", source])
      defer { child.terminate() }
      #expect(waitUntil { udpPortIsBound(port) }, "\(source): \(child.standardError)")
      let sender = try DatagramSender(host: group, port: port, multicastInterface: "127.0.0.1")
      for cycle in try Self.cycles(40) where !child.hasExited {
        try sender.send(cycle)
        usleep(2000)
      }
      #expect(child.wait(timeout: 30) == 0, "\(source): \(child.standardError)")
      #expect(child.standardOutput.split(separator: "\n").count == 5, "\(source): \(child.standardOutput)")
    }
    let unknown = try runWhereAmI(["print", "udp://239.255.42.95:10110%nosuchif0"])
    #expect(unknown.code == 66 && unknown.error.contains("no interface of that name"), "\(unknown.error)")
    let unicast = try runWhereAmI(["print", "udp://127.0.0.1:10110%lo"])
    #expect(unicast.code == 64 && unicast.error.contains("goes with a multicast group"), "\(unicast.error)")
  }

  @Test func aMulticastGroupIsJoined() throws {
    let port = freeLoopbackPort()
    let times = try received(
      source: "udp://239.255.42.99:\(port)", host: "239.255.42.99", port: port,
      datagrams: try Self.cycles(5), fixes: 5)
    #expect(times.count == 5, "\(times)")
  }

  /// Two boats sending to one port are two tracks, each named by its sender's address, as
  /// two receivers of one gpsd are: each has every fix and its own distance, as its log
  /// alone gives (it was one 2,310 km "path" with half the fixes dropped).
  @Test func severalSendersOnOnePortAreTracksOfTheirOwn() throws {
    let boats = [("127.0.0.2", "walk.nmea"), ("127.0.0.3", "drive-midnight.nmea")]
    let cycles = try boats.map { try TestPaths.cycles($0.1, limit: 15) }
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["print", "--json", "udp://127.0.0.1:\(port)"])
    defer { child.terminate() }
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port): \(child.standardError)")
    let senders = try boats.map { try DatagramSender(host: "127.0.0.1", port: port, source: $0.0) }
    // Interleaved sentence by sentence, as two boats' bursts overlap on a network.
    for index in 0..<15 {
      let sentences = cycles.map { $0[index].split(whereSeparator: \.isNewline).map { $0 + "\r\n" } }
      for line in 0..<sentences.map(\.count).max()! {
        for boat in boats.indices where line < sentences[boat].count {
          try senders[boat].send(String(sentences[boat][line]))
        }
      }
      usleep(2000)
    }
    child.waitForOutputLines(30, timeout: 30)
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    let fixes = child.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let scratch = try ExportScratch()
    for (boat, (address, fixture)) in boats.enumerated() {
      let own = fixes.filter { $0["device"] as? String == address }
      let times = own.compactMap { $0["time"] as? String }
      #expect(times.count == 15 && times == times.sorted(), "\(address): \(times)")
      let log = try scratch.write("\(fixture).part", cycles[boat].joined())
      let alone = try runWhereAmI(["print", "--json", log])
      let expected = alone.output.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      #expect(times == expected.compactMap { $0["time"] as? String }, "\(address)")
      #expect(own.last?["distance"] as? Double == expected.last?["distance"] as? Double, "\(address)")
    }
    #expect(fixes.count == 30, "\(child.standardOutput)")
  }

  /// Bursts of 500 datagrams, as fast as loopback carries them: the large receive buffer
  /// holds them while the reader decodes, and what the kernel still drops is counted and
  /// said, so that every datagram sent is a fix printed or a drop said (with the kernel's
  /// default buffer, about 9 % were lost without a word).
  @Test func burstsOfDatagramsArriveOrTheirDropsAreSaid() throws {
    let cycles = try Self.cycles(1001)
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["print", "--json", "-v", "udp://127.0.0.1:\(port)"])
    defer { child.terminate() }
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port): \(child.standardError)")
    let sender = try DatagramSender(host: "127.0.0.1", port: port)
    for burst in 0..<2 {
      for cycle in cycles[burst * 500..<(burst + 1) * 500] { try sender.send(cycle) }
      usleep(5000)
    }
    // Once whereami has read them all, one more cycle completes the last and shows that
    // everything before it was decoded.
    #expect(waitUntil { udpReceiveQueue(port) == 0 }, "whereami reads the datagrams")
    try sender.send(cycles[1000])
    let time = Array(cycles[1000].split(separator: ",")[1])
    let printedTime = "T\(String(time[0..<2])):\(String(time[2..<4])):\(String(time[4..<6]))"
    #expect(waitUntil { child.standardOutput.contains(printedTime) }, "\(printedTime): \(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    let printed = child.standardOutput.split(separator: "\n").count - 1
    let said = child.standardError.split(separator: "\n").first { $0.contains("receive buffer") }
    let line = try #require(said, "\(child.standardError)")
    let dropped = line.contains("no datagram dropped") ? 0 : Int(line.split(separator: " ")[5]) ?? -1
    // A reader a second behind would get the newest fixes, the others counted.
    let unprinted = child.standardError.firstMatch(of: #/(\d+) fixes in all not printed/#).flatMap { Int($0.1) } ?? 0
    #expect(printed + unprinted + dropped == 1000, "\(printed) printed, \(unprinted) not, \(dropped) dropped: \(line)")
    let buffer = line.split(separator: "(receive buffer ").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
    // Root gets the 4 MiB asked for (the kernel doubles it), anyone else up to twice
    // net.core.rmem_max.
    let limit = Int(procFile("/proc/sys/net/core/rmem_max").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    #expect(buffer >= (geteuid() == 0 ? 8 << 20 : min(8 << 20, 2 * limit)), "\(line)")
  }

  @Test func udpAddressesAreParsedAndBadOnesSaySo() throws {
    let path = try runWhereAmI(["print", "udp://127.0.0.1:10110/x"])
    #expect(path.code == 64 && path.error.contains("a udp source has no path"), "\(path.error)")
    let elsewhere = try runWhereAmI(["print", "udp://192.0.2.1:\(freeLoopbackPort())"], timeout: 30)
    #expect(elsewhere.code == 66 && elsewhere.error.contains("no interface has that address"), "\(elsewhere.error)")
  }

  /// `print --nmea` writes the accepted sentences as they came, which `replay` reads back
  /// into the same fixes; `--all` reports the rejected lines on standard error.
  @Test func printNMEARecordsWhatCame() throws {
    let scratch = try ExportScratch()
    let corrupted = Paths.fixture("corrupted.nmea")
    let recorded = try runWhereAmI(["print", "--nmea", corrupted])
    #expect(recorded.code == 0 && recorded.error.isEmpty, "\(recorded.error)")
    let lines = recorded.output.components(separatedBy: "\r\n").dropLast()
    #expect(lines.allSatisfy { $0.hasPrefix("$") || $0.hasPrefix("!") })
    let summary = try runWhereAmI(["summary", "--json", corrupted])
    let counts = try #require(try JSONSerialization.jsonObject(with: Data(summary.output.utf8)) as? [String: Any])
    #expect(lines.count == counts["sentences"] as? Int, "every accepted sentence, nothing else")
    let log = try scratch.write("recorded.nmea", recorded.output)
    let again = try runWhereAmI(["print", "--json", log])
    let original = try runWhereAmI(["print", "--json", corrupted])
    #expect(again.output == original.output, "the recording gives the same fixes")
    let all = try runWhereAmI(["print", "--nmea", "--all", corrupted])
    #expect(all.output == recorded.output)
    let rejected = all.error.split(separator: "\n")
    #expect(rejected.count == (counts["rejected"] as? Int ?? -1), "\(all.error)")
    #expect(rejected.first?.hasPrefix("whereami: \(corrupted):") == true)
    #expect(try runWhereAmI(["print", "--all", corrupted]).code == 64)
    #expect(try runWhereAmI(["print", "--nmea", "gpsd://127.0.0.1:1"]).code == 64)
  }

  /// A log whose fixes take their date from its `# Date:` comment (no RMC in its first
  /// cycles, no ZDA) keeps it in the recording, so that the recording replays into the
  /// same dated fixes; `--count` counts sentences, not the comment.
  @Test func printNMEAKeepsTheLogsDateComment() throws {
    let scratch = try ExportScratch()
    let drive = Paths.fixture("drive-midnight.nmea")
    let recorded = try runWhereAmI(["print", "--nmea", drive])
    #expect(recorded.code == 0, "\(recorded.error)")
    let lines = recorded.output.components(separatedBy: "\r\n").dropLast()
    #expect(lines.first == "# Date: 2025-12-31", "\(lines.prefix(2))")
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("$") })
    let log = try scratch.write("recorded-drive.nmea", recorded.output)
    let again = try runWhereAmI(["print", "--json", log])
    let original = try runWhereAmI(["print", "--json", drive])
    #expect(again.output == original.output, "the recording gives the same fixes, dates included")
    let counted = try runWhereAmI(["print", "--nmea", "--count", "3", drive])
    #expect(counted.output.components(separatedBy: "\r\n").dropLast().count == 4, "\(counted.output)")
  }

  /// From a UDP stream, as a user records a boat's network to a log.
  @Test func printNMEAFromALiveSource() throws {
    let port = freeLoopbackPort()
    let child = try ChildProcess(Paths.whereami, ["print", "--nmea", "udp://127.0.0.1:\(port)"])
    defer { child.terminate() }
    // Sent only once whereami listens: a datagram before that is lost, as on a boat.
    #expect(waitUntil { udpPortIsBound(port) }, "whereami never bound port \(port): \(child.standardError)")
    let sender = try DatagramSender(host: "127.0.0.1", port: port)
    let cycles = try Self.cycles(3)
    for cycle in cycles { try sender.send(cycle) }
    let expected = cycles.joined().utf8.count
    #expect(waitUntil { child.standardOutput.utf8.count >= expected || child.hasExited }, "\(child.standardError)")
    child.signalGroup(SIGINT)
    #expect(child.wait(timeout: 30) == 0, "\(child.standardError)")
    #expect(child.standardOutput == cycles.joined())
  }
}

/// `print --nmea --json` (each accepted sentence's decoded fields, as pynmea2's users read
/// them) and `--sentences` (gpspipe -r | grep GGA).
@Suite struct DecodedSentencesTests {
  static func objects(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map {
      guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
        throw CocoaError(.coderReadCorrupt)
      }
      return object
    }
  }

  @Test func everyAcceptedSentenceIsAnObjectOfItsFields() throws {
    let corrupted = Paths.fixture("corrupted.nmea")
    let result = try runWhereAmI(["print", "--nmea", "--json", corrupted])
    #expect(result.code == 0 && result.error.isEmpty, "\(result.error)")
    let objects = try Self.objects(result.output)
    // The same sentences as the raw recording, in order, and as many as summary counts.
    let raw = try runWhereAmI(["print", "--nmea", corrupted]).output.components(separatedBy: "\r\n").dropLast()
    #expect(objects.map { $0["sentence"] as? String } == raw.map { Optional($0) })
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(try runWhereAmI(["summary", "--json", corrupted]).output.utf8))
        as? [String: Any])
    #expect(objects.count == summary["sentences"] as? Int)
    let types = Dictionary(grouping: objects.compactMap { $0["type"] as? String }, by: { $0 }).mapValues(\.count)
    for (type, count) in try #require(summary["sentenceTypes"] as? [String: Int]) {
      #expect(types[type] == count, "\(type)")
    }
    // A GGA's fields by the names its type gives them, with the values the fix has.
    let gga = try #require(objects.first { $0["type"] as? String == "GGA" })
    let fix = try #require(try Self.objects(try runWhereAmI(["print", "--json", corrupted]).output).first)
    #expect(gga["talker"] as? String == "GP" && gga["quality"] != nil && gga["satellitesUsed"] is Int, "\(gga)")
    #expect(abs((gga["latitude"] as? Double ?? 0) - (fix["lat"] as? Double ?? 1)) < 1e-8, "\(gga) \(fix)")
    // GSV's satellites and GSA's used satellites are lists.
    let gsv = try #require(objects.first { $0["type"] as? String == "GSV" })
    #expect((gsv["satellites"] as? [[String: Any]])?.first?["id"] is Int, "\(gsv)")
    let gsa = try #require(objects.first { $0["type"] as? String == "GSA" })
    #expect(!(gsa["usedSatellites"] as? [Int] ?? []).isEmpty, "\(gsa)")
  }

  /// The renderer writes valid JSON for every sentence of 118 real receivers' logs.
  @Test func theCorpusDecodesIntoValidObjects() throws {
    let scratch = try ExportScratch()
    var all = Data()
    for log in TestPaths.corpusLogs { all.append(try Data(contentsOf: log)) }
    let path = scratch.path("corpus.nmea")
    try all.write(to: URL(fileURLWithPath: path))
    let result = try runWhereAmI(["print", "--nmea", "--json", "--date", "2020-01-01", path], timeout: 300)
    #expect(result.code == 0, "\(result.error.prefix(500))")
    let objects = try Self.objects(result.output)
    let summary = try #require(
      try JSONSerialization.jsonObject(
        with: Data(try runWhereAmI(["summary", "--json", "--date", "2020-01-01", path]).output.utf8)) as? [String: Any])
    #expect(objects.count == summary["sentences"] as? Int)
    #expect(Set(objects.compactMap { $0["type"] as? String }).count >= 20)
  }

  @Test func sentencesFilterByType() throws {
    let walk = Paths.fixture("walk.nmea")
    let lines = try runWhereAmI(["print", "--nmea", "--sentences", "gga, RMC", walk]).output
      .components(separatedBy: "\r\n").dropLast()
    #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("$GPGGA,") || $0.hasPrefix("$GPRMC,") })
    #expect(lines.count == 2 * 1160)
    let json = try Self.objects(try runWhereAmI(["print", "--nmea", "--json", "--sentences", "GSA", walk]).output)
    #expect(json.count == 1160 && json.allSatisfy { $0["type"] as? String == "GSA" })
    // A whole address, as `grep GPGGA` users type it, is a type too.
    let addressed = try runWhereAmI(["print", "--nmea", "--sentences", "GPGGA", walk]).output
    #expect(addressed.components(separatedBy: "\r\n").dropLast().count == 1160)
    // Status and mode letters are letters, and the decoder's own notes are left out.
    let scratch = try ExportScratch()
    let thsLog = try scratch.write("ths.nmea", checksummed("$HETHS,123.4,A") + "\r\n")
    let ths = try Self.objects(try runWhereAmI(["print", "--nmea", "--json", thsLog]).output)
    #expect(ths.first?["mode"] as? String == "A", "\(ths)")
    let gga = try Self.objects(
      try runWhereAmI(["print", "--nmea", "--json", "--sentences", "GGA", "--count", "1", walk]).output)
    #expect(gga.first?["coordinateDecimals"] == nil, "\(gga)")
    for bad in [["--nmea", "--sentences", ""], ["--nmea", "--sentences", "GG-A"], ["--sentences", "GGA"]] {
      let result = try runWhereAmI(["print"] + bad + [walk])
      #expect(result.code == 64 && result.error.contains("--sentences"), "\(bad): \(result.error)")
    }
  }
}
