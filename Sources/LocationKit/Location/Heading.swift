import Geodesy
import NMEA

/// Where the device points, as opposed to where it moves (``Location/course``): from a
/// gyro or magnetic compass, a dual-antenna receiver or a GNSS/IMU unit.
///
/// Mirrors Core Location's `CLHeading` with Swift optionals: a value the sensor did not
/// give is `nil` (Core Location's negative "invalid" numbers), never 0. Headings are
/// degrees clockwise from north, in [0, 360).
public struct Heading: Sendable, Equatable {
  /// Degrees from true (geographic) north; `nil` when neither the sensor nor a declination
  /// gives it.
  public var trueHeading: Double?
  /// Degrees from magnetic north.
  public var magneticHeading: Double?
  /// The heading's 1-sigma uncertainty in degrees, from the sensor's own standard
  /// deviation (`$PASHR`); `nil` when the sensor states none.
  public var accuracy: Double?
  /// The declination (magnetic variation, degrees east) used between the two headings,
  /// and where it came from: the receiver, or the World Magnetic Model.
  public var declination: Double?
  /// Where ``declination`` came from; `nil` without a declination.
  public var declinationSource: DeclinationSource?
  /// For a declination from the World Magnetic Model that is not reliable there and then,
  /// how (see ``/Geodesy/MagneticModel/Reliability``); `nil` otherwise.
  public var declinationCaveat: MagneticModel.Reliability?
  /// Rate of turn, degrees per minute, positive turning to starboard.
  public var rateOfTurn: Double?
  /// The attitude, when the sensor reports one.
  public var attitude: Attitude?
  /// When the sensor reported it, once a date is known.
  public var timestamp: Timestamp?
  /// The time of day the sensor reported it at (UTC), when it says; before a date is known
  /// this is all there is.
  public var timeOfDay: TimeOfDay?
  /// The sentence or report it came from (`HDT`, `PASHR`, `gpsd ATT`).
  public var source: String
  /// The device, for a source with several (gpsd).
  public var device: String?

  /// Creates a heading from `source` with nothing known yet.
  public init(source: String) { self.source = source }

  /// The heading of a decoded reading.
  public init(_ reading: HeadingReading, device: String? = nil) {
    self.init(source: reading.sentence)
    trueHeading = reading.trueHeading
    magneticHeading = reading.magneticHeading
    accuracy = reading.accuracy
    declination = reading.declination
    declinationSource = reading.declinationSource
    declinationCaveat = reading.declinationCaveat
    rateOfTurn = reading.rateOfTurn
    timestamp = reading.time
    timeOfDay = reading.timeOfDay
    self.device = device
    if reading.roll != nil || reading.pitch != nil || reading.heave != nil {
      attitude = Attitude(
        roll: reading.roll, pitch: reading.pitch, yaw: nil, rollAccuracy: reading.rollAccuracy,
        pitchAccuracy: reading.pitchAccuracy, yawAccuracy: nil, heave: reading.heave, dip: reading.dip)
    } else if let dip = reading.dip {
      attitude = Attitude(dip: dip)
    }
  }

  /// The heading a filter compares: true when known, else magnetic.
  public var direction: Double? { trueHeading ?? magneticHeading }
}

/// How the device is tilted and turned: roll, pitch and yaw in degrees, with their 1-sigma
/// uncertainties where the sensor states them; `nil` for what it does not report.
public struct Attitude: Sendable, Equatable {
  /// Degrees, starboard (right) side down positive.
  public var roll: Double?
  /// Degrees, bow (front) up positive.
  public var pitch: Double?
  /// Degrees, clockwise, in the sensor's frame (gpsd's `yaw`); a heading from north is
  /// ``Heading/trueHeading``.
  public var yaw: Double?
  /// The roll's 1-sigma uncertainty, degrees; `nil` when the sensor states none.
  public var rollAccuracy: Double?
  /// The pitch's 1-sigma uncertainty, degrees; `nil` when the sensor states none.
  public var pitchAccuracy: Double?
  /// The yaw's 1-sigma uncertainty, degrees; `nil` when the sensor states none.
  public var yawAccuracy: Double?
  /// Metres, up positive.
  public var heave: Double?
  /// The magnetic field's dip below the horizontal, degrees.
  public var dip: Double?
  /// Acceleration, rotation and magnetic field a gpsd ATT report carried, in the device's
  /// own units: gpsd 3.22 documents none, and passes them on as the receiver sent them.
  public var sensorValues: ATTSensorValues?

  /// An attitude with the given angles (degrees), uncertainties (degrees), heave (metres)
  /// and dip (degrees); `nil` for what is not known.
  public init(
    roll: Double? = nil, pitch: Double? = nil, yaw: Double? = nil, rollAccuracy: Double? = nil,
    pitchAccuracy: Double? = nil, yawAccuracy: Double? = nil, heave: Double? = nil, dip: Double? = nil
  ) {
    self.roll = roll
    self.pitch = pitch
    self.yaw = yaw
    self.rollAccuracy = rollAccuracy
    self.pitchAccuracy = pitchAccuracy
    self.yawAccuracy = yawAccuracy
    self.heave = heave
    self.dip = dip
  }
}

/// The sensor members of a gpsd ATT report (`acc_x`, `gyro_x`, `mag_x`, ...), as the
/// receiver sent them: gpsd 3.22 states no unit for any of them and converts none (an
/// OceanServer compass, the one 3.22 driver that sends them, documents g and milligauss
/// in its own manual). `nil` for a member the report did not have; gpsd has no `gyro_z`.
public struct ATTSensorValues: Sendable, Equatable {
  /// `acc_x`, `acc_y`, `acc_z`, in the receiver's units.
  public var acceleration: (x: Double?, y: Double?, z: Double?)
  /// `gyro_x`, `gyro_y`, in the receiver's units.
  public var rotation: (x: Double?, y: Double?)
  /// `mag_x`, `mag_y`, `mag_z`, in the receiver's units.
  public var magneticField: (x: Double?, y: Double?, z: Double?)

  /// Values as a report carried them; `nil` for each member it did not have.
  public init(
    acceleration: (x: Double?, y: Double?, z: Double?) = (nil, nil, nil),
    rotation: (x: Double?, y: Double?) = (nil, nil),
    magneticField: (x: Double?, y: Double?, z: Double?) = (nil, nil, nil)
  ) {
    self.acceleration = acceleration
    self.rotation = rotation
    self.magneticField = magneticField
  }

  /// Whether the report had any of them.
  public var isEmpty: Bool {
    [
      acceleration.x, acceleration.y, acceleration.z, rotation.x, rotation.y, magneticField.x, magneticField.y,
      magneticField.z,
    ].allSatisfy { $0 == nil }
  }

  public static func == (a: ATTSensorValues, b: ATTSensorValues) -> Bool {
    a.acceleration == b.acceleration && a.rotation == b.rotation && a.magneticField == b.magneticField
  }
}
