import LocationKit
import Testing

@testable import whereami

@Suite struct AnchorWatchTests {
  static let circle = try! Region(identifier: AnchorWatch.identifier, latitude: 10, longitude: 20, radius: 30)

  static func event(_ state: RegionState) -> RegionEvent { RegionEvent(region: circle, state: state) }

  /// The alarm goes off when the boat is found outside, latches until acknowledged, and
  /// goes off again only after the boat was known to be back inside: a fix lost and found
  /// outside again is the same drag.
  @Test func theAlarmLatchesAndComesBackOnlyWithANewCrossing() {
    var watch = AnchorWatch(radius: 30, position: nil)
    let raised1 = watch.handle(Self.event(.inside))
    #expect(!raised1)
    #expect(watch.position?.latitude == 10)
    let raised2 = watch.handle(Self.event(.outside))
    #expect(raised2)
    #expect(watch.alarm != nil)
    let raised3 = watch.handle(Self.event(.unknown))
    #expect(!raised3)
    let raised4 = watch.handle(Self.event(.outside))
    #expect(!raised4)
    #expect(watch.alarm != nil, "latched until acknowledged")
    watch.acknowledge()
    #expect(watch.alarm == nil)
    let raised5 = watch.handle(Self.event(.unknown))
    #expect(!raised5)
    let raised6 = watch.handle(Self.event(.outside))
    #expect(!raised6, "the same drag, after a lost fix")
    let raised7 = watch.handle(Self.event(.inside))
    #expect(!raised7)
    let raised8 = watch.handle(Self.event(.outside))
    #expect(raised8, "a new crossing")
    #expect(watch.alarms == 2)
    // Asked-for states and other regions change nothing.
    var asked = Self.event(.outside)
    asked.isRequested = true
    var other = AnchorWatch(radius: 30, position: nil)
    let raisedByAsking = other.handle(asked)
    #expect(!raisedByAsking)
  }

  @Test func aFirstDecisionOutsideRaisesTheAlarm() {
    var watch = AnchorWatch(radius: 30, position: (10, 20))
    let raised9 = watch.handle(Self.event(.outside))
    #expect(raised9)
  }
}
