#if canImport(Glibc)
  import Glibc
#endif

/// An open file descriptor that closes itself: one owner, closed exactly once.
package final class FileDescriptor: @unchecked Sendable {
  // @unchecked Sendable: `rawValue` is immutable; whether it is open is under a lock,
  // so that concurrent closes (stop from one thread, end of input on the reader) close
  // once.
  package let rawValue: Int32
  private let isOpen = Locked(true)

  package init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// Opens `path` with `flags` (O_CLOEXEC is added).
  package static func open(_ path: String, _ flags: Int32) throws(SystemError) -> FileDescriptor {
    FileDescriptor(try SystemIO.open(path, flags))
  }

  /// Reads up to `buffer.count` bytes; 0 at the end of the input.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try SystemIO.read(rawValue, into: buffer)
  }

  /// Receives one datagram into `buffer`, its sender's address into `sender`, and, when
  /// the socket asked for it (`SO_RXQ_OVFL`), the kernel's count of the datagrams it has
  /// dropped on the socket so far into `dropped`; retries an interruption.
  package func receive(
    into buffer: UnsafeMutableRawBufferPointer, from sender: inout sockaddr_storage, dropped: inout UInt32
  ) throws(SystemError) -> Int {
    // Room for one control message: a cmsghdr (16 bytes) and a 32-bit count, aligned to 8.
    var control: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var controlLength = 0
    let count = try retryingInterrupts("recvmsg") {
      var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
      return withUnsafeMutablePointer(to: &sender) { address in
        withUnsafeMutablePointer(to: &vector) { vector in
          withUnsafeMutableBytes(of: &control) { control in
            var message = msghdr()
            message.msg_name = UnsafeMutableRawPointer(address)
            message.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
            message.msg_iov = vector
            message.msg_iovlen = 1
            message.msg_control = control.baseAddress
            message.msg_controllen = control.count
            let count = recvmsg(rawValue, &message, 0)
            controlLength = message.msg_controllen
            return count
          }
        }
      }
    }
    withUnsafeBytes(of: &control) { control in
      let header = control.load(as: cmsghdr.self)
      if controlLength >= MemoryLayout<cmsghdr>.size + 4, header.cmsg_level == SOL_SOCKET,
        header.cmsg_type == SO_RXQ_OVFL
      {
        dropped = control.load(fromByteOffset: MemoryLayout<cmsghdr>.size, as: UInt32.self)
      }
    }
    return count
  }

  /// Writes all of `bytes`.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    if let failure = SystemIO.writeAll(bytes, to: rawValue) { throw SystemError(call: "write", errno: failure) }
  }

  /// Runs `body` with the descriptor unless it has been closed; the descriptor cannot be
  /// closed (and its number reused) meanwhile.
  package func withOpenDescriptor(_ body: (Int32) -> Void) {
    isOpen.withLock { if $0 { body(rawValue) } }
  }

  package func close() {
    isOpen.withLock { open in
      if open {
        open = false
        Glibc.close(rawValue)
      }
    }
  }

  deinit { close() }
}
