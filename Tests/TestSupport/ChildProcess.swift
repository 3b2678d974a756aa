import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with posix_spawn: an emptied signal mask, default signal
/// dispositions and a process group of its own, so that SIGTERM reaches it and its
/// children (Foundation's `Process` passes on the test thread's blocked mask).
final class ChildProcess: @unchecked Sendable {
  // @unchecked Sendable: `pid` is immutable after init; `collected` and `status` are only
  // touched under `lock`; the reader threads each own one file descriptor.
  let pid: pid_t
  private let lock = NSLock()
  private var collected: [Int32: [UInt8]] = [:]
  private var status: Int32?
  private var readers: [Thread] = []
  private let done = DispatchGroup()

  /// Starts `executable` with `arguments`; standard input comes from `stdinPath` (or
  /// /dev/null), standard output and error are collected.
  init(_ executable: String, _ arguments: [String], stdinPath: String? = nil, environment: [String: String]? = nil)
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
      guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
      pipes.append((fds[0], fds[1]))
      posix_spawn_file_actions_adddup2(&actions, fds[1], target)
      posix_spawn_file_actions_addclose(&actions, fds[0])
      posix_spawn_file_actions_addclose(&actions, fds[1])
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
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
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let count = read(pair.read, &buffer, buffer.count)
          if count > 0 { bytes += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        close(pair.read)
        lock.lock()
        collected[target] = bytes
        lock.unlock()
        done.leave()
      }
      thread.start()
    }
  }

  /// Waits for the process to exit (at most `timeout` seconds, then kills its group) and
  /// returns its exit code (128 + signal for a signal).
  @discardableResult
  func wait(timeout: TimeInterval = 60) -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    var raw: Int32 = 0
    while true {
      let result = waitpid(pid, &raw, WNOHANG)
      if result == pid { break }
      if Date() > deadline {
        kill(-pid, SIGKILL)
        waitpid(pid, &raw, 0)
        break
      }
      usleep(2000)
    }
    _ = done.wait(timeout: .now() + 10)
    let code: Int32 = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    lock.lock()
    status = code
    lock.unlock()
    return code
  }

  /// Sends `signal` to the child's whole process group.
  func signalGroup(_ signal: Int32) { kill(-pid, signal) }

  var standardOutput: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: collected[1] ?? [], as: UTF8.self)
  }

  var standardError: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: collected[2] ?? [], as: UTF8.self)
  }
}

/// Runs `whereami` with arguments and returns (exit code, stdout, stderr).
func runWhereAmI(
  _ arguments: [String], stdinPath: String? = nil, asUser user: String? = nil, timeout: TimeInterval = 60
) throws -> (code: Int32, output: String, error: String) {
  let executable = Paths.whereami
  let child: ChildProcess
  if let user {
    child = try ChildProcess("/usr/sbin/runuser", ["-u", user, "--", executable] + arguments, stdinPath: stdinPath)
  } else {
    child = try ChildProcess(executable, arguments, stdinPath: stdinPath)
  }
  let code = child.wait(timeout: timeout)
  return (code, child.standardOutput, child.standardError)
}

enum Paths {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func fixture(_ name: String) -> String { packageRoot.appendingPathComponent("fixtures/\(name)").path }

  /// The `whereami` built beside the test bundle.
  static var whereami: String {
    let beside = Bundle.main.bundleURL.appendingPathComponent("whereami").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    for configuration in ["debug", "release"] {
      let path = packageRoot.appendingPathComponent(".build/\(configuration)/whereami").path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return beside
  }
}
