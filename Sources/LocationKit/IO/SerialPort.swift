#if canImport(Glibc)
  import Glibc
#endif

/// A serial receiver's device set to raw mode at a baud rate with termios.
package enum SerialPort {
  /// The baud rates accepted, with their termios constants.
  package static let baudRates: [Int: speed_t] = [
    4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
    57600: speed_t(B57600), 115200: speed_t(B115200), 230400: speed_t(B230400), 460800: speed_t(B460800),
    921600: speed_t(B921600),
  ]

  /// Opens `path` without becoming its controlling terminal, raw, 8N1, at `baud`.
  /// Pseudo-terminals (used in tests) accept the settings too.
  static func open(_ path: String, baud: Int) throws(SystemError) -> FileDescriptor {
    let descriptor = try FileDescriptor.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
    var settings = termios()
    if tcgetattr(descriptor.rawValue, &settings) != 0 {
      // Not a terminal (a FIFO, a plain file standing in for a device): read it as is.
      return descriptor
    }
    cfmakeraw(&settings)
    settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
    let speed = baudRates[baud] ?? speed_t(B9600)
    cfsetispeed(&settings, speed)
    cfsetospeed(&settings, speed)
    withUnsafeMutableBytes(of: &settings.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    _ = try retryingInterrupts("tcsetattr") { tcsetattr(descriptor.rawValue, TCSANOW, &settings) }
    return descriptor
  }
}
