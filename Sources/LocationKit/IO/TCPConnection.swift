#if canImport(Glibc)
  import Glibc
#endif

/// Outgoing TCP connections with a time limit, resolving names with getaddrinfo.
enum TCPConnection {
  enum Failure: Error {
    /// The name does not resolve.
    case unknownHost(String)
    /// Every address refused, timed out or failed; the last errno.
    case unreachable(SystemError)
  }

  /// Connects to `host:port`, trying each address for up to `timeout` seconds; the socket
  /// is returned non-blocking. `stop` cuts the wait short.
  static func connect(host: String, port: UInt16, timeout: Double, stop: StopSignal) throws(Failure) -> FileDescriptor {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw .unknownHost(host)
    }
    defer { freeaddrinfo(list) }
    var lastError = SystemError(call: "connect", errno: ECONNREFUSED)
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let socket = Glibc.socket(
        address.pointee.ai_family,
        Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      guard socket >= 0 else {
        lastError = SystemError(call: "socket", errno: errno)
        continue
      }
      let descriptor = FileDescriptor(socket)
      if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
      guard errno == EINPROGRESS else {
        lastError = SystemError(call: "connect", errno: errno)
        continue
      }
      var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
      var stopper = pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)
      let deadline = SystemClock.monotonic() + timeout
      var ready = false
      while SystemClock.monotonic() < deadline {
        var pair = [poller, stopper]
        let result = poll(&pair, 2, Int32(max(1, (deadline - SystemClock.monotonic()) * 1000)))
        poller = pair[0]
        stopper = pair[1]
        if stopper.revents != 0 { throw .unreachable(SystemError(call: "connect", errno: ECANCELED)) }
        if result > 0 {
          ready = true
          break
        }
        if result < 0 && errno != EINTR { break }
      }
      guard ready else {
        lastError = SystemError(call: "connect", errno: ETIMEDOUT)
        continue
      }
      var failure: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
      if failure == 0 { return descriptor }
      lastError = SystemError(call: "connect", errno: failure)
    }
    throw .unreachable(lastError)
  }
}
