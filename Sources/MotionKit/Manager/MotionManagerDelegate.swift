import LocationKit

/// Receives a motion manager's readings, shakes and errors, on its callback queue. Every
/// method has an empty default.
public protocol MotionManagerDelegate: AnyObject, Sendable {
  /// An accelerometer reading, at most one per ``MotionManager/accelerometerUpdateInterval``.
  func motionManager(_ manager: MotionManager, didUpdateAccelerometer data: AccelerometerData)
  /// A gyroscope reading, at most one per ``MotionManager/gyroUpdateInterval``.
  func motionManager(_ manager: MotionManager, didUpdateGyro data: GyroData)
  /// A magnetometer reading, at most one per ``MotionManager/magnetometerUpdateInterval``.
  func motionManager(_ manager: MotionManager, didUpdateMagnetometer data: MagnetometerData)
  /// The attitude with gravity and user acceleration, at most one per
  /// ``MotionManager/deviceMotionUpdateInterval``.
  func motionManager(_ manager: MotionManager, didUpdateDeviceMotion motion: DeviceMotion)
  /// The heading the attitude gives, while heading updates run.
  func motionManager(_ manager: MotionManager, didUpdateHeading heading: Heading)
  /// A reading whose unit the source does not know (gpsd's ATT acceleration, rotation
  /// and field), for a kind whose updates run.
  func motionManager(_ manager: MotionManager, didReceiveDeviceUnits reading: SensorReading)
  /// Tell ``MotionError/Code/denied`` (final) from ``MotionError/Code/unknown``
  /// (transient) from ``MotionError/Code/sensorUnavailable`` and the rest.
  func motionManager(_ manager: MotionManager, didFailWithError error: MotionError)
  /// A sequence of peaks that may become a shake began.
  func motionBegan(_ manager: MotionManager, shake: ShakeEvent)
  /// A shake ended.
  func motionEnded(_ manager: MotionManager, shake: ShakeEvent)
  /// A sequence that began did not become a shake, or the device was put down.
  func motionCancelled(_ manager: MotionManager, shake: ShakeEvent)
}

extension MotionManagerDelegate {
  public func motionManager(_ manager: MotionManager, didUpdateAccelerometer data: AccelerometerData) {}
  public func motionManager(_ manager: MotionManager, didUpdateGyro data: GyroData) {}
  public func motionManager(_ manager: MotionManager, didUpdateMagnetometer data: MagnetometerData) {}
  public func motionManager(_ manager: MotionManager, didUpdateDeviceMotion motion: DeviceMotion) {}
  public func motionManager(_ manager: MotionManager, didUpdateHeading heading: Heading) {}
  public func motionManager(_ manager: MotionManager, didReceiveDeviceUnits reading: SensorReading) {}
  public func motionManager(_ manager: MotionManager, didFailWithError error: MotionError) {}
  public func motionBegan(_ manager: MotionManager, shake: ShakeEvent) {}
  public func motionEnded(_ manager: MotionManager, shake: ShakeEvent) {}
  public func motionCancelled(_ manager: MotionManager, shake: ShakeEvent) {}
}

/// One thing a motion manager reports, for ``MotionManager/updates``.
public enum MotionEvent: Sendable, Equatable {
  /// An accelerometer reading, at most one per
  /// ``MotionManager/accelerometerUpdateInterval``, while accelerometer updates run.
  case accelerometer(AccelerometerData)
  /// A gyroscope reading, at most one per ``MotionManager/gyroUpdateInterval``, while
  /// gyroscope updates run.
  case gyro(GyroData)
  /// A magnetometer reading, at most one per ``MotionManager/magnetometerUpdateInterval``,
  /// while magnetometer updates run.
  case magnetometer(MagnetometerData)
  /// The attitude with gravity and user acceleration, at most one per
  /// ``MotionManager/deviceMotionUpdateInterval``, while device-motion updates run.
  indirect case deviceMotion(DeviceMotion)
  /// A heading from the attitude (or gpsd's ATT), past ``MotionManager/headingFilter``,
  /// while heading updates run.
  indirect case heading(Heading)
  /// A reading whose unit the source does not know (gpsd's ATT acceleration, rotation and
  /// field), while the updates of its kind run (an attitude's: device motion).
  case deviceUnits(SensorReading)
  /// A shake's transition (began, ended or cancelled), while shake updates run.
  case shake(ShakeEvent)
  /// An error, whichever updates run; after a final one (``MotionError/isFinal``) updates
  /// stop and the sequence ends.
  case failure(MotionError)
}

/// The kinds of update a motion manager runs.
public enum MotionUpdate: String, Sendable, Hashable, CaseIterable {
  /// Accelerometer readings (``MotionManager/startAccelerometerUpdates()``).
  case accelerometer
  /// Gyroscope readings (``MotionManager/startGyroUpdates()``).
  case gyro
  /// Magnetometer readings (``MotionManager/startMagnetometerUpdates()``).
  case magnetometer
  /// Device motion: attitude, gravity and user acceleration
  /// (``MotionManager/startDeviceMotionUpdates()``).
  case deviceMotion
  /// Headings from the attitude (``MotionManager/startHeadingUpdates()``).
  case heading
  /// Shake recognition on every accelerometer reading
  /// (``MotionManager/startShakeUpdates()``).
  case shake
}
