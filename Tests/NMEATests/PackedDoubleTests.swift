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
    a.dop.horizontal = nil
    a.satellitesUsed = 0
    a.time = Timestamp(microsecondsSinceEpoch: 0)
    #expect(a != b && a.satellitesUsed == 0 && a.time == Timestamp(microsecondsSinceEpoch: 0))
    a.satellitesUsed = nil
    a.time = nil
    #expect(a == b)
    // Fifteen eight-byte fields and the DOPs, three packed optionals, the error
    // statistics and six one-byte enums, with no padding between them (281 bytes with
    // the optionals unpacked and in their places).
    #expect(MemoryLayout<Fix>.size == 15 * 8 + 24 + 3 * 8 + MemoryLayout<ErrorStatistics?>.size + 6)
  }

  /// Integers and timestamps: every value but the sentinel comes back as it went in.
  @Test func integersAndTimestampsRoundTripAndAbsentIsNil() {
    for value in [0, 1, -1, 255, .max, .min + 1] {
      #expect(PackedInt(wrappedValue: value).wrappedValue == value)
      let time = Timestamp(microsecondsSinceEpoch: Int64(value))
      #expect(PackedTimestamp(wrappedValue: time).wrappedValue == time)
    }
    #expect(PackedInt().wrappedValue == nil && PackedInt(wrappedValue: nil).wrappedValue == nil)
    #expect(PackedInt(wrappedValue: .min).wrappedValue == nil)
    #expect(PackedTimestamp().wrappedValue == nil && PackedTimestamp(wrappedValue: nil).wrappedValue == nil)
    #expect(PackedInt(wrappedValue: nil) != PackedInt(wrappedValue: 0))
    #expect(MemoryLayout<PackedInt>.size == 8 && MemoryLayout<PackedTimestamp>.size == 8)
  }
}
