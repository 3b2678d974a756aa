import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// What tests wait with: a condition polled up to a deadline (the deadline only bounds a
// failure), and the kernel's /proc files that say where a program is.

/// Waits (up to `timeout` seconds, polling) until `condition` holds; returns whether it did.
@discardableResult
public func waitUntil(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() > deadline { return condition() }
    usleep(5_000)
  }
  return true
}

/// The text of a file under /proc, which reports a size of 0: read to the end in a loop
/// rather than trust a size.
public func procFile(_ path: String) -> String {
  var bytes: [UInt8] = []
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = read(descriptor, &chunk, chunk.count)
    if count < 0 && errno == EINTR { continue }
    if count <= 0 { break }
    bytes += chunk[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}
