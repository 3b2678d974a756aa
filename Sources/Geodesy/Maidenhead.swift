/// The Maidenhead locator ("grid square") that radio amateurs give for a place: pairs of
/// letters and digits that halve the ambiguity of a position at each step, as cgps shows.
///
/// The first pair (the field, `A`–`R`) divides longitude into 20° and latitude into 10°;
/// the second (the square, `0`–`9`) into 2° and 1°; the third (the subsquare, `a`–`x`)
/// into 5′ and 2.5′; the fourth (the extended square, `0`–`9`) into 30″ and 15″, about
/// 600 m × 460 m at mid-latitudes. Longitude comes first in each pair.
public enum Maidenhead {
  /// The locator of a WGS84 position with `pairs` pairs (1 to 4; 4 by default, gpsd's
  /// eight characters); `nil` for a latitude outside ±90° or a coordinate that is not
  /// finite. The north pole falls in the last row, as it must to stay inside the grid, and
  /// 180° east is 180° west.
  public static func locator(latitude: Double, longitude: Double, pairs: Int = 4) -> String? {
    guard (1...4).contains(pairs), let packed = packedSymbols(latitude: latitude, longitude: longitude) else {
      return nil
    }
    return String(decoding: (0..<2 * pairs).map { UInt8(truncatingIfNeeded: packed >> (8 * $0)) }, as: UTF8.self)
  }

  /// The eight symbols' ASCII bytes, the first in the lowest byte: for output written byte
  /// by byte, without making a string.
  package static func packedSymbols(latitude: Double, longitude: Double) -> UInt64? {
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return nil }
    // Whole cells of the finest step (30″ of longitude, 15″ of latitude: 43,200 each way),
    // from 180° W and 90° S; the north pole stays in the last row, and 180° E is 180° W.
    var east = longitude + 180
    if !(0..<360).contains(east) {
      east = east.truncatingRemainder(dividingBy: 360)
      if east < 0 { east += 360 }
    }
    let column = UInt64(min(Int(east * 120), 43_199))
    let row = UInt64(min(Int((latitude + 90) * 240), 43_199))
    // Field (18 cells of 2,400), square (10 of 240), subsquare (24 of 10), extended
    // square (10 of 1); longitude first in each pair.
    let (letter, digit, small): (UInt64, UInt64, UInt64) = (65, 48, 97)
    var packed = letter + column / 2400 | (letter + row / 2400) << 8
    packed |= (digit + column / 240 % 10) << 16 | (digit + row / 240 % 10) << 24
    packed |= (small + column / 10 % 24) << 32 | (small + row / 10 % 24) << 40
    packed |= (digit + column % 10) << 48 | (digit + row % 10) << 56
    return packed
  }
}
