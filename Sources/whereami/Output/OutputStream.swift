import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// Buffered output on a file descriptor through write(2).
///
/// A closed pipe (`whereami print … | head -1`) is not an error worth a word: writing
/// stops quietly and ``isClosed`` tells the command to stop early.
struct OutputStream: ~Copyable {
  private let descriptor: Int32
  private var buffer = ByteBuffer(capacity: Self.flushThreshold + 4096)
  /// Flush after every line (for a terminal, so that fixes show as they come).
  let flushesLines: Bool
  private(set) var isClosed = false
  private(set) var failure: CommandError?

  /// Buffered output is written out once it reaches this many bytes.
  private static let flushThreshold = 1 << 16

  /// Output on `descriptor`; lines are written at once on a terminal, or always when
  /// `flushingEachLine` (a live source: a reader following it through a pipe must not
  /// wait for 64 KiB of output).
  init(descriptor: Int32, flushingEachLine: Bool = false) {
    self.descriptor = descriptor
    flushesLines = flushingEachLine || isatty(descriptor) == 1
  }

  /// Appends text; the line is written once the buffer is full (or at once on a terminal).
  mutating func write(_ text: String) {
    guard !isClosed else { return }
    buffer.append(string: text)
    if buffer.count >= Self.flushThreshold || flushesLines { flush() }
  }

  /// Appends raw bytes.
  mutating func write(bytes: [UInt8]) {
    guard !isClosed else { return }
    bytes.withUnsafeBufferPointer { buffer.append($0) }
    if buffer.count >= Self.flushThreshold || flushesLines { flush() }
  }

  /// Appends what `render` writes into the buffer (a line: the same flushing rules apply).
  mutating func write(_ render: (inout ByteBuffer) -> Void) {
    guard !isClosed else { return }
    render(&buffer)
    if buffer.count >= Self.flushThreshold || flushesLines { flush() }
  }

  /// Appends what `render` writes, as ``write(_:)-(inout ByteBuffer)->Void`` does, and
  /// returns how many bytes it wrote.
  mutating func writeCounting(_ render: (inout ByteBuffer) -> Void) -> Int {
    guard !isClosed else { return 0 }
    let before = buffer.count
    render(&buffer)
    let added = buffer.count - before
    if buffer.count >= Self.flushThreshold || flushesLines { flush() }
    return added
  }

  /// Writes out everything buffered.
  mutating func flush() {
    if !isClosed, let failed = SystemIO.writeAll(UnsafeRawBufferPointer(buffer.bytes), to: descriptor) {
      // A reader that went away (`| head`) is no error: the output just ends.
      if failed != EPIPE {
        failure = CommandError(message: "cannot write output: \(String(cString: strerror(failed)))", code: .ioError)
      }
      isClosed = true
    }
    buffer.removeAll()
  }
}

/// Writes one line to standard error at once.
func printError(_ message: String) {
  let line = Array((message + "\n").utf8)
  line.withUnsafeBytes { _ = SystemIO.writeAll($0, to: STDERR_FILENO) }
}

/// Writes `text` on standard output at once. A manual page saved to a full disk is an
/// error (74), as every command's output is; a closed pipe (`| head`) ends it quietly.
func writeOutput(_ text: String) -> ExitCode {
  var output = OutputStream(descriptor: STDOUT_FILENO)
  output.write { $0.append(string: text) }
  output.flush()
  guard let failure = output.failure else { return .success }
  printError("whereami: \(failure.message ?? "cannot write output")")
  return failure.code
}
