/// HDG: a magnetic sensor's heading, with its deviation and the magnetic variation.
///
/// ```
/// Format:  $--HDG,x.x,x.x,a,x.x,a*hh
/// Fields:         0   1   2 3   4
/// Example: $SDHDG,229.8,,,1.3,E*36
/// ```
///
/// Magnetic heading = sensor heading + deviation; true heading = magnetic heading +
/// variation; easterly deviation and variation are positive, westerly negative.
public struct HDG: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// The sensor's reading, degrees.
  public var sensorHeading: Double?
  /// Degrees, east positive.
  public var deviation: Double?
  /// Degrees, east positive.
  public var variation: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 1, name: "heading")
    self.talker = talker
    sensorHeading = try fields.decimal(0, "heading", in: 0...360)
    deviation = try signedVariation(fields, 1, "deviation")
    variation = try signedVariation(fields, 3)
  }

  /// Degrees from magnetic north: the sensor heading corrected for deviation.
  public var magneticHeading: Double? {
    sensorHeading.map { HeadingMath.normalized($0 + (deviation ?? 0)) }
  }
}
