import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Sends UDP datagrams to an address (IPv4 or IPv6, unicast or multicast), as a boat's
/// NMEA network or a phone app would.
public final class DatagramSender {
  private let socket: Int32
  private var address = sockaddr_storage()
  private let length: socklen_t

  /// A sender to `host` (numeric) and `port`; `broadcast` allows a broadcast address; a
  /// `source` address (numeric, of this machine: any of 127.0.0.0/8 on loopback) sends from
  /// there, as another machine on the network would; `multicastInterface` (the IPv4
  /// address of one of this machine's interfaces) sends a multicast group's datagrams
  /// out of that interface only.
  public init(
    host: String, port: UInt16, broadcast: Bool = false, source: String? = nil, multicastInterface: String? = nil
  ) throws {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw POSIXError(.EADDRNOTAVAIL)
    }
    defer { freeaddrinfo(list) }
    length = first.pointee.ai_addrlen
    withUnsafeMutableBytes(of: &address) { storage in
      storage.copyMemory(
        from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
    }
    socket = Glibc.socket(first.pointee.ai_family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    if let source {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else { throw POSIXError(.EADDRNOTAVAIL) }
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
    if let multicastInterface {
      var interface = in_addr()
      guard inet_pton(AF_INET, multicastInterface, &interface) == 1,
        setsockopt(socket, Int32(IPPROTO_IP), IP_MULTICAST_IF, &interface, socklen_t(MemoryLayout<in_addr>.size)) == 0
      else { throw POSIXError(.EADDRNOTAVAIL) }
    }
    if broadcast {
      var yes: Int32 = 1
      setsockopt(socket, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  deinit { close(socket) }

  /// Sends one datagram; throws when the kernel refuses it.
  public func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    let sent = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(socket, bytes, bytes.count, 0, $0, length) }
    }
    guard sent == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }
}

/// Whether some process on this machine has a UDP socket bound to `port` (any address,
/// IPv4 or IPv6), from the kernel's tables: a test waits for this before it sends, where
/// a fixed sleep guessed how long a program takes to start (longer on a loaded machine,
/// and datagrams sent before the bind are lost).
public func udpPortIsBound(_ port: UInt16) -> Bool {
  let local = String(format: ":%04X ", port)
  for table in ["/proc/net/udp", "/proc/net/udp6"] {
    let text = procFile(table)
    // Each row: sl, local_address (HEX:PORT), rem_address, ...
    for row in text.split(separator: "\n").dropFirst() {
      let columns = row.split(separator: " ", omittingEmptySubsequences: true)
      if columns.count > 1, (columns[1] + " ").hasSuffix(local) { return true }
    }
  }
  return false
}

/// The bytes waiting in the receive queues of the UDP sockets bound to `port`, from the
/// kernel's tables (`tx_queue:rx_queue`, hex): 0 once the program has read everything.
public func udpReceiveQueue(_ port: UInt16) -> Int {
  let local = String(format: ":%04X ", port)
  var waiting = 0
  for table in ["/proc/net/udp", "/proc/net/udp6"] {
    for row in procFile(table).split(separator: "\n").dropFirst() {
      let columns = row.split(separator: " ", omittingEmptySubsequences: true)
      guard columns.count > 4, (columns[1] + " ").hasSuffix(local),
        let queue = columns[4].split(separator: ":").last
      else { continue }
      waiting += Int(queue, radix: 16) ?? 0
    }
  }
  return waiting
}
