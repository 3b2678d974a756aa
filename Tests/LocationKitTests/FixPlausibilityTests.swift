import LocationKit
import NMEA
import Testing

@Suite struct FixPlausibilityTests {
  private func fix(_ seconds: Double, north: Double, accuracy: Double? = 5) -> Location {
    var location = Location(latitude: 48.137 + north / 111_200, longitude: 11.575)
    location.timestamp = Timestamp(microsecondsSinceEpoch: 1_773_475_200_000_000 + Int64(seconds * 1e6))
    location.timeOfDay = location.timestamp!.timeOfDay
    location.horizontalAccuracy = accuracy
    return location
  }

  @Test func anAirlinerPassesAndAJumpToThePoleDoesNot() {
    var check = FixPlausibility()
    #expect(check.check(fix(0, north: 0)) == nil)
    // 250 m/s for a second: an airliner.
    #expect(check.check(fix(1, north: 250)) == nil)
    // 51 km in a second.
    #expect(check.check(fix(2, north: 51_250)) == .tooFast)
    #expect(check.check(fix(3, north: 750)) == nil)
    #expect(check.counts == [.tooFast: 1])
  }

  @Test func timeGoingBackwardsIsSetAside() {
    var check = FixPlausibility()
    #expect(check.check(fix(10, north: 0)) == nil)
    #expect(check.check(fix(5, north: 0)) == .timeWentBackwards)
    #expect(check.check(fix(11, north: 1)) == nil)
    #expect(check.total == 1)
  }

  @Test func aWildFirstFixDoesNotHoldTheTrackHostage() {
    // The first fix is 500 km off; the receiver's true fixes agree with each other: after
    // three of them, they are the reference.
    var check = FixPlausibility()
    #expect(check.check(fix(0, north: 500_000)) == nil)
    #expect(check.check(fix(1, north: 0)) == .tooFast)
    #expect(check.check(fix(2, north: 1)) == .tooFast)
    #expect(check.check(fix(3, north: 2)) == nil)
    #expect(check.check(fix(4, north: 3)) == nil)
  }

  @Test func theUncertaintyIsAllowedFor() {
    // A fix with a 200 m accuracy may be 600 m off in a 10 Hz step.
    var check = FixPlausibility()
    #expect(check.check(fix(0, north: 0, accuracy: 200)) == nil)
    #expect(check.check(fix(0.1, north: 900, accuracy: 200)) == nil)
  }
}
