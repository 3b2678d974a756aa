import Foundation
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// Location and heading updates together on a live receiver. A requested location beside
/// other updates: continuous location updates take over a request, a request during them
/// changes nothing, and a request beside heading updates is answered (or times out) on its
/// own while the headings go on. A compass that goes on does not hide a GPS that stopped.
@Suite(.serialized) struct RequestLocationTests {
  /// Writes one cycle after another on `terminal` (its second counted in `second`, with
  /// a compass heading after each when `headings` (``heading(_:)``), and no fix when
  /// `valid` is false), each once the last was handled or 50 ms passed, until `done`
  /// holds for the events recorded, for at most 30 s. The source may open the terminal
  /// after the first writes, so a test does not count on any one cycle arriving.
  private func feed(
    _ terminal: PseudoTerminal, _ second: inout Int, _ recorder: Recorder, headings: Bool = false,
    valid: Bool = true, fixes: Bool = true, until done: @escaping ([LocationEvent]) -> Bool
  ) -> Bool {
    let giveUp = Date().addingTimeInterval(30)
    while Date() < giveUp {
      if done(recorder.events) { return true }
      let before = recorder.events.count
      // Not waiting for a source that stopped reading: the buffer fills, and the test fails.
      terminal.write(
        (fixes ? cycle(second, valid: valid) : "") + (headings ? Self.heading(second) : ""), timeout: 0.05)
      second += 1
      recorder.wait(timeout: 0.05) { $0.count > before }
    }
    return done(recorder.events)
  }

  /// A compass's heading, 7° on from the last each second: the default heading filter
  /// (1°) passes each.
  private static func heading(_ second: Int) -> String {
    sentence("$HEHDT,\(second * 7 % 360).0,T")
  }

  /// Whether the events hold a location-unknown error whose message contains `text`.
  private static func locationUnknown(saying text: String) -> ([LocationEvent]) -> Bool {
    { events in
      events.contains {
        if case .failure(let error) = $0 {
          error.code == .locationUnknown && error.message.contains(text)
        } else {
          false
        }
      }
    }
  }

  private static func updates(_ events: [LocationEvent]) -> Int {
    events.count { if case .update = $0 { true } else { false } }
  }

  private static func headings(_ events: [LocationEvent]) -> Int {
    events.count { if case .heading = $0 { true } else { false } }
  }

  /// A request, then continuous updates (an app centres its map, then the user starts
  /// tracking): the requested location is the first update, and updates go on. They had
  /// stopped after that one location.
  @Test func continuousUpdatesTakeOverAPendingRequest() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.requestLocation(timeout: 60)
    manager.startUpdatingLocation()
    var second = 0
    #expect(feed(terminal, &second, recorder) { Self.updates($0) >= 3 }, "\(recorder.events)")
    #expect(manager.isUpdating)
    #expect(recorder.errors.allSatisfy { !$0.isFinal }, "\(recorder.errors)")
  }

  /// Continuous updates, then a request: the next update answers it, and updates go on.
  /// The request had turned the run into a one-shot, which stopped at its location.
  @Test func aRequestDuringContinuousUpdatesChangesNothing() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.startUpdatingLocation()
    var second = 0
    #expect(feed(terminal, &second, recorder) { Self.updates($0) >= 1 })
    manager.requestLocation(timeout: 60)
    #expect(feed(terminal, &second, recorder) { Self.updates($0) >= 4 }, "\(recorder.events)")
    #expect(manager.isUpdating)
  }

  /// Beside heading updates, a request is answered once; a later start of location
  /// updates is continuous. The request's one-shot had outlived it, and the later start
  /// gave one location more and stopped again.
  @Test func aRequestBesideHeadingsIsAnsweredOnceAndALaterStartIsContinuous() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.startUpdatingHeading()
    var second = 0
    #expect(feed(terminal, &second, recorder, headings: true) { Self.headings($0) >= 1 })
    manager.requestLocation(timeout: 60)
    #expect(feed(terminal, &second, recorder, headings: true) { Self.updates($0) >= 1 })
    // Answered: no more locations while the headings go on.
    let headingsThen = Self.headings(recorder.events)
    #expect(feed(terminal, &second, recorder, headings: true) { Self.headings($0) >= headingsThen + 5 })
    #expect(Self.updates(recorder.events) == 1, "\(recorder.events)")
    manager.startUpdatingLocation()
    #expect(feed(terminal, &second, recorder, headings: true) { Self.updates($0) >= 4 }, "\(recorder.events)")
    #expect(manager.isUpdating)
  }

  /// A request beside heading updates, without a fix: at its deadline the error comes,
  /// not final, and the headings go on. It had no deadline at all.
  @Test func aRequestBesideHeadingsTimesOutAndTheHeadingsGoOn() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.startUpdatingHeading()
    var second = 0
    #expect(feed(terminal, &second, recorder, headings: true, valid: false) { Self.headings($0) >= 1 })
    manager.requestLocation(timeout: 0.3)
    let timedOut = Self.locationUnknown(saying: "within")
    #expect(feed(terminal, &second, recorder, headings: true, valid: false, until: timedOut), "\(recorder.events)")
    let error = try #require(recorder.errors.last { $0.message.contains("within") })
    #expect(!error.isFinal)
    let headingsThen = Self.headings(recorder.events)
    #expect(feed(terminal, &second, recorder, headings: true, valid: false) { Self.headings($0) >= headingsThen + 3 })
    #expect(manager.isUpdating)
  }

  /// A request, heading updates, then location updates stopped: the request is cancelled
  /// with them, and its deadline neither stops the headings nor reports an error. It had
  /// ended everything with a final error ten seconds after the user cancelled.
  @Test func stoppingLocationUpdatesCancelsARequestBesideHeadings() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.requestLocation(timeout: 0.3)
    manager.startUpdatingHeading()
    manager.stopUpdatingLocation()
    // Headings until a second after the deadline: its timer has fired by then.
    let deadlinePassed = Date().addingTimeInterval(1.3)
    var second = 0
    #expect(feed(terminal, &second, recorder, headings: true, valid: false) { _ in Date() > deadlinePassed })
    let headingsThen = Self.headings(recorder.events)
    #expect(feed(terminal, &second, recorder, headings: true, valid: false) { Self.headings($0) >= headingsThen + 3 })
    #expect(!recorder.errors.contains { $0.code == .locationUnknown && $0.message.contains("within") })
    #expect(manager.isUpdating)
  }

  /// The positions stop while the compass's headings go on (a boat's multiplexer whose
  /// GPS fell silent): location unknown, saying so, and the headings still come. Every
  /// heading had counted as data, so the lost GPS was never said.
  @Test func aGPSThatStopsWhileItsCompassGoesOnIsLocationUnknown() throws {
    let terminal = try PseudoTerminal()
    let (manager, recorder) = recordedManager(terminal, baud: 9600)
    defer { manager.stopUpdating() }
    manager.watchdogTimeout = 0.5
    manager.startUpdating(location: true, heading: true)
    var second = 0
    #expect(feed(terminal, &second, recorder, headings: true) { Self.updates($0) >= 3 })
    let lost = Self.locationUnknown(saying: "headings go on")
    #expect(feed(terminal, &second, recorder, headings: true, fixes: false, until: lost), "\(recorder.errors)")
    let headingsThen = Self.headings(recorder.events)
    #expect(
      feed(terminal, &second, recorder, headings: true, fixes: false) { Self.headings($0) >= headingsThen + 3 })
    #expect(manager.isUpdating)
  }
}
