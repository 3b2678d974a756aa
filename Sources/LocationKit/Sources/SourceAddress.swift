#if canImport(Glibc)
  import Glibc
#endif

/// A SOURCE as users write it, parsed: `-`, a path, `/dev/ttyUSB0`, `tcp://host:port`,
/// `gpsd://host:port[/device]`.
public enum SourceAddress: Sendable, Equatable, CustomStringConvertible {
  case standardInput
  case file(path: String)
  case serial(path: String)
  case tcp(host: String, port: UInt16)
  case gpsd(host: String, port: UInt16, device: String?)

  /// gpsd's port.
  public static let gpsdDefaultPort: UInt16 = 2947

  /// Parses a SOURCE. Paths under `/dev/` (character devices) are serial receivers.
  public init(_ text: String) throws(LocationError) {
    if text == "-" {
      self = .standardInput
    } else if text.hasPrefix("tcp://") {
      let (host, port, rest) = try Self.hostAndPort(text.dropFirst(6), defaultPort: nil, scheme: "tcp")
      guard rest.isEmpty else { throw LocationError(.invalidSource, "'\(text)': a tcp source has no path") }
      self = .tcp(host: host, port: port)
    } else if text.hasPrefix("gpsd://") || text == "gpsd:" || text == "gpsd" {
      let body = text.hasPrefix("gpsd://") ? text.dropFirst(7) : ""
      let (host, port, rest) = try Self.hostAndPort(body, defaultPort: Self.gpsdDefaultPort, scheme: "gpsd")
      self = .gpsd(host: host, port: port, device: rest.isEmpty ? nil : String(rest))
    } else if text.contains("://") {
      throw LocationError(
        .invalidSource, "'\(text)': unknown scheme (use a path, -, tcp://HOST:PORT or gpsd://HOST:PORT)")
    } else if text.hasPrefix("/dev/") {
      self = .serial(path: text)
    } else {
      self = .file(path: text)
    }
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
    case .serial, .tcp, .gpsd:
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
    case .gpsd(let host, let port, let device):
      "gpsd://\(host.contains(":") ? "[\(host)]" : host):\(port)\(device ?? "")"
    }
  }
}
