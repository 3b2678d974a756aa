import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with posix_spawn: an emptied signal mask, default signal
/// dispositions and a process group of its own, so that SIGTERM reaches it and its
/// children (Foundation's `Process` passes on the test thread's blocked mask).
public final class ChildProcess: @unchecked Sendable {
  // @unchecked Sendable: `pid` is immutable after init; `collected` and `status` are only
  // touched under `lock`; the reader threads each own one file descriptor.
  public let pid: pid_t
  private let lock = NSLock()
  private var collected: [Int32: [UInt8]] = [:]
  private var status: Int32?
  private var peakKilobytes = 0

  /// The peak resident set size in KiB that wait4(2) reports, known once the child has
  /// been waited for. posix_spawn starts the child in the parent's address space, and
  /// the kernel keeps that high-water mark across exec: this is at least the test
  /// process's own size. Measure a program's memory with `/usr/bin/time -f %M` instead.
  public var peakResidentKilobytes: Int {
    lock.lock()
    defer { lock.unlock() }
    return peakKilobytes
  }
  private var readers: [Thread] = []
  private let done = DispatchGroup()

  /// Starts `executable` with `arguments`; standard input comes from `stdinPath` (or
  /// /dev/null), standard output and error are collected.
  public init(
    _ executable: String, _ arguments: [String], stdinPath: String? = nil, environment: [String: String]? = nil
  )
    throws
  {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
    var pipes: [(read: Int32, write: Int32)] = []
    for target in [Int32(1), 2] {
      var fds: [Int32] = [0, 0]
      // Close-on-exec (dup2 onto the child's 1 and 2 clears it there): a child that
      // another test spawns meanwhile must not inherit this child's pipe, or the readers
      // here would see its end only when that other child exits too.
      guard closeOnExecPipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
      pipes.append((fds[0], fds[1]))
      posix_spawn_file_actions_adddup2(&actions, fds[1], target)
      posix_spawn_file_actions_addclose(&actions, fds[0])
      posix_spawn_file_actions_addclose(&actions, fds[1])
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var variables = environment ?? ProcessInfo.processInfo.environment
    // Under AddressSanitizer (scripts/test), children get their own options: a small
    // quarantine, so that memory tests measure the program and not ASan's cache of freed
    // blocks. LSAN_OPTIONS (the suppressions) is passed on as it is.
    if let childOptions = variables["WHEREAMI_CHILD_ASAN_OPTIONS"] { variables["ASAN_OPTIONS"] = childOptions }
    let env = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { env.forEach { free($0) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, executable, &actions, &attributes, argv, env)
    for pair in pipes { close(pair.write) }
    guard result == 0 else {
      for pair in pipes { close(pair.read) }
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)
    }
    pid = child
    for (index, pair) in pipes.enumerated() {
      let target = Int32(index + 1)
      done.enter()
      let thread = Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let count = read(pair.read, &buffer, buffer.count)
          if count > 0 {
            // Appended as it comes, so that tests can watch output while the child runs.
            lock.lock()
            collected[target, default: []] += buffer[0..<count]
            lock.unlock()
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break
          }
        }
        close(pair.read)
        done.leave()
      }
      thread.start()
    }
  }

  /// Waits for the process to exit (at most `timeout` seconds, then kills its group) and
  /// returns its exit code (128 + signal for a signal).
  @discardableResult
  public func wait(timeout: TimeInterval = 60) -> Int32 {
    // Once reaped, the pid is no longer ours to wait for (it may even be reused).
    if let status = reapedStatus { return status }
    let deadline = Date().addingTimeInterval(timeout)
    var raw: Int32 = 0
    var usage = rusage()
    while true {
      let result = wait4(pid, &raw, WNOHANG, &usage)
      if result == pid { break }
      if Date() > deadline {
        kill(-pid, SIGKILL)
        wait4(pid, &raw, 0, &usage)
        break
      }
      usleep(2000)
    }
    lock.lock()
    peakKilobytes = Int(usage.ru_maxrss)
    lock.unlock()
    _ = done.wait(timeout: .now() + 10)
    let code: Int32 = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    lock.lock()
    status = code
    lock.unlock()
    // A sanitizer's report from a child would otherwise reach only the test's own checks
    // of the exit code: pass it on, so that a CI log says what went wrong.
    let errors = standardError
    if errors.contains("Sanitizer") {
      FileHandle.standardError.write(Data("child \(pid) exited \(code) with a sanitizer report:\n\(errors)\n".utf8))
    }
    return code
  }

  /// Waits until standard output holds `count` lines (or `timeout` passes).
  @discardableResult
  public func waitForOutputLines(_ count: Int, timeout: TimeInterval = 30) -> Bool {
    waitUntil(timeout: timeout) { standardOutput.split(separator: "\n").count >= count }
  }

  /// Waits until the child blocks `signal` (read from /proc/PID/status), as whereami does
  /// first thing in main: from then on the signal reaches the program's own handling
  /// rather than the kernel's default action, whatever the load on the machine.
  public func waitUntilBlocking(_ signal: Int32, timeout: TimeInterval = 30) -> Bool {
    waitUntil(timeout: timeout) {
      guard let line = procFile("/proc/\(pid)/status").split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
        let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      else { return false }
      return mask & (1 << UInt64(signal - 1)) != 0
    }
  }

  /// Waits until the child has taken `signal` from its pending signals (ShdPnd in
  /// /proc/PID/status), as whereami's signal thread does at once: the way to send a second
  /// signal that the kernel cannot merge with the first, as a user's second Ctrl-C is not.
  public func waitUntilTaken(_ signal: Int32, timeout: TimeInterval = 30) -> Bool {
    waitUntil(timeout: timeout) {
      guard let line = procFile("/proc/\(pid)/status").split(separator: "\n").first(where: { $0.hasPrefix("ShdPnd:") }),
        let mask = UInt64(line.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      else { return hasExited }
      return mask & (1 << UInt64(signal - 1)) == 0
    }
  }

  /// Whether one of the child's threads is asleep in a kernel function whose name
  /// contains `function` (/proc/PID/task/TID/wchan): `pipe_write` for a writer held up by
  /// a full pipe or FIFO (`anon_pipe_write` on newer kernels), the state a test waits for
  /// before it checks what such a program does.
  public func hasThreadWaiting(in function: String) -> Bool {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.contains { procFile("/proc/\(pid)/task/\($0)/wchan").contains(function) }
  }

  /// Sends `signal` to the child's whole process group.
  public func signalGroup(_ signal: Int32) { kill(-pid, signal) }

  /// The exit code once ``wait(timeout:)`` has reaped the process.
  private var reapedStatus: Int32? {
    lock.lock()
    defer { lock.unlock() }
    return status
  }

  /// Whether the process has exited (without reaping it).
  public var hasExited: Bool {
    if reapedStatus != nil { return true }
    var info = siginfo_t()
    return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
  }

  /// Stops the process group: SIGTERM, then SIGKILL after `grace` seconds.
  public func terminate(grace: TimeInterval = 2) {
    // A reaped child's pid and group may belong to another process by now.
    guard reapedStatus == nil else { return }
    signalGroup(SIGTERM)
    let deadline = Date().addingTimeInterval(grace)
    while !hasExited && Date() < deadline { usleep(10_000) }
    if !hasExited { signalGroup(SIGKILL) }
    wait(timeout: 5)
  }

  public var standardOutput: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: collected[1] ?? [], as: UTF8.self)
  }

  public var standardError: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: collected[2] ?? [], as: UTF8.self)
  }
}

/// pipe2(2) with O_CLOEXEC: both ends close-on-exec from the start, where pipe(2) and a
/// later fcntl(2) leave a moment in which another thread's posix_spawn passes them on.
/// (Glibc's module imports pipe2 only with _GNU_SOURCE: it is looked up instead.)
private func closeOnExecPipe(_ fds: inout [Int32]) -> Int32 {
  typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return -1 }
  let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
  return fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress!, O_CLOEXEC) }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (for servers started by tests).
public func freeLoopbackPort() -> UInt16 {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(socket) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  _ = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
  }
  return UInt16(bigEndian: address.sin_port)
}
