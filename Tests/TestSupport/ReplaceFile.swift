import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Replaces the file at `path` (under the temporary directory) with `bytes` at once, as
/// the kernel replaces a sysfs value or an atomic save does: a file written in the
/// temporary directory, renamed over it, so that a reader never sees it half written, nor
/// the staging file beside it.
///
/// Foundation's own atomic write leaves an empty `TemporaryDirectory.*` in `/tmp` for
/// every file it writes on Linux; a test run made hundreds.
public func replaceFile(_ path: String, with bytes: some Sequence<UInt8>) throws {
  let staging = NSTemporaryDirectory() + "whereami-replacing-\(getpid())-\(UUID().uuidString)"
  try Data(bytes).write(to: URL(fileURLWithPath: staging))
  guard rename(staging, path) == 0 else {
    let error = errno
    unlink(staging)
    throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
  }
}
