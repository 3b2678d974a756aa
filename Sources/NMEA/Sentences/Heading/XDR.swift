/// XDR: transducer measurements, in groups of four fields (type, value, unit, name); the
/// attitude a sensor reports through them.
///
/// ```
/// Format:  $--XDR,a,x.x,a,c--c,...*hh
/// Fields:         0 1   2 3    (repeated)
/// Example: $APXDR,A,0.135,D,PTCH,A,3.861,D,ROLL*xx
/// ```
///
/// Angles (type `A`, unit `D`) named `PTCH`/`PITCH` are pitch and `ROLL` roll, in degrees;
/// type `G` named `MAGX`/`MAGY`/`MAGZ` are the magnetic field in the sensor's own units.
/// Other measurements (temperatures, pressures, heel, rudder) are passed over, as are
/// angles outside their possible range (some sensors send raw counts with the `D` unit),
/// so that the sentence still counts.
public struct XDR: Sendable, Equatable {
  /// The talker that sent the sentence (`HE` gyro, `HC` compass, `GN`, …).
  public var talker: Talker
  /// Degrees, bow up positive.
  public var pitch: Double?
  /// Degrees, starboard down positive.
  public var roll: Double?
  /// The magnetic field's components, in the sensor's units (the sentence names none).
  public var magneticX: Double?
  /// The magnetic field's `MAGY` component, in the sensor's units; `nil` when not sent.
  public var magneticY: Double?
  /// The magnetic field's `MAGZ` component, in the sensor's units; `nil` when not sent.
  public var magneticZ: Double?

  init(talker: Talker, _ fields: FieldReader) throws(FieldError) {
    try fields.require(fields: 4, name: "transducer name")
    self.talker = talker
    var index = 0
    while index + 1 < fields.count {
      let type = fields.raw(index)
      let unit = fields.raw(index + 2)
      let name = fields.text(index + 3) ?? ""
      // A measurement's value must be a number, or empty.
      let value = try fields.decimal(index + 1, "transducer value")
      if type.count == 1, let value {
        switch (type[0], name) {
        case (UInt8(ascii: "A"), "PTCH"), (UInt8(ascii: "A"), "PITCH"):
          if unit.elementsEqual("D".utf8), abs(value) <= 90 { pitch = value }
        case (UInt8(ascii: "A"), "ROLL"):
          if unit.elementsEqual("D".utf8), abs(value) <= 180 { roll = value }
        case (UInt8(ascii: "G"), "MAGX"): magneticX = value
        case (UInt8(ascii: "G"), "MAGY"): magneticY = value
        case (UInt8(ascii: "G"), "MAGZ"): magneticZ = value
        default: break
        }
      }
      index += 4
    }
  }
}
