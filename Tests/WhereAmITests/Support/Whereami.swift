import Foundation
import TestSupport

/// Runs `whereami` with arguments and returns (exit code, stdout, stderr).
func runWhereAmI(
  _ arguments: [String], stdinPath: String? = nil, asUser user: String? = nil, timeout: TimeInterval = 60,
  environment: [String: String] = [:]
) throws -> (code: Int32, output: String, error: String) {
  let executable = Paths.whereami
  let child: ChildProcess
  if let user {
    // Another user may not enter the checkout (under /root, or a `mktemp -d` folder): the
    // binary and the inputs from the checkout run from copies that user can reach.
    let reachable = arguments.map { argument in
      argument.hasPrefix(Paths.packageRoot.path + "/") && FileManager.default.fileExists(atPath: argument)
        ? Reachable.copy(argument) : argument
    }
    child = try ChildProcess(
      "/usr/sbin/runuser", ["-u", user, "--", Reachable.copy(executable)] + reachable, stdinPath: stdinPath)
  } else {
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    child = try ChildProcess(executable, arguments, stdinPath: stdinPath, environment: variables)
  }
  let code = child.wait(timeout: timeout)
  return (code, child.standardOutput, child.standardError)
}

/// Copies of files in a directory every user can enter and read, for tests that run
/// `whereami` as another user; removed when the test process exits.
enum Reachable {
  private static let copies = NSLock()
  // nonisolated(unsafe): read and written only while `copies` is locked, in `copy(_:)`.
  nonisolated(unsafe) private static var made: [String: String] = [:]

  static let directory: String = {
    let path = "/tmp/whereami-reachable-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o755)
    atexit { try? FileManager.default.removeItem(atPath: "/tmp/whereami-reachable-\(getpid())") }
    return path
  }()

  /// The path of a readable (and, for an executable, runnable) copy of `path`.
  static func copy(_ path: String) -> String {
    copies.lock()
    defer { copies.unlock() }
    if let copy = made[path] { return copy }
    let copy = directory + "/\(made.count)-" + URL(fileURLWithPath: path).lastPathComponent
    // Copied by cp, not in this process: a child another test spawns meanwhile would
    // inherit our writable descriptor of the copy, and running the copy would then fail
    // with ETXTBSY ("Text file busy") for as long as that child lives.
    if let child = try? ChildProcess("/bin/cp", [path, copy]) { _ = child.wait(timeout: 60) }
    chmod(copy, FileManager.default.isExecutableFile(atPath: path) ? 0o755 : 0o644)
    made[path] = copy
    return copy
  }
}

enum Paths {
  static var packageRoot: URL { TestPaths.packageRoot }

  static func fixture(_ name: String) -> String { TestPaths.fixture(name) }

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
