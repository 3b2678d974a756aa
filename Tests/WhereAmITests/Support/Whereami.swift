import Foundation
import TestSupport

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
