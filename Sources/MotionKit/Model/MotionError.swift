/// Why a motion manager could not deliver readings.
///
/// As on the location side, ``Code/denied`` is final, ``Code/unknown`` is transient
/// (readings resume by themselves), and the rest name what went wrong with the source.
public struct MotionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure it is, which sets whether it is final by default (see each
  /// case).
  public enum Code: String, Sendable, Equatable, CaseIterable {
    /// A sensor file, device or daemon refused us (EACCES, EPERM). Final.
    case denied
    /// No sensor of a requested kind exists at the source (no accelerometer under
    /// `/sys/bus/iio/devices`, a log without gyroscope lines). Final for that kind; the
    /// other kinds go on.
    case sensorUnavailable
    /// No reading right now: a sensor stopped answering, went away, or returned a value
    /// that is not a number. Transient: readings resume by themselves.
    case unknown
    /// The source does not exist (no such directory, file or host).
    case sourceNotFound
    /// A network source refused or did not answer; retried.
    case cannotConnect
    /// A recorded log reached its end. Final.
    case sourceEnded
    /// Reading the source failed (a log's malformed line is reported and skipped).
    case readError
    /// The SOURCE text or an option is not valid.
    case invalidSource
  }

  /// What kind of failure it is.
  public var code: Code
  /// A sentence for the user: which source, which file or line, and why.
  public var message: String
  /// Whether the source has stopped because of this error.
  public var isFinal: Bool
  /// The sensor it concerns, when it concerns one.
  public var sensor: SensorKind?

  /// An error of `code` with the user's `message`. `final` overrides the code's default:
  /// final for ``Code/denied``, ``Code/sourceEnded``, ``Code/sourceNotFound`` and
  /// ``Code/invalidSource``, transient for the others. `sensor` names the sensor it
  /// concerns, if one.
  public init(_ code: Code, _ message: String, final: Bool? = nil, sensor: SensorKind? = nil) {
    self.code = code
    self.message = message
    self.sensor = sensor
    switch code {
    case .denied, .sourceEnded, .sourceNotFound, .invalidSource: isFinal = final ?? true
    case .unknown, .cannotConnect, .sensorUnavailable, .readError: isFinal = final ?? false
    }
  }

  /// The kind as shown to users.
  public var kind: String {
    switch code {
    case .denied: "denied"
    case .sensorUnavailable: "sensor unavailable"
    case .unknown: "motion unknown"
    case .sourceNotFound: "source not found"
    case .cannotConnect: "cannot connect"
    case .sourceEnded: "source ended"
    case .readError: "read error"
    case .invalidSource: "invalid source"
    }
  }

  public var description: String { message.hasPrefix(kind) ? message : "\(kind): \(message)" }
}
