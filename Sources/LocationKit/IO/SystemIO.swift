#if canImport(Glibc)
  import Glibc
#endif

/// Thin wrappers over system calls that every layer needs the same way.
package enum SystemIO {
  /// Opens `path` with `flags` and close-on-exec, retrying an interruption.
  package static func open(_ path: String, _ flags: Int32) throws(SystemError) -> Int32 {
    try retryingInterrupts("open") { Glibc.open(path, flags | O_CLOEXEC) }
  }

  /// The whole of a small file (one of `/proc`'s, which report no size), up to `limit`
  /// bytes; `nil` when it cannot be opened or read.
  package static func contents(ofSmallFile path: String, limit: Int = 16 << 10) -> [UInt8]? {
    guard let descriptor = try? open(path, O_RDONLY) else { return nil }
    defer { close(descriptor) }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
      while count < limit {
        guard
          let got = try? read(
            descriptor, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
        else {
          failed = true
          return
        }
        if got == 0 { return }
        count += got
      }
    }
    return failed ? nil : bytes
  }

  /// Reads up to `buffer.count` bytes, retrying an interruption; 0 at the end of the input.
  package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try retryingInterrupts("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
  }

  /// Reads up to `buffer.count` bytes at `offset` without moving the file position (so
  /// threads can share a descriptor), retrying an interruption; 0 at the end of the file.
  package static func read(
    _ descriptor: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer
  ) throws(SystemError) -> Int {
    try retryingInterrupts("pread") { Glibc.pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
  }

  /// Reads `range` of the file at `descriptor` with ``read(_:at:into:)``, a `buffer` at a
  /// time, handing each piece to `body` until it returns `false`; stops at the end of the
  /// file (`range` may reach past it: `offset..<Int.max` reads to the end).
  package static func read(
    _ descriptor: Int32, _ range: Range<Int>, through buffer: UnsafeMutableRawBufferPointer,
    _ body: (UnsafeRawBufferPointer) -> Bool
  ) throws(SystemError) {
    var offset = range.lowerBound
    while offset < range.upperBound {
      let wanted = min(buffer.count, range.upperBound - offset)
      let count = try read(descriptor, at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
      if count == 0 { return }
      if !body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { return }
      offset += count
    }
  }

  /// The size of the regular file open at `descriptor`; `nil` for anything else (a pipe,
  /// a terminal, a device) or when it cannot be told.
  package static func regularFileSize(_ descriptor: Int32) -> Int? {
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  /// Writes every byte of `bytes` to `descriptor`: the package's one write loop, with one
  /// policy. A signal's interruption is retried. A descriptor left non-blocking (by another
  /// program sharing it) is waited for until it takes bytes again, or for at most `timeout`
  /// seconds at a time when given (a terminal stopped by flow control must not hang a
  /// display for good). Returns `nil` when everything was written, or the `errno` of the
  /// failure (`EPIPE`: the reader went away; `EAGAIN`: the wait timed out).
  package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, timeout: Double? = nil) -> Int32?
  {
    guard var next = bytes.baseAddress else { return nil }
    var left = bytes.count
    while left > 0 {
      let written = Glibc.write(descriptor, next, left)
      if written >= 0 {
        next += written
        left -= written
        continue
      }
      switch errno {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let milliseconds = timeout.map { Int32(max(0, min(Double(Int32.max), $0 * 1000))) } ?? -1
        let ready = poll(&writable, 1, milliseconds)
        if ready == 0 { return EAGAIN }
        if ready < 0 && errno != EINTR { return errno }
      case let failure:
        return failure
      }
    }
    return nil
  }
}
