import LocationKit

/// One sensor of a Linux IIO device, as its sysfs files describe it
/// (`Documentation/ABI/testing/sysfs-bus-iio`): the files that hold its value, and how
/// to turn them into the platform's units along the device's axes.
///
/// A value is (raw + offset) × scale in the kernel's unit (m/s² for acceleration, rad/s
/// for rotation, gauss for the magnetic field), then converted to g, rad/s or µT and
/// turned by the mount matrix, so that the axes are the device's rather than the chip's.
/// A `_input` file holds a value already in the kernel's unit.
public struct IIOSensor: Sendable, Equatable {
  /// What it measures, which sets its files' prefix (`in_accel`, `in_anglvel`, `in_magn`,
  /// `in_rot_quaternion`) and the unit of its readings.
  public var kind: SensorKind
  /// The device's directory name (`iio:device0`).
  public var device: String
  /// Its directory.
  public var directory: String
  /// What the driver calls it (the `name` attribute: `accel_3d`, `mpu6050`), if anything.
  public var driverName: String?
  /// Its `label` attribute (`accel-display`, `accel-base` on a convertible), if any.
  public var label: String?
  /// The files holding the value: one per axis, or the one quaternion file.
  public var valueFiles: [String]
  /// Per value file, the factor from raw counts to the kernel's unit (the axis's or the
  /// channel's `_scale` attribute); 1 when there is none, and for an `_input` file.
  public var scales: [Double]
  /// Per value file, the raw counts added before scaling (the axis's or the channel's
  /// `_offset` attribute); 0 when there is none, and for an `_input` file.
  public var offsets: [Double]
  /// The chip's placement: device = M · chip. Identity when the kernel gives none.
  public var mountMatrix: RotationMatrix
  /// The writable (or not) sampling frequency, and the values it accepts.
  public var samplingFrequencyFile: String?
  /// The sampling frequencies, Hz, the device lists in `sampling_frequency_available`;
  /// empty when it lists none.
  public var availableFrequencies: [Double]

  /// The factor from the kernel's unit to the platform's.
  var unitFactor: Double {
    switch kind {
    case .accelerometer: 1 / standardGravity
    case .gyroscope: 1
    case .magnetometer: 100  // gauss → µT
    case .attitude: 1
    }
  }

  /// The file-name stem of the kind's channels.
  static func channelPrefix(_ kind: SensorKind) -> String {
    switch kind {
    case .accelerometer: "in_accel"
    case .gyroscope: "in_anglvel"
    case .magnetometer: "in_magn"
    case .attitude: "in_rot_quaternion"
    }
  }

  /// Why a reading could not be made.
  public enum ReadFailure: Error, Equatable {
    /// The file may not be read (EACCES, EPERM).
    case denied(path: String, reason: String)
    /// The file or its device is gone.
    case gone(path: String)
    /// The file holds something that is not a number.
    case notANumber(path: String, text: String)
    /// Another system error.
    case failed(path: String, reason: String)

    /// The file the failure concerns.
    public var path: String {
      switch self {
      case .denied(let path, _), .gone(let path), .notANumber(let path, _), .failed(let path, _): path
      }
    }
  }

  /// Reads the sensor now; `time` stamps the reading.
  public func read(time: Double) throws(ReadFailure) -> SensorReading {
    if kind == .attitude {
      let text = try Self.text(valueFiles[0])
      let parts = text.split { $0 == " " || $0 == "," || $0 == "\t" }
      let values = parts.compactMap { Double($0) }
      guard values.count == 4, parts.count == 4, values.allSatisfy(\.isFinite) else {
        throw .notANumber(path: valueFiles[0], text: text)
      }
      let scaled = values.map { ($0 + offsets[0]) * scales[0] }
      let chip = Quaternion(x: scaled[0], y: scaled[1], z: scaled[2], w: scaled[3])
      // The chip's attitude seen from the device: world = q·chip = q·Mᵀ·device.
      let device = (chip * Quaternion(mountMatrix.transposed)).normalized ?? chip
      return SensorReading(
        time: time, sensor: .attitude, vector: MotionVector(x: device.x, y: device.y, z: device.z), w: device.w,
        device: self.device)
    }
    var axes: [Double] = []
    for (index, file) in valueFiles.enumerated() {
      let text = try Self.text(file)
      guard let raw = Double(text), raw.isFinite else { throw .notANumber(path: file, text: text) }
      axes.append((raw + offsets[index]) * scales[index] * unitFactor)
    }
    let chip = MotionVector(x: axes[0], y: axes[1], z: axes[2])
    return SensorReading(time: time, sensor: kind, vector: mountMatrix * chip, device: device)
  }

  private static func text(_ path: String) throws(ReadFailure) -> String {
    do {
      return try SysfsAttribute.read(path)
    } catch {
      if error.isPermissionDenied { throw .denied(path: path, reason: error.reason) }
      if error.isNotFound { throw .gone(path: path) }
      throw .failed(path: path, reason: error.reason)
    }
  }
}

extension IIOSensor {
  /// The sensors of the device in `directory` (named `device`), read from its file names;
  /// problems (a mount matrix that is not one) are returned beside them.
  static func sensors(inDevice directory: String, named device: String, files: [String]) -> (
    sensors: [IIOSensor], problems: [String]
  ) {
    let names = Set(files)
    func value(_ name: String) -> String? {
      names.contains(name) ? try? SysfsAttribute.read(directory + "/" + name) : nil
    }
    func number(_ candidates: [String]) -> Double? {
      for name in candidates { if let text = value(name) { return Double(text) } }
      return nil
    }
    var sensors: [IIOSensor] = []
    var problems: [String] = []
    let driverName = value("name")
    let label = value("label")
    for kind in SensorKind.allCases {
      let prefix = channelPrefix(kind)
      var valueFiles: [String] = []
      var scales: [Double] = []
      var offsets: [Double] = []
      if kind == .attitude {
        guard names.contains("\(prefix)_raw") else { continue }
        valueFiles = [directory + "/\(prefix)_raw"]
        scales = [number(["\(prefix)_scale", "in_rot_scale"]) ?? 1]
        offsets = [number(["\(prefix)_offset", "in_rot_offset"]) ?? 0]
      } else {
        for axis in ["x", "y", "z"] {
          if names.contains("\(prefix)_\(axis)_raw") {
            valueFiles.append(directory + "/\(prefix)_\(axis)_raw")
            scales.append(number(["\(prefix)_\(axis)_scale", "\(prefix)_scale"]) ?? 1)
            offsets.append(number(["\(prefix)_\(axis)_offset", "\(prefix)_offset"]) ?? 0)
          } else if names.contains("\(prefix)_\(axis)_input") {
            valueFiles.append(directory + "/\(prefix)_\(axis)_input")
            scales.append(1)
            offsets.append(0)
          }
        }
        guard valueFiles.count == 3 else { continue }
      }
      let matrixText = [
        "\(prefix)_mount_matrix", kind == .attitude ? "in_rot_mount_matrix" : "", "mount_matrix",
        "in_mount_matrix",
      ].lazy.compactMap { $0.isEmpty ? nil : value($0) }.first
      var matrix = RotationMatrix.identity
      if let matrixText {
        // A vector sensor's may also mirror an axis (systemd's hwdb corrects a chip's
        // left-handed or upside-down axes so), never scale or shear one: a quaternion
        // sensor's must rotate.
        guard let parsed = parseMountMatrix(matrixText),
          kind == .attitude ? parsed.isRotation(tolerance: 0.01) : parsed.isOrthonormal(tolerance: 0.01)
        else {
          let what = kind == .attitude ? "a rotation" : "a rotation or a mirror"
          problems.append(
            "\(device): the mount matrix '\(matrixText)' is not \(what) (3 rows of 3 numbers); its \(kind.rawValue) is not used"
          )
          continue
        }
        matrix = parsed
      }
      let frequencyFile = ["\(prefix)_sampling_frequency", "sampling_frequency"].first { names.contains($0) }
      let available =
        (value("\(prefix)_sampling_frequency_available") ?? value("sampling_frequency_available"))?
        .split(separator: " ").compactMap { Double($0) } ?? []
      sensors.append(
        IIOSensor(
          kind: kind, device: device, directory: directory, driverName: driverName, label: label,
          valueFiles: valueFiles, scales: scales, offsets: offsets, mountMatrix: matrix,
          samplingFrequencyFile: frequencyFile.map { directory + "/" + $0 }, availableFrequencies: available))
    }
    return (sensors, problems)
  }

  /// The kernel's `x1, y1, z1; x2, y2, z2; x3, y3, z3` (rows), when it is a rotation.
  /// Drivers also use it for mirrored axes (a determinant of −1) on boards that wire
  /// the chip so, and those are accepted too: the test is only that rows are unit and
  /// orthogonal.
  public static func parseMountMatrix(_ text: String) -> RotationMatrix? {
    let rows = text.split(separator: ";")
    guard rows.count == 3 else { return nil }
    var values: [Double] = []
    for row in rows {
      let numbers = row.split(separator: ",").map { $0.trimmedBlanks }
      guard numbers.count == 3 else { return nil }
      for number in numbers {
        guard let value = Double(number), value.isFinite else { return nil }
        values.append(value)
      }
    }
    let matrix = RotationMatrix(
      m11: values[0], m12: values[1], m13: values[2], m21: values[3], m22: values[4], m23: values[5],
      m31: values[6], m32: values[7], m33: values[8])
    let flipped = RotationMatrix(
      m11: values[0], m12: values[1], m13: values[2], m21: values[3], m22: values[4], m23: values[5],
      m31: -values[6], m32: -values[7], m33: -values[8])
    guard matrix.isRotation(tolerance: 0.01) || flipped.isRotation(tolerance: 0.01) else { return nil }
    return matrix
  }
}
