import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// Reading and writing sysfs attribute files: small text files read whole, each open a
/// fresh read of the kernel's value.
enum SysfsAttribute {
  /// The file's text without its trailing newline and blanks; at most 4 KiB (a sysfs
  /// attribute is at most a page).
  static func read(_ path: String) throws(SystemError) -> String {
    let descriptor = try FileDescriptor.open(path, O_RDONLY)
    defer { descriptor.close() }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { buffer.deallocate() }
    var count = 0
    while count < buffer.count {
      let got = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      if got == 0 { break }
      count += got
    }
    var text = String(decoding: buffer[..<count], as: UTF8.self)
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return text
  }

  /// Replaces the file's value with `value` and a newline.
  static func write(_ path: String, _ value: String) throws(SystemError) {
    let descriptor = try FileDescriptor.open(path, O_WRONLY | O_TRUNC)
    defer { descriptor.close() }
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: value.utf8.count + 1, alignment: 1)
    defer { bytes.deallocate() }
    bytes.copyBytes(from: Array(value.utf8) + [UInt8(ascii: "\n")])
    try descriptor.write(UnsafeRawBufferPointer(bytes))
  }

  /// The names in a directory (without `.` and `..`), sorted, or why it cannot be listed.
  static func list(_ path: String) -> Result<[String], SystemError> {
    guard let directory = opendir(path) else { return .failure(SystemError(call: "opendir", errno: errno)) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return .success(names.sorted())
  }

  /// Whether `path` exists (any kind of file).
  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// Whether `path` may be written by this process.
  static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }
}
