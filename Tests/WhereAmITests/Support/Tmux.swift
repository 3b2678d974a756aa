import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A private tmux server with one session, for running `whereami watch` on a real
/// terminal and reading the screen back (`capture-pane`).
///
/// Each server has a socket of its own (`-L`), so tests run in parallel and never touch
/// a user's tmux; ``stop()`` kills it.
final class TmuxServer {
  /// The tmux executable (Debian package `tmux`, installed by scripts/install-dependencies).
  static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  let socket: String
  /// The socket file, removed by ``stop()``: tmux leaves it behind when killed.
  private var socketPath: String?

  /// Starts a server running `command` in a `width` × `height` window.
  init(name: String, width: Int, height: Int, command: String) throws {
    socket = "whereami-test-\(getpid())-\(name)"
    try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "t", command])
    socketPath = try? display("#{socket_path}")
  }

  /// Starts a server running an interactive bash without start-up files and with a plain
  /// `$ ` prompt.
  convenience init(shellNamed name: String, width: Int, height: Int) throws {
    try self.init(name: name, width: width, height: height, command: "env PS1='$ ' bash --norc --noprofile")
  }

  /// Runs a tmux command against this server; returns its standard output.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    guard let executable = Self.executable else { throw TmuxError(message: "tmux is not installed") }
    var environment = ProcessInfo.processInfo.environment
    environment["TMUX"] = nil
    let child = try ChildProcess(executable, ["-L", socket] + arguments, environment: environment)
    let code = child.wait(timeout: 30)
    guard code == 0 else {
      throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) exited with \(code): \(child.standardError)")
    }
    return child.standardOutput
  }

  /// The visible pane as text; with `escapes`, with its colours and attributes as SGR.
  func capture(escapes: Bool = false) throws -> String {
    try run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "t"])
  }

  /// A tmux format evaluated for the pane (`#{alternate_on}`, `#{cursor_flag}`).
  func display(_ format: String) throws -> String {
    try run(["display-message", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Types `keys` (tmux key names: `q`, `C-c`, `Enter`); `literal` types text as is.
  func send(_ keys: [String], literal: Bool = false) throws {
    try run(["send-keys", "-t", "t"] + (literal ? ["-l"] : []) + keys)
  }

  /// Types a command line and Enter.
  func type(_ line: String) throws {
    try send([line], literal: true)
    try send(["Enter"])
  }

  /// The first capture of the pane that satisfies `condition`, polling for up to
  /// `timeout` seconds; throws with the last capture when none does.
  @discardableResult
  func waitFor(
    _ what: String, timeout: Double = 30, escapes: Bool = false, _ condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var screen = ""
    while Date() < deadline {
      screen = try capture(escapes: escapes)
      if condition(screen) { return screen }
      usleep(50_000)
    }
    throw TmuxError(message: "timed out waiting for \(what); the screen shows:\n\(screen)")
  }

  /// Kills the server and everything running in it.
  func stop() {
    _ = try? run(["kill-server"])
    if let socketPath { unlink(socketPath) }
  }
}

struct TmuxError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// `text` quoted for a POSIX shell.
func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
