import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP listener on 127.0.0.1 and a free port that accepts one client at a time.
public final class LoopbackListener: @unchecked Sendable {
  // @unchecked Sendable: `socket` and `port` are immutable; `client` is guarded by `lock`.
  public let socket: Int32
  public let port: UInt16
  private let lock = NSLock()
  private var client: Int32 = -1
  private var listening = true

  public init() throws {
    // Close-on-exec, as the accepted sockets: a program a test starts must not hold the
    // receiver's connection open after the test closes it (gpsd would never see it go).
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    self.socket = socket
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
  }

  /// Waits for the next client (up to `timeout` seconds); returns whether one came.
  public func accept(timeout: Double = 10) -> Bool {
    var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
    let accepted = Glibc.accept(socket, nil, nil)
    guard accepted >= 0 else { return false }
    _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
    lock.withLock { client = accepted }
    return true
  }

  public func send(_ text: String) {
    let descriptor = lock.withLock { client }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Drops the current client (the source sees the connection close).
  public func dropClient() {
    lock.withLock {
      if client >= 0 { close(client) }
      client = -1
    }
  }

  /// Whether the current client has closed its end.
  public func clientClosed(timeout: Double = 5) -> Bool {
    let descriptor = lock.withLock { client }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return false }
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) == 0
  }

  /// Closes the listening socket (once: a second close(2) of the number could close a
  /// descriptor that another test running in parallel has opened since, under the same
  /// number). Connections to the port are refused from now on.
  public func stopListening() {
    lock.withLock {
      if listening { close(socket) }
      listening = false
    }
  }

  deinit {
    dropClient()
    stopListening()
  }
}
