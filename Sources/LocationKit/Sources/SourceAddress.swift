#if canImport(Glibc)
  import Glibc
#endif

/// A SOURCE as users write it, parsed: `-`, a path, `/dev/ttyUSB0`, `tcp://host:port`,
/// `udp://[host][:port]`, `gpsd://host:port[/device]`.
public enum SourceAddress: Sendable, Equatable, CustomStringConvertible {
  /// `-`: standard input.
  case standardInput
  /// A path that is not a terminal device: a log file, a FIFO.
  case file(path: String)
  /// A terminal device: a serial receiver (`/dev/ttyUSB0`, `/dev/ttyACM0`).
  case serial(path: String)
  /// `tcp://host:port`: an NMEA stream over TCP.
  case tcp(host: String, port: UInt16)
  /// NMEA datagrams to `port` (10110 by default, the marine convention): on every
  /// interface (broadcasts included) with no `host`, else sent to `host`, which may be a
  /// multicast group to join or the broadcast address.
  case udp(host: String?, port: UInt16)
  /// `gpsd://host:port[/device]`: gpsd, through libgps; every device it has, or one.
  case gpsd(host: String, port: UInt16, device: String?)

  /// gpsd's port.
  public static let gpsdDefaultPort: UInt16 = 2947

  /// What a SOURCE may be, for the messages that refuse one.
  private static let forms = "use a path, -, tcp://HOST:PORT, udp://[HOST]:PORT or gpsd://HOST:PORT"

  /// Parses a SOURCE; a path is a serial receiver when it is a terminal device (a USB or
  /// UART serial port, a pseudo-terminal), otherwise a file, whatever its name; a path
  /// under `/dev/` that does not exist yet is a receiver not plugged in yet.
  public init(_ text: String) throws(LocationError) {
    if text.isEmpty {
      // No file has an empty name: a shell variable that was never set.
      throw LocationError(.invalidSource, "'': not a source (\(Self.forms))")
    } else if text == "-" {
      self = .standardInput
    } else if text.hasPrefix("tcp://") {
      let (host, port, rest) = try Self.hostAndPort(text.dropFirst(6), defaultPort: nil, scheme: "tcp")
      guard rest.isEmpty else { throw LocationError(.invalidSource, "'\(text)': a tcp source has no path") }
      self = .tcp(host: host, port: port)
    } else if text.hasPrefix("udp://") {
      var body = text.dropFirst(6)
      // The interface a multicast group is joined on: udp://GROUP:PORT%IFACE, also
      // udp://GROUP%IFACE:PORT and udp://[GROUP%IFACE]:PORT (IPv6's zone). It rides in the
      // host, as IPv6 writes a zone.
      var interface: Substring?
      if let percent = body.lastIndex(of: "%") {
        let after = body[body.index(after: percent)...]
        let name = after.prefix { $0 != ":" && $0 != "]" }
        guard !name.isEmpty, name.count < 16, name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) })
        else {
          throw LocationError(.invalidSource, "'\(text)': '%' must be followed by an interface's name (%eth0)")
        }
        interface = name
        body = body[..<percent] + after.dropFirst(name.count)
      }
      let (host, port, rest) = try Self.hostAndPort(body, defaultPort: UDPSocket.defaultPort, scheme: "udp")
      guard rest.isEmpty else { throw LocationError(.invalidSource, "'\(text)': a udp source has no path") }
      // udp://:10110 and udp:// listen on every interface.
      let anyInterface = body.isEmpty || body.hasPrefix(":")
      if let interface {
        // An IPv6 link-local address needs its zone as it is (fe80::1%eth0).
        guard !anyInterface, UDPSocket.isMulticast(host) || host.contains(":") else {
          throw LocationError(
            .invalidSource,
            "'\(text)': an interface goes with a multicast group (udp://239.192.0.1:10110%\(interface)); "
              + "to listen on one interface, give its address")
        }
        self = .udp(host: host + "%" + interface, port: port)
      } else {
        self = .udp(host: anyInterface ? nil : host, port: port)
      }
    } else if text.hasPrefix("gpsd://") || text == "gpsd:" || text == "gpsd" {
      let body = text.hasPrefix("gpsd://") ? text.dropFirst(7) : ""
      let (host, port, rest) = try Self.hostAndPort(body, defaultPort: Self.gpsdDefaultPort, scheme: "gpsd")
      // gpsd://HOST:PORT/dev/ttyUSB0, and gpsd's own network devices:
      // gpsd://HOST:PORT/tcp://192.168.1.5:10110 names the device "tcp://192.168.1.5:10110".
      let device = rest.dropFirst().contains("://") ? rest.dropFirst() : rest
      self = .gpsd(host: host, port: port, device: device.isEmpty ? nil : String(device))
    } else if text.contains("://") {
      throw LocationError(
        .invalidSource,
        "'\(text)': unknown scheme (\(Self.forms))")
    } else {
      self = Self.isSerialDevice(text) ? .serial(path: text) : .file(path: text)
    }
  }

  /// Whether a path is a serial receiver, decided by what it is, never by its name: a
  /// terminal device (a USB or UART serial port, a pseudo-terminal). A regular file, a
  /// FIFO, `/dev/null` or `/dev/zero` is read as a file (`/dev/shm/x.nmea`,
  /// `/dev/stdin < log`, `<(zcat log.gz)`); so is a path that does not exist, except
  /// under `/dev/`, where a receiver not plugged in yet is waited for.
  static func isSerialDevice(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return path.hasPrefix("/dev/") }
    guard info.st_mode & S_IFMT == S_IFCHR else { return false }
    // The kernel says which subsystem a character device belongs to; pseudo-terminals
    // have no entry there, so ask the device itself, without becoming its controlling
    // terminal and without waiting for a modem.
    // glibc's gnu_dev_major and gnu_dev_minor.
    let major = (info.st_rdev >> 8) & 0xfff | (info.st_rdev >> 32) & 0xffff_f000
    let minor = info.st_rdev & 0xff | (info.st_rdev >> 12) & 0xffff_ff00
    var link = [CChar](repeating: 0, count: 256)
    let length = readlink("/sys/dev/char/\(major):\(minor)/subsystem", &link, link.count - 1)
    if length > 0 {
      return String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasSuffix("/tty")
    }
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    return isatty(descriptor) == 1
  }

  private static func hostAndPort(_ text: Substring, defaultPort: UInt16?, scheme: String) throws(LocationError) -> (
    String, UInt16, Substring
  ) {
    let slash = text.firstIndex(of: "/") ?? text.endIndex
    let authority = text[..<slash]
    let rest = text[slash...]
    var host = "localhost"
    var port = defaultPort
    if authority.hasPrefix("[") {
      // [IPv6]:port
      guard let close = authority.firstIndex(of: "]") else {
        throw LocationError(.invalidSource, "'\(scheme)://\(text)': unclosed '['")
      }
      host = String(authority[authority.index(after: authority.startIndex)..<close])
      let after = authority[authority.index(after: close)...]
      if after.hasPrefix(":") { port = UInt16(after.dropFirst()) ?? 0 }
    } else if let colon = authority.lastIndex(of: ":") {
      if colon > authority.startIndex { host = String(authority[..<colon]) }
      port = UInt16(authority[authority.index(after: colon)...]) ?? 0
    } else if !authority.isEmpty {
      host = String(authority)
    }
    guard let port, port > 0 else {
      throw LocationError(
        .invalidSource, "'\(scheme)://\(text)': needs a port number from 1 to 65535 (\(scheme)://HOST:PORT)")
    }
    return (host, port, rest)
  }

  /// Whether the SOURCE delivers bytes as they are produced and goes on until stopped: a
  /// serial receiver, TCP, gpsd, and a pipe, terminal or socket, named or on standard
  /// input. A regular file is a log; so is a path that cannot be examined (opening it will
  /// say what is wrong).
  public var isLive: Bool {
    var info = stat()
    switch self {
    case .file(let path):
      return stat(path, &info) == 0 && Self.isStream(info.st_mode)
    case .standardInput:
      return fstat(STDIN_FILENO, &info) == 0 && Self.isStream(info.st_mode)
    case .serial, .tcp, .udp, .gpsd:
      return true
    }
  }

  /// Whether a file of this mode delivers bytes as they are produced: a pipe, a terminal
  /// or other character device, a socket.
  static func isStream(_ mode: mode_t) -> Bool {
    let kind = mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
  }

  public var description: String {
    switch self {
    case .standardInput: "standard input"
    case .file(let path), .serial(let path): path
    case .tcp(let host, let port): "tcp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    case .udp(let host, let port): "udp://\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""):\(port)"
    case .gpsd(let host, let port, let device):
      "gpsd://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        + (device.map { $0.hasPrefix("/") ? $0 : "/" + $0 } ?? "")
    }
  }
}
