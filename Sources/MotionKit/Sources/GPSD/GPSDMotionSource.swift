import LocationKit

/// Motion from a gpsd daemon's ATT reports, through libgps (``/LocationKit/GPSDSource``).
///
/// gpsd 3.22 documents ATT's `heading` (degrees from true north), `pitch` and `roll`
/// (degrees): those become ``MotionSourceEvent/reportedAttitude(_:)``. It documents no
/// unit for `acc_x/y/z`, `gyro_x/y` or `mag_x/y/z`, and copies them from the receiver
/// unconverted: they become ``MotionSourceEvent/deviceUnits(_:)`` readings, never scaled
/// by a guess (gpsd has no `gyro_z`, so a rotation's z is NaN: not reported). gpsd keeps
/// a member from an earlier sentence of the same cycle, so a value may repeat. ATT has
/// no time of its own in 3.22: readings are stamped when they arrive.
///
/// Connection errors are gpsd's (``/LocationKit/GPSDSource``): cannot connect (retried), lost
/// connection (``MotionError/Code/unknown``, reconnected), a missing device.
public final class GPSDMotionSource: MotionSource, @unchecked Sendable {
  // @unchecked Sendable: `gpsd` and `name` are immutable and `gpsd` is itself safe.
  /// The gpsd connection whose heading reports become motion events; it starts and stops
  /// with this source.
  public let gpsd: GPSDSource
  public let name: String

  /// A motion source reading `gpsd`'s ATT reports; nothing is opened until
  /// ``MotionSource/start(sensors:interval:_:)``.
  public init(gpsd: GPSDSource) {
    self.gpsd = gpsd
    name = gpsd.name
  }

  public var readsEverything: Bool { true }

  public func start(sensors: Set<SensorKind>, interval: Double, _ sink: @escaping @Sendable (MotionSourceEvent) -> Void)
  {
    gpsd.start { event in
      for motion in Self.events(for: event, time: SystemClock.wall()) { sink(motion) }
    }
  }

  public func stop() { gpsd.stop() }

  /// The motion events of a gpsd source event, stamped `time`.
  static func events(for event: SourceEvent, time: Double) -> [MotionSourceEvent] {
    switch event {
    case .location, .noFix: return []
    case .error(let error):
      let code: MotionError.Code =
        switch error.code {
        case .denied: .denied
        case .locationUnknown, .headingUnknown: .unknown
        case .sourceNotFound: .sourceNotFound
        case .cannotConnect: .cannotConnect
        case .sourceEnded: .sourceEnded
        case .readError: .readError
        case .invalidSource: .invalidSource
        }
      return [.error(MotionError(code, error.message, final: error.isFinal))]
    case .heading(let heading):
      var events: [MotionSourceEvent] = []
      let attitude = heading.attitude
      if heading.trueHeading != nil || attitude?.pitch != nil || attitude?.roll != nil {
        events.append(
          .reportedAttitude(
            ReportedAttitude(
              time: time, heading: heading.trueHeading, pitch: attitude?.pitch, roll: attitude?.roll,
              dip: attitude?.dip, device: heading.device)))
      }
      if let values = attitude?.sensorValues {
        func reading(_ kind: SensorKind, _ x: Double?, _ y: Double?, _ z: Double?) -> MotionSourceEvent? {
          guard x != nil || y != nil || z != nil else { return nil }
          return .deviceUnits(
            SensorReading(
              time: time, sensor: kind, vector: MotionVector(x: x ?? .nan, y: y ?? .nan, z: z ?? .nan),
              device: heading.device))
        }
        events += [
          reading(.accelerometer, values.acceleration.x, values.acceleration.y, values.acceleration.z),
          reading(.gyroscope, values.rotation.x, values.rotation.y, nil),
          reading(.magnetometer, values.magneticField.x, values.magneticField.y, values.magneticField.z),
        ].compactMap { $0 }
      }
      return events
    }
  }
}
