import Testing

@testable import NMEA

@Suite struct PackedDoubleTests {
  /// Every value but NaN comes back as it went in; nil and NaN are absent, and equal.
  @Test func valuesRoundTripAndAbsentIsNil() {
    for value in [0.0, -0.0, 1.5, -123.456, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
      let packed = PackedDouble(wrappedValue: value)
      #expect(packed.wrappedValue == value)
      #expect(packed.wrappedValue?.sign == value.sign)
      #expect(packed == PackedDouble(wrappedValue: value))
    }
    #expect(PackedDouble().wrappedValue == nil)
    #expect(PackedDouble(wrappedValue: nil).wrappedValue == nil)
    #expect(PackedDouble(wrappedValue: .nan).wrappedValue == nil)
    #expect(PackedDouble(wrappedValue: nil) == PackedDouble(wrappedValue: .nan))
    #expect(PackedDouble(wrappedValue: nil) != PackedDouble(wrappedValue: 0))
    #expect(PackedDouble(wrappedValue: 1) != PackedDouble(wrappedValue: 2))
  }

  /// A fix is smaller than with plain optionals, and compares by value: two empty
  /// fixes are equal, a set field makes them differ, clearing it makes them equal again.
  @Test func fixesCompareByValue() {
    var a = Fix(timeOfDay: TimeOfDay(microseconds: 0))
    let b = Fix(timeOfDay: TimeOfDay(microseconds: 0))
    #expect(a == b)
    a.altitudeMSL = 12
    #expect(a != b && a.altitudeMSL == 12)
    a.altitudeMSL = nil
    #expect(a == b)
    a.dop.horizontal = 0.8
    #expect(a != b)
    #expect(MemoryLayout<PackedDouble>.size == 8)
    #expect(MemoryLayout<DilutionOfPrecision>.size == 24)
  }
}
