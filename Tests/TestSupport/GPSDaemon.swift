import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real gpsd on loopback, on a free port, reading NMEA from a TCP feed the test serves
/// (`gpsd -N -n -S PORT tcp://127.0.0.1:FEED`). Tests need Debian's `gpsd` package; they
/// fail, never skip, without it.
public final class GPSDaemon: @unchecked Sendable {
  // @unchecked Sendable: `process` is only replaced by the test thread that owns the
  // daemon (start/kill are never called concurrently).
  public static let executable = "/usr/sbin/gpsd"
  public let feed: LoopbackListener
  public let port: UInt16
  public private(set) var process: ChildProcess?
  /// The control socket of a daemon started without a device, removed when it stops
  /// (gpsd leaves it behind when killed).
  private var controlSocket: String?

  public init() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
      throw DaemonError(
        "gpsd is not installed at \(Self.executable) (Debian package 'gpsd'; scripts/install-dependencies installs it)")
    }
    feed = try LoopbackListener()
    port = freeLoopbackPort()
  }

  public struct DaemonError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// Starts gpsd and waits until it listens and has connected to the feed.
  public func start() throws {
    try start(alsoFeeding: [])
  }

  /// Starts gpsd with the feed and `others` as its devices (each a receiver of its own),
  /// and waits until it has connected to all of them and listens.
  public func start(alsoFeeding others: [LoopbackListener]) throws {
    let devices = ([feed] + others).map { "tcp://127.0.0.1:\($0.port)" }
    let process = try ChildProcess(Self.executable, ["-N", "-n", "-S", String(port)] + devices)
    self.process = process
    for listener in [feed] + others {
      guard listener.accept(timeout: 10) else {
        process.terminate()
        throw DaemonError("gpsd did not connect to a feed: \(process.standardError)")
      }
    }
    let deadline = Date().addingTimeInterval(10)
    while !Self.isListening(port) {
      guard Date() < deadline else { throw DaemonError("gpsd does not listen on \(port)") }
      usleep(20_000)
    }
  }

  /// Starts gpsd with no device at all (a control socket instead, which gpsd requires).
  public func startWithoutDevice() throws {
    let socketPath = NSTemporaryDirectory() + "whereami-gpsd-\(getpid())-\(port).sock"
    let process = try ChildProcess(Self.executable, ["-N", "-n", "-S", String(port), "-F", socketPath])
    self.process = process
    controlSocket = socketPath
    let deadline = Date().addingTimeInterval(10)
    while !Self.isListening(port) {
      guard Date() < deadline else { throw DaemonError("gpsd does not listen on \(port): \(process.standardError)") }
      usleep(20_000)
    }
  }

  /// Kills gpsd (SIGKILL: no goodbye to its clients).
  public func kill() {
    process?.signalGroup(SIGKILL)
    process?.wait(timeout: 5)
    process = nil
    feed.dropClient()
    removeControlSocket()
  }

  /// Stops gpsd politely.
  public func stop() {
    process?.terminate()
    process = nil
    feed.dropClient()
    removeControlSocket()
  }

  private func removeControlSocket() {
    if let controlSocket { unlink(controlSocket) }
    controlSocket = nil
  }

  deinit { stop() }

  public static func isListening(_ port: UInt16) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    } == 0
  }
}

/// How many of this process's sockets are connected to `port` on loopback.
public func socketsConnected(toPort port: UInt16) -> Int {
  // /proc files report a size of 0: read to the end in a loop rather than trust a size.
  var bytes: [UInt8] = []
  let descriptor = open("/proc/self/net/tcp", O_RDONLY)
  if descriptor >= 0 {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    close(descriptor)
  }
  let table = String(decoding: bytes, as: UTF8.self)
  let remote = String(format: ":%04X", port)
  var inodes = Set<String>()
  for line in table.split(separator: "\n").dropFirst() {
    let columns = line.split(separator: " ")
    // local, remote, state (01 established, 08 close-wait), ..., inode in column 9
    guard columns.count > 9, columns[2].hasSuffix(remote), columns[3] != "06" else { continue }
    inodes.insert(String(columns[9]))
  }
  let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return descriptors.filter { descriptor in
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
      target.hasPrefix("socket:[")
    else { return false }
    return inodes.contains(String(target.dropFirst(8).dropLast()))
  }.count
}
