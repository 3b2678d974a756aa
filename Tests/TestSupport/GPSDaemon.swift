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
      guard listener.accept(timeout: 30) else {
        process.terminate()
        throw DaemonError("gpsd did not connect to a feed: \(process.standardError)")
      }
    }
    let deadline = Date().addingTimeInterval(30)
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
    let deadline = Date().addingTimeInterval(30)
    while !Self.isListening(port) {
      guard Date() < deadline else { throw DaemonError("gpsd does not listen on \(port): \(process.standardError)") }
      usleep(20_000)
    }
  }

  /// Waits until `count` clients (programs a test started) are connected to gpsd, as a
  /// test must before it feeds what they are to receive: gpsd sends a client only what it
  /// decodes after the client's WATCH.
  @discardableResult
  public func waitForClients(_ count: Int, timeout: Double = 30) -> Bool {
    waitUntil(timeout: timeout) { establishedConnections(toPort: port) >= count }
  }

  /// Waits until gpsd has read everything fed to it on `feeds` (its first feed when
  /// empty) and its clients have read everything it sent them.
  @discardableResult
  public func waitUntilDelivered(alsoFeeding others: [LoopbackListener] = [], timeout: Double = 30) -> Bool {
    let feeds = [feed.port] + others.map(\.port)
    return waitUntil(timeout: timeout) {
      TCPSocketRow.all().allSatisfy { row in
        guard row.state == 1 else { return true }
        // The test's end of a feed: what it sends, gpsd has read. What gpsd writes to its
        // devices (probes for a receiver's type) nobody reads.
        if feeds.contains(row.localPort) { return row.sendQueue == 0 }
        guard feeds.contains(row.remotePort) || row.localPort == port || row.remotePort == port else { return true }
        return row.sendQueue == 0 && row.receiveQueue == 0
      }
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
  // Any state but TIME_WAIT (6): established, or closing (close-wait) but still held.
  let inodes = Set(TCPSocketRow.all().filter { $0.remotePort == port && $0.state != 6 }.map(\.inode))
  let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return descriptors.filter { descriptor in
    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
      target.hasPrefix("socket:[")
    else { return false }
    return inodes.contains(String(target.dropFirst(8).dropLast()))
  }.count
}

/// The rows of the kernel's table of IPv4 TCP sockets: each one's local and remote port,
/// state (1 established), the bytes waiting in its send and receive queues, and its inode
/// (what a process's descriptor links to: `socket:[INODE]`).
public struct TCPSocketRow: Sendable {
  public let localPort: UInt16
  public let remotePort: UInt16
  public let state: UInt8
  public let sendQueue: Int
  public let receiveQueue: Int
  public let inode: String

  /// Every IPv4 TCP socket on this machine (any process's).
  public static func all() -> [TCPSocketRow] {
    procFile("/proc/net/tcp").split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: " ")
      guard columns.count > 9 else { return nil }
      let port = { (address: Substring) in address.split(separator: ":").last.flatMap { UInt16($0, radix: 16) } }
      let queues = columns[4].split(separator: ":")
      guard let local = port(columns[1]), let remote = port(columns[2]), let state = UInt8(columns[3], radix: 16),
        queues.count == 2, let send = Int(queues[0], radix: 16), let receive = Int(queues[1], radix: 16)
      else { return nil }
      return TCPSocketRow(
        localPort: local, remotePort: remote, state: state, sendQueue: send, receiveQueue: receive,
        inode: String(columns[9]))
    }
  }
}

/// How many established connections to `port` on this machine there are, from any process
/// (a program a test started that has connected to the test's gpsd, say).
public func establishedConnections(toPort port: UInt16) -> Int {
  TCPSocketRow.all().filter { $0.remotePort == port && $0.state == 1 }.count
}
