import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// Where an export goes, and the buffer its bytes gather in before write(2).
///
/// `-o FILE` never leaves a file that claims to be complete when it is not: the export is
/// written to `FILE.partial-PID` in FILE's directory and renamed to FILE (replacing it at
/// once, for readers) only after its last byte is written and synced; on any failure or
/// interruption the partial file is removed. A FILE that exists but is not a regular file
/// (`/dev/null`, `/dev/full`, a FIFO) is written directly, since renaming over it would
/// replace the device rather than write to it. Without `-o`, or with `-o -`, the export
/// goes to standard output, where a closed pipe ends it quietly.
final class ExportOutput {
  /// The bytes not written yet.
  var buffer = ByteBuffer(capacity: ExportOutput.flushThreshold + 4096)
  /// Write out after every fix rather than in large blocks: for a terminal, and for a live
  /// source whose fixes come slowly.
  var flushesEachFix: Bool
  /// The write failure that ended the export, if any.
  private(set) var failure: CommandError?
  /// Standard output was closed by its reader (EPIPE).
  private(set) var isClosed = false
  /// The name for messages: the FILE, or "standard output".
  let name: String

  private enum Target {
    case standardOutput
    case direct
    case replacing(path: String, partial: PartialFile)
  }

  private let descriptor: Int32
  private let target: Target
  private var isOpen = true

  /// Buffered bytes are written out once there are this many.
  static let flushThreshold = 1 << 16

  private init(descriptor: Int32, target: Target, name: String) {
    self.descriptor = descriptor
    self.target = target
    self.name = name
    flushesEachFix = isatty(descriptor) == 1
  }

  /// Opens the destination for `path` (`nil` or `-` for standard output); a partial file
  /// is named in `partial` before it is made. Fails with exit code 74 and a one-line
  /// message naming FILE when it cannot be created.
  static func open(_ path: String?, partial: PartialFile) throws(CommandError) -> ExportOutput {
    guard let path, path != "-" else {
      return ExportOutput(descriptor: STDOUT_FILENO, target: .standardOutput, name: "standard output")
    }
    var info = stat()
    let exists = stat(path, &info) == 0
    let kind = info.st_mode & S_IFMT
    if exists && kind == S_IFDIR {
      throw CommandError(message: "cannot write '\(path)': \(String(cString: strerror(EISDIR)))", code: .ioError)
    }
    if exists && kind != S_IFREG {
      let opened = retryingOpen(path, O_WRONLY | O_CLOEXEC, 0)
      guard opened >= 0 else { throw creationError(path) }
      return ExportOutput(descriptor: opened, target: .direct, name: path)
    }
    // Through a symbolic link to the file it names, so that the link stays a link.
    var final = path
    if exists, let resolved = realpath(path, nil) {
      final = String(cString: resolved)
      free(resolved)
    }
    let temporary = "\(final).partial-\(getpid())"
    partial.prepare(temporary)
    var opened = retryingOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    if opened < 0 && errno == EEXIST {
      // Left by an earlier process with our PID that was killed before it could clean up.
      unlink(temporary)
      opened = retryingOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    }
    guard opened >= 0 else { throw creationError(path) }
    if exists { _ = fchmod(opened, info.st_mode & 0o7777) }
    return ExportOutput(descriptor: opened, target: .replacing(path: final, partial: partial), name: path)
  }

  private static func retryingOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    var opened: Int32
    repeat { opened = Glibc.open(path, flags, mode) } while opened < 0 && errno == EINTR
    return opened
  }

  private static func creationError(_ path: String) -> CommandError {
    CommandError(message: "cannot create '\(path)': \(String(cString: strerror(errno)))", code: .ioError)
  }

  /// Writes the buffer out when it is full, or after every fix when ``flushesEachFix``.
  func fixWritten() {
    if buffer.count >= Self.flushThreshold || flushesEachFix { flush() }
  }

  /// Writes out everything buffered; a failure is kept in ``failure``.
  func flush() {
    do throws(ExportError) {
      try write(&buffer)
    } catch {
      if failure == nil { failure = CommandError(error) }
    }
  }

  /// Writes `bytes` out and empties it: the ``ExportFlush`` for writers. Nothing is
  /// written after a failure or a closed pipe.
  func write(_ bytes: inout ByteBuffer) throws(ExportError) {
    defer { bytes.removeAll() }
    if let failure { throw ExportError(message: failure.message ?? "cannot write '\(name)'") }
    guard !isClosed else { return }
    guard let failed = SystemIO.writeAll(UnsafeRawBufferPointer(bytes.bytes), to: descriptor) else { return }
    if failed == EPIPE, case .standardOutput = target {
      // Nobody reads the output any more (`| head`): not an error.
      isClosed = true
      return
    }
    let error = ExportError(message: "cannot write '\(name)': \(String(cString: strerror(failed)))")
    failure = CommandError(error)
    throw error
  }

  /// Finishes a complete export: flushes, and for `-o FILE` syncs, closes and renames the
  /// partial file to FILE. On failure the partial file is removed.
  func commit() throws(CommandError) {
    flush()
    if let failure {
      discard()
      throw failure
    }
    guard case .replacing(let path, let partial) = target else {
      closeDescriptor()
      return
    }
    // Synced before the rename, so that a crash cannot leave FILE named but empty.
    if fsync(descriptor) != 0 {
      let error = CommandError(message: "cannot write '\(name)': \(String(cString: strerror(errno)))", code: .ioError)
      discard()
      throw error
    }
    isOpen = false
    if close(descriptor) != 0 {
      let error = CommandError(message: "cannot write '\(name)': \(String(cString: strerror(errno)))", code: .ioError)
      _ = partial.removeUnlessCompleted()
      throw error
    }
    switch partial.complete({ rename($0, path) == 0 ? 0 : errno }) {
    case .renamed:
      return
    case .failed(let failure):
      _ = partial.removeUnlessCompleted()
      throw CommandError(message: "cannot write '\(name)': \(String(cString: strerror(failure)))", code: .ioError)
    case .interrupted(let signalNumber):
      // The signal handler removed the file and is ending the process: end it the same way
      // rather than race it with a success.
      _exit(128 + signalNumber)
    }
  }

  /// Abandons an incomplete export: the partial file is removed (a device or standard
  /// output keeps what it got).
  func discard() {
    closeDescriptor()
    if case .replacing(_, let partial) = target { _ = partial.removeUnlessCompleted() }
  }

  private func closeDescriptor() {
    guard isOpen else { return }
    isOpen = false
    if case .standardOutput = target { return }
    close(descriptor)
  }

  deinit { closeDescriptor() }
}
