import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A named pipe in the temporary directory, removed when released: a stand-in for
/// `cat /dev/ttyUSB0 |` or any other stream that is not a device.
final class FIFO: Sendable {
  let path: String

  init(name: String = #function) throws {
    path = NSTemporaryDirectory() + "whereami-\(getpid())-\(name.filter(\.isLetter)).fifo"
    unlink(path)
    guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }

  /// Opens the writing end; blocks until a reader has opened the other.
  func openForWriting() throws -> FileHandle {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  deinit { unlink(path) }
}
