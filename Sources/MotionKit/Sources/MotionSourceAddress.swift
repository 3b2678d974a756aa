import LocationKit

/// Where motion comes from, as the user writes it: `iio` (the kernel's sensors under
/// `/sys/bus/iio/devices`), `iio:PATH` (a directory laid out the same way, or one
/// device's), `gpsd://[HOST][:PORT][/DEVICE]` (gpsd's ATT reports), `FILE.csv` or `-`
/// (a recorded sensor log, ``MotionLog``).
public enum MotionSourceAddress: Sendable, Equatable, CustomStringConvertible {
  /// The kernel's IIO sensors under `root`: ``IIOSource/systemRoot`` for `iio`, else the
  /// directory (or one device's directory) `iio:PATH` names.
  case iio(root: String)
  /// gpsd's ATT reports from the daemon at `host`:`port`, from one `device` or, when it is
  /// `nil`, from every device gpsd has.
  case gpsd(host: String, port: UInt16, device: String?)
  /// A recorded sensor log (``MotionLog``) at `path`, or `-` for standard input.
  case log(path: String)

  /// Parses `text`; an unknown form is ``MotionError/Code/invalidSource``.
  public init(_ text: String) throws(MotionError) {
    if text == "iio" {
      self = .iio(root: IIOSource.systemRoot)
    } else if text.hasPrefix("iio:") {
      let root = String(text.dropFirst(4))
      guard !root.isEmpty else {
        throw MotionError(.invalidSource, "'iio:' needs a directory (iio:/sys/bus/iio/devices)")
      }
      self = .iio(root: root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root)
    } else if text.hasPrefix("gpsd:") {
      let address: SourceAddress
      do throws(LocationError) {
        address = try SourceAddress(text)
      } catch {
        throw MotionError(.invalidSource, error.message)
      }
      guard case .gpsd(let host, let port, let device) = address else {
        throw MotionError(.invalidSource, "'\(text)' is not a gpsd address")
      }
      self = .gpsd(host: host, port: port, device: device)
    } else if text.contains("://") {
      throw MotionError(
        .invalidSource,
        "'\(text)' is not a motion source: use iio, iio:DIRECTORY, gpsd://HOST:PORT, a recorded .csv log or -")
    } else {
      self = .log(path: text)
    }
  }

  /// The source; a log is replayed at `speed` (nil: as fast as it reads).
  public func makeSource(speed: Double?) -> any MotionSource {
    switch self {
    case .iio(let root): IIOSource(root: root)
    case .gpsd(let host, let port, let device):
      GPSDMotionSource(gpsd: GPSDSource(host: host, port: port, device: device))
    case .log(let path): RecordedMotionSource(path: path, speed: speed)
    }
  }

  /// Whether readings come as they happen (rather than from a log).
  public var isLive: Bool {
    if case .log = self { return false }
    return true
  }

  public var description: String {
    switch self {
    case .iio(let root): root == IIOSource.systemRoot ? "iio" : "iio:\(root)"
    case .gpsd(let host, let port, let device): SourceAddress.gpsd(host: host, port: port, device: device).description
    case .log(let path): path == "-" ? "standard input" : path
    }
  }
}
