import Foundation

/// How many of this process's file descriptors are open on `path`.
func descriptors(openOn path: String) -> Int {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
    .count
}

/// How many of this process's threads have a name starting with `prefix` (Linux keeps
/// the first 15 bytes of a thread's name).
func threadCount(named prefix: String) -> Int {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  return tasks.filter { task in
    let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
    return name?.hasPrefix(prefix) == true
  }.count
}
