#if canImport(Glibc)
  import Glibc
#endif

/// A detached POSIX thread running a closure, named for `top -H`, gdb and `/proc`.
///
/// What Foundation's `Thread` gave here, without linking Foundation: on Linux that brought
/// in ICU, and the dynamic linker spent 12 million instructions on every start of
/// `whereami` resolving symbols the program never used.
package enum SystemThread {
  /// Starts `body` on a new thread named `name` (the kernel keeps at most 15 bytes), and
  /// returns it. Stops the program when no thread can be made: there is no way on
  /// without one.
  @discardableResult
  package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    let thread = startJoinable(name: name, body)
    pthread_detach(thread)
    return thread
  }

  /// Starts `body` on a new thread named `name` that must be given to ``join(_:)`` (or
  /// ``detach(_:)``) once: joining is the only way to know that a thread has not just
  /// finished its work but is gone, with everything its closure held released.
  package static func startJoinable(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    let kernelName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
    let context = Unmanaged.passRetained(Start(name: kernelName, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, runThread, context)
    guard result == 0 else {
      Unmanaged<Start>.fromOpaque(context).release()
      fatalError("cannot start thread \(name): \(SystemError(call: "pthread_create", errno: result).reason)")
    }
    return thread
  }

  /// Waits until `thread`, started by ``startJoinable(name:_:)``, has ended. Not from the
  /// thread itself.
  package static func join(_ thread: pthread_t) {
    pthread_join(thread, nil)
  }

  /// Lets `thread`, started by ``startJoinable(name:_:)``, end without being joined.
  package static func detach(_ thread: pthread_t) {
    pthread_detach(thread)
  }

  /// Whether `thread` is the calling thread.
  package static func isCurrent(_ thread: pthread_t) -> Bool { pthread_equal(thread, pthread_self()) != 0 }

  /// What the new thread runs, passed to it through `pthread_create`'s one pointer.
  fileprivate final class Start: Sendable {
    let name: String
    let body: @Sendable () -> Void
    init(name: String, body: @escaping @Sendable () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// Gives the calling thread `name` in the kernel's eyes (pthread_setname_np is not
  /// imported without _GNU_SOURCE, and prctl is variadic).
  fileprivate static func nameCallingThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    close(descriptor)
  }
}

/// The new thread's first function: takes what ``SystemThread/start(name:_:)`` passed.
private func runThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  let start = Unmanaged<SystemThread.Start>.fromOpaque(context!).takeRetainedValue()
  SystemThread.nameCallingThread(start.name)
  start.body()
  return nil
}
