#if canImport(Glibc)
  import Glibc
#endif

/// A file or standard input read in large chunks with read(2): the bytes go straight
/// to the decoder, never through `String` or `Data`.
struct InputFile: ~Copyable {
  /// The name used in messages (`-` is shown as "standard input").
  let name: String
  private let descriptor: Int32
  private let ownsDescriptor: Bool

  /// Opens `path`, or standard input for `-`.
  init(path: String) throws(CommandError) {
    if path == "-" {
      name = "standard input"
      descriptor = STDIN_FILENO
      ownsDescriptor = false
      return
    }
    name = path
    var opened: Int32
    repeat { opened = open(path, O_RDONLY | O_CLOEXEC) } while opened < 0 && errno == EINTR
    guard opened >= 0 else { throw Self.error(errno, opening: path) }
    descriptor = opened
    ownsDescriptor = true
  }

  deinit { if ownsDescriptor { close(descriptor) } }

  /// Reads the input, handing each chunk to `body`, until the end or until `body` returns
  /// `false`.
  func forEachChunk(_ body: (UnsafeRawBufferPointer) -> Bool) throws(CommandError) {
    let capacity = 256 * 1024
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, capacity)
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR { continue }
        throw Self.error(errno, reading: name)
      }
      if !body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { return }
    }
  }

  static func error(_ code: Int32, opening path: String) -> CommandError {
    let reason = String(cString: strerror(code))
    switch code {
    case EACCES, EPERM: return CommandError(message: "cannot open '\(path)': \(reason)", code: .permissionDenied)
    case ENOENT, ENOTDIR: return CommandError(message: "cannot open '\(path)': \(reason)", code: .noInput)
    default: return CommandError(message: "cannot open '\(path)': \(reason)", code: .ioError)
    }
  }

  static func error(_ code: Int32, reading name: String) -> CommandError {
    CommandError(message: "cannot read '\(name)': \(String(cString: strerror(code)))", code: .ioError)
  }
}
