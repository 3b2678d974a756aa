import Foundation
import NMEA
import TestSupport
import Testing

@testable import TrackExport

/// ``TrackSummary`` on the corpus's real receivers.
@Suite struct TrackSummaryTests {
  static func summary(of log: URL) throws -> TrackSummary {
    var decoder = NMEADecoder()
    var summary = TrackSummary()
    let handle: (consuming DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event { summary.add(fix) }
    }
    decoder.decode(try Data(contentsOf: log), handle)
    decoder.finish(handle)
    return summary
  }

  /// The mean moving speed is distance over moving time. A loss longer than a minute
  /// counts as stopped time, so its bridge's distance is left out with it: with it,
  /// `nl2008u.log` (a receiver switched off for 20 minutes, back 670 m on) read 173.57
  /// m/s against a highest reported speed of 5.19, `ublox-lea-4h.log` 222.27 against
  /// 1.31. Only a short loss, whose time is moving time, adds a speed of its own, the
  /// bridge's: those logs are left out here.
  @Test func aMeanSpeedIsNotAboveTheHighestOnTheCorpusLogs() throws {
    var checked: [String] = []
    for log in TestPaths.corpusLogs {
      let summary = try Self.summary(of: log)
      guard let mean = summary.meanSpeed, let highest = summary.maximumSpeed,
        summary.bridgedDistance - summary.bridgedDistanceInStoppedTime == 0
      else { continue }
      checked.append(log.lastPathComponent)
      // Doppler speeds integrated, against the highest of them: a few percent of rounding
      // (speeds in tenths of a knot) and of steps before the decision to move.
      #expect(mean <= 1.05 * highest + 0.05, "\(log.lastPathComponent): mean \(mean) m/s, highest \(highest) m/s")
    }
    #expect(checked.contains("nl2008u.log") && checked.contains("ublox-lea-4h.log"), "\(checked)")
    // Eleven of the 118 have speeds, moving time and no short loss.
    #expect(checked.count >= 10, "\(checked)")
  }

  /// A total is its files' sessions: two logs of one session each, however far apart in
  /// time, are two (the total's own odometer, which takes no fix, had added a third).
  @Test func aTotalHasItsFilesSessions() throws {
    let walk = try Self.summary(of: TestPaths.fixtures.appendingPathComponent("walk.nmea"))
    let stand = try Self.summary(of: TestPaths.fixtures.appendingPathComponent("static-hour.nmea"))
    #expect(walk.sessions == 1 && stand.sessions == 1)
    var total = TrackSummary()
    total.merge(walk)
    total.merge(stand)
    #expect(total.sessions == 2)
    // Each file one session: nothing to say about sessions.
    #expect(!total.text(name: "total").contains("sessions "), "\(total.text(name: "total"))")
    // A file of two sessions (the walk joined after the stand, a month back in time).
    var joined = try Self.summary(of: TestPaths.fixtures.appendingPathComponent("walk.nmea"))
    var decoder = NMEADecoder()
    let handle: (consuming DecoderEvent) -> Void = { event in
      if case .fix(let fix) = event { joined.add(fix) }
    }
    decoder.decode(try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("static-hour.nmea")), handle)
    decoder.finish(handle)
    #expect(joined.sessions == 2)
    total.merge(joined)
    #expect(total.sessions == 4)
    #expect(total.text(name: "total").contains("4 sessions in 3 files ("), "\(total.text(name: "total"))")
  }
}
