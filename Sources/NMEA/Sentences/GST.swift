/// GST: pseudorange error statistics, the receiver's own 1-sigma accuracy estimate.
///
/// ```
/// Format:  $--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh
/// Fields:         0         1   2   3   4   5   6   7
/// Example: $GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031*6A
/// ```
public struct GST: Sendable, Equatable {
  /// The talker that sent the sentence (`GP`, `GN`, `GL`, …).
  public var talker: Talker
  /// UTC time of the fix the statistics are for (field 0); `nil` when empty.
  public var time: TimeOfDay?
  /// RMS of the pseudorange residuals, metres.
  public var rms: Double?
  /// Standard deviation of the error ellipse's semi-major axis, metres.
  public var semiMajor: Double?
  /// Standard deviation of the error ellipse's semi-minor axis, metres.
  public var semiMinor: Double?
  /// Orientation of the semi-major axis, degrees from true north.
  public var orientation: Double?
  /// Standard deviations of latitude, longitude and altitude errors, metres.
  public var latitudeError: Double?
  /// Standard deviation of the longitude error, metres (field 6); `nil` when empty.
  public var longitudeError: Double?
  /// Standard deviation of the altitude error, metres (field 7); `nil` when empty.
  public var altitudeError: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 8, name: "altitude error")
    self.talker = talker
    time = try fields.time(0)
    rms = try fields.decimal(1, "RMS", in: 0...1e9)
    semiMajor = try fields.decimal(2, "semi-major error", in: 0...1e9)
    semiMinor = try fields.decimal(3, "semi-minor error", in: 0...1e9)
    orientation = try fields.decimal(4, "orientation", in: -360...360)
    latitudeError = try fields.decimal(5, "latitude error", in: 0...1e9)
    longitudeError = try fields.decimal(6, "longitude error", in: 0...1e9)
    altitudeError = try fields.decimal(7, "altitude error", in: 0...1e9)
  }
}
