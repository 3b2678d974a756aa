import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// A file or standard input read in large chunks with read(2): the bytes go straight
/// to the decoder, never through `String` or `Data`.
struct InputFile: ~Copyable {
  /// Whether `output` names the file `input` is read from (`-`: standard input, whatever
  /// it was redirected from), by device and inode, so that links and other spellings of
  /// the path count too.
  static func isSameFile(_ input: String, _ output: String) -> Bool {
    var written = stat()
    guard stat(output, &written) == 0 else { return false }
    var read = stat()
    let found = input == "-" ? fstat(STDIN_FILENO, &read) == 0 : stat(input, &read) == 0
    return found && read.st_dev == written.st_dev && read.st_ino == written.st_ino
  }

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
    do throws(SystemError) {
      descriptor = try SystemIO.open(path, O_RDONLY)
    } catch {
      throw Self.error(error.errno, opening: path)
    }
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
      let count: Int
      do throws(SystemError) {
        count = try SystemIO.read(descriptor, into: buffer)
      } catch {
        throw Self.error(error.errno, reading: name)
      }
      if count == 0 { return }
      if !body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { return }
    }
  }

  /// Decodes the whole input: a regular file on several threads when `parallelism` says
  /// so, anything else as it is read. `handle` gets the events in order either way;
  /// `split`, when given, gets a line saying how the input was split across threads.
  func decode(
    _ options: NMEADecoder.Options, _ parallelism: DecodeOptions.Parallelism,
    split: ((String) -> Void)? = nil, _ handle: (consuming DecoderEvent) -> Void
  ) throws(CommandError) -> DecoderStatistics {
    var parallel = parallelism.decoder(options)
    if let size = parallel.splittableSize(of: descriptor) {
      do throws(SystemError) {
        // Not cancelled, so there are statistics.
        let statistics = try parallel.decode(descriptor, size: size, handle) ?? DecoderStatistics()
        split?(Self.splitReport(parallel))
        return statistics
      } catch {
        throw Self.error(error.errno, reading: name)
      }
    }
    split?(
      "decoded by one decoder (\(parallel.jobs > 1 ? "not a regular file of 8 MB or more" : "one job"))")
    var decoder = NMEADecoder(options: options)
    try forEachChunk { chunk in
      decoder.decode(chunk, handle)
      return true
    }
    decoder.finish(handle)
    return decoder.statistics
  }

  /// How a parallel decode went: its chunks and those decoded in order, by reason.
  static func splitReport(_ decoder: ParallelLogDecoder) -> String {
    let count = decoder.chunksDecodedInOrder
    var line = "\(decoder.chunks) chunks on \(decoder.jobs) threads; \(count) decoded in order"
    if count > 0 {
      line += " (\(decoder.chunksDecodedTwice) of them twice): "
      line += decoder.chunksInOrderByReason.sorted { ($0.value, $1.key.description) > ($1.value, $0.key.description) }
        .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
    if decoder.chunksPartlyDecodedTwice > 0 {
      let kilobytes = (decoder.bytesPartlyDecodedTwice + 512) / 1024
      line += "; \(decoder.chunksPartlyDecodedTwice) decoded twice in part (\(kilobytes) KB in all: a heading went"
      line += " without the variation the receiver gave before the chunk)"
    }
    if decoder.chunksFinishedInOrder > 0 {
      line += "; \(decoder.chunksFinishedInOrder) finished in order (their events filled the memory a chunk may keep)"
    }
    if let offset = decoder.readInOrderFrom {
      line += "; from byte \(offset) on, read on one thread: most chunks had to be decoded twice"
    }
    return line
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
