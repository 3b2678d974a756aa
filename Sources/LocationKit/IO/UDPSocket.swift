#if canImport(Glibc)
  import Glibc
#endif

/// Listening for NMEA over UDP, as boats' networks and phone apps send it: unicast to this
/// machine, broadcast to the network, or to a multicast group.
enum UDPSocket {
  /// The marine convention's port (NMEA 0183 over IP, IEC 61162-450 tools, OpenCPN).
  static let defaultPort: UInt16 = 10110

  /// A non-blocking socket receiving datagrams sent to `port`.
  ///
  /// With no `host`, it listens on every interface, IPv6 and IPv4 alike (a dual-stack
  /// socket; IPv4 alone where IPv6 is off), which includes broadcasts. A multicast `host`
  /// (224.0.0.0/4, ff00::/8) joins that group on the default interface, or on the one
  /// named after a `%` (`239.192.0.1%eth1`: a boat's network that is not the default
  /// route), and listens on the port; the IPv4 broadcast address listens on every IPv4 interface; any other address
  /// listens on the interface that has it. The port may be shared with other listeners
  /// (`SO_REUSEADDR`, `SO_REUSEPORT`), as multiplexers and chart plotters on the same
  /// machine often listen too.
  static func listen(host named: String?, port: UInt16) throws(SystemError) -> FileDescriptor {
    guard var host = named else {
      if let socket = try? bound(family: AF_INET6, address: in6addr_any, port: port, dualStack: true) {
        return socket
      }
      return try bound(family: AF_INET, address: in_addr(s_addr: INADDR_ANY), port: port)
    }
    // The interface to join a group on: 0 for the default.
    var interfaceIndex: UInt32 = 0
    // (A unicast IPv6 address keeps its zone for getaddrinfo: fe80::1%eth0.)
    if let percent = host.lastIndex(of: "%"), isMulticast(String(host[..<percent])) {
      let name = String(host[host.index(after: percent)...])
      host = String(host[..<percent])
      interfaceIndex = if_nametoindex(name)
      guard interfaceIndex != 0 else { throw SystemError(call: "if_nametoindex", errno: ENODEV) }
    }
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    hints.ai_family = AF_UNSPEC
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw SystemError(call: "getaddrinfo", errno: EADDRNOTAVAIL)
    }
    defer { freeaddrinfo(list) }
    switch Int32(first.pointee.ai_family) {
    case AF_INET:
      let address = first.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
      let value = UInt32(bigEndian: address.s_addr)
      if value >> 28 == 0xE {
        let socket = try bound(family: AF_INET, address: in_addr(s_addr: INADDR_ANY), port: port)
        var request = ip_mreqn(
          imr_multiaddr: address, imr_address: in_addr(s_addr: INADDR_ANY), imr_ifindex: Int32(interfaceIndex))
        try check(
          setsockopt(
            socket.rawValue, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreqn>.size)),
          "IP_ADD_MEMBERSHIP", socket)
        return socket
      }
      if value == 0xFFFF_FFFF {
        return try bound(family: AF_INET, address: in_addr(s_addr: INADDR_ANY), port: port)
      }
      return try bound(family: AF_INET, address: address, port: port)
    case AF_INET6:
      let address = first.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
      if address.__in6_u.__u6_addr8.0 == 0xFF {
        let socket = try bound(family: AF_INET6, address: in6addr_any, port: port, dualStack: false)
        var request = ipv6_mreq(ipv6mr_multiaddr: address, ipv6mr_interface: interfaceIndex)
        try check(
          setsockopt(
            socket.rawValue, Int32(IPPROTO_IPV6), IPV6_JOIN_GROUP, &request, socklen_t(MemoryLayout<ipv6_mreq>.size)),
          "IPV6_JOIN_GROUP", socket)
        return socket
      }
      return try bound(family: AF_INET6, address: address, port: port, dualStack: false)
    default:
      throw SystemError(call: "getaddrinfo", errno: EAFNOSUPPORT)
    }
  }

  /// Whether `host` is a numeric multicast group (224.0.0.0/4, ff00::/8).
  static func isMulticast(_ host: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 28 == 0xE }
    var v6 = in6_addr()
    return inet_pton(AF_INET6, host, &v6) == 1 && v6.__in6_u.__u6_addr8.0 == 0xFF
  }

  private static func bound(family: Int32, address: in_addr, port: UInt16) throws(SystemError) -> FileDescriptor {
    let socket = try opened(family)
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    socketAddress.sin_addr = address
    try bind(socket, to: socketAddress)
    return socket
  }

  /// Binds `socket` to a `sockaddr_in` or `sockaddr_in6`.
  private static func bind<Address>(_ socket: FileDescriptor, to address: Address) throws(SystemError) {
    var address = address
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(socket.rawValue, $0, socklen_t(MemoryLayout<Address>.size))
      }
    }
    try check(result, "bind", socket)
  }

  private static func bound(
    family: Int32, address: in6_addr, port: UInt16, dualStack: Bool
  ) throws(SystemError) -> FileDescriptor {
    let socket = try opened(family)
    var only: Int32 = dualStack ? 0 : 1
    try check(
      setsockopt(socket.rawValue, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size)),
      "IPV6_V6ONLY", socket)
    var socketAddress = sockaddr_in6()
    socketAddress.sin6_family = sa_family_t(AF_INET6)
    socketAddress.sin6_port = port.bigEndian
    socketAddress.sin6_addr = address
    try bind(socket, to: socketAddress)
    return socket
  }

  /// The receive buffer asked for, bytes (the kernel doubles it for its bookkeeping): a
  /// busy network's bursts, hundreds of datagrams within milliseconds, wait there while the
  /// reader decodes. The kernel's default, about 208 KB, held too few. Root may pass the
  /// system's limit (`SO_RCVBUFFORCE`); anyone else gets up to `net.core.rmem_max`.
  static let requestedReceiveBuffer: Int32 = 4 << 20

  /// The receive buffer the kernel gave `socket`, bytes.
  static func receiveBuffer(of socket: FileDescriptor) -> Int? {
    var size: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(socket.rawValue, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0 else { return nil }
    return Int(size)
  }

  /// A datagram socket of `family`, non-blocking and close-on-exec, its port shareable,
  /// with a large receive buffer and the kernel's count of datagrams it dropped
  /// (`SO_RXQ_OVFL`) on every datagram read.
  private static func opened(_ family: Int32) throws(SystemError) -> FileDescriptor {
    let raw = socket(
      family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard raw >= 0 else { throw SystemError(call: "socket", errno: errno) }
    let socket = FileDescriptor(raw)
    var yes: Int32 = 1
    try check(
      setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)), "SO_REUSEADDR", socket)
    try check(
      setsockopt(raw, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size)), "SO_REUSEPORT", socket)
    // Both best effort: a smaller buffer, or no drop count, still receives.
    var size = requestedReceiveBuffer
    if setsockopt(raw, SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size)) != 0 {
      setsockopt(raw, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    setsockopt(raw, SOL_SOCKET, SO_RXQ_OVFL, &yes, socklen_t(MemoryLayout<Int32>.size))
    return socket
  }

  /// Throws the call's errno (closing `socket`) when `result` says it failed.
  private static func check(_ result: Int32, _ call: String, _ socket: FileDescriptor) throws(SystemError) {
    guard result < 0 else { return }
    let error = SystemError(call: call, errno: errno)
    socket.close()
    throw error
  }
}
