import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// An anonymous temporary file for text a format needs later in the document than it
/// arrives (KML's track line, which must follow its timestamped fixes), so that it waits on
/// disk rather than in memory.
///
/// The file is unlinked as soon as it is made: nothing is left behind however the program
/// ends.
public final class SpillFile {
  private let descriptor: Int32
  private let directory: String
  private var buffer = ByteBuffer(capacity: SpillFile.flushThreshold + 4096)
  private static let flushThreshold = 1 << 16

  /// Makes the file in `$TMPDIR` (or `/tmp`).
  public init() throws(ExportError) {
    let environment = getenv("TMPDIR").map { String(cString: $0) } ?? ""
    directory = environment.isEmpty ? "/tmp" : environment
    var template = Array("\(directory)/whereami-export-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard made >= 0 else {
      throw ExportError(
        message: "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
    }
    descriptor = made
    _ = fcntl(made, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
  }

  deinit { close(descriptor) }

  /// Appends what `render` writes.
  public func write(_ render: (inout ByteBuffer) -> Void) throws(ExportError) {
    render(&buffer)
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  /// Appends what `render` writes, where `render` may also flush what it has written so far
  /// into the file (as it would flush an output: a further device's export, ``ExportWriter``).
  public func write(flushing render: (inout ByteBuffer, ExportFlush) throws(ExportError) -> Void) throws(ExportError) {
    let descriptor = descriptor
    let directory = directory
    try render(&buffer) { (bytes: inout ByteBuffer) throws(ExportError) in
      try Self.write(bytes, to: descriptor, directory: directory)
      bytes.removeAll()
    }
    if buffer.count >= Self.flushThreshold { try flush() }
  }

  private func flush() throws(ExportError) {
    try Self.write(buffer, to: descriptor, directory: directory)
    buffer.removeAll()
  }

  private static func write(_ buffer: borrowing ByteBuffer, to descriptor: Int32, directory: String)
    throws(ExportError)
  {
    if let failed = SystemIO.writeAll(UnsafeRawBufferPointer(buffer.bytes), to: descriptor) {
      throw failure("write", directory, errno: failed)
    }
  }

  /// Appends everything written so far to `output`, a chunk at a time, flushing `output`
  /// between chunks.
  public func copy(into output: inout ByteBuffer, flush flushOutput: ExportFlush) throws(ExportError) {
    try flush()
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure("rewind") }
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Self.flushThreshold)
    defer { chunk.deallocate() }
    while true {
      let count = read(descriptor, chunk.baseAddress, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("read")
      }
      if count == 0 { return }
      output.append(UnsafeBufferPointer(rebasing: chunk[0..<count]))
      try flushOutput(&output)
    }
  }

  private func failure(_ operation: String) -> ExportError { Self.failure(operation, directory, errno: errno) }

  private static func failure(_ operation: String, _ directory: String, errno code: Int32) -> ExportError {
    ExportError(
      message: "cannot \(operation) a temporary file in \(directory): \(String(cString: strerror(code)))")
  }
}
