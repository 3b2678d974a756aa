#if canImport(Glibc)
  import Glibc
#endif

/// The process environment, read one variable at a time.
///
/// Foundation's `ProcessInfo.environment` builds a dictionary of every variable on each
/// call: 370,000 instructions, a tenth of a small command's start-up, for one value.
enum Environment {
  /// The value of variable `name`; `nil` when it is not set.
  static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
