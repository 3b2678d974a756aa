import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// The exit codes of `whereami`, from BSD's sysexits where one fits. The README lists them.
enum ExitCode: Int32 {
  /// Done; the input may still have had rejected lines (they are counted, not fatal).
  case success = 0
  /// `print --anchor`: the anchor alarm went off (the boat is outside its swing circle).
  case anchorAlarm = 3
  /// The command line is wrong.
  case usage = 64
  /// An argument's value is not valid data (a malformed `--date`, say).
  case dataError = 65
  /// The source does not exist.
  case noInput = 66
  /// A network source (gpsd, a TCP stream) never answered; `--wait` keeps trying instead.
  case unavailable = 69
  /// Reading the source or writing the output failed.
  case ioError = 74
  /// `now`: no fix good enough within the time (or in the log); the best one, if any, was
  /// printed all the same.
  case temporaryFailure = 75
  /// The source exists but may not be read (permission denied).
  case permissionDenied = 77
}

/// An error that ends the program with a message and an exit code; no message when it
/// was reported already.
struct CommandError: Error {
  var message: String?
  var code: ExitCode
}

extension CommandError {
  /// An export that could not be written: an input/output error (74).
  init(_ error: ExportError) {
    self.init(message: error.message, code: .ioError)
  }
}
