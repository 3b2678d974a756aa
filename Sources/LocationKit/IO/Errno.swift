#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call: which call, on what, and errno, kept as a value so that EACCES
/// can become ``LocationError/Code/denied`` and ENOENT ``LocationError/Code/sourceNotFound``.
public struct SystemError: Error, Sendable {
  /// The system call (`open`, `read`).
  public var call: String
  /// The `errno` the call failed with (`EACCES`, `ENOENT`, ...).
  public var errno: Int32

  /// A failure of `call` with `errno`.
  public init(call: String, errno: Int32) {
    self.call = call
    self.errno = errno
  }

  /// The system's words for `errno`.
  public var reason: String { String(cString: strerror(errno)) }

  /// Whether the failure is a permission problem.
  public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }
  /// Whether the thing named does not exist.
  public var isNotFound: Bool { errno == ENOENT || errno == ENOTDIR || errno == ENXIO || errno == ENODEV }
}

/// Retries a system call interrupted by a signal, and turns -1 into a ``SystemError``.
@discardableResult
func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
  while true {
    let result = body()
    if result >= 0 { return result }
    if errno != EINTR { throw SystemError(call: call, errno: errno) }
  }
}
