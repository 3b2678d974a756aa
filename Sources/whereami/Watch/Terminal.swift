import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal the watch screen runs on: the alternate screen, a hidden cursor, keys
/// read one at a time without echo, and everything put back by ``leave()``.
///
/// Keys come from standard input when it is the terminal, otherwise from `/dev/tty`
/// (standard input may be the NMEA stream itself: `cat /dev/ttyUSB0 | whereami watch -`).
/// Terminal signals stay on, so Ctrl-C and Ctrl-Z arrive as SIGINT and SIGTSTP.
///
/// Used from one serial queue only, like everything else of the screen.
final class Terminal {
  /// Where frames are written: standard output, a terminal.
  let output: Int32
  /// Where keys are read from; `nil` when there is no terminal to read them from.
  let keyboard: Int32?
  private let ownsKeyboard: Bool
  /// The terminal modes found on entering, put back on leaving.
  private var savedModes: termios?
  /// Whether the alternate screen is up.
  private(set) var isActive = false

  /// The terminal of `output`; keys from standard input unless `standardInputIsData`.
  init(output: Int32, standardInputIsData: Bool) {
    self.output = output
    if !standardInputIsData && isatty(STDIN_FILENO) == 1 {
      keyboard = STDIN_FILENO
      ownsKeyboard = false
    } else {
      let descriptor = open("/dev/tty", O_RDONLY | O_CLOEXEC | O_NOCTTY)
      keyboard = descriptor >= 0 ? descriptor : nil
      ownsKeyboard = descriptor >= 0
    }
  }

  /// Closes the keyboard when it was opened here (`/dev/tty`); a dispatch source reading
  /// it may only call this from its cancel handler.
  func closeKeyboard() {
    if ownsKeyboard, let keyboard { close(keyboard) }
  }

  /// The descriptor whose terminal modes change: the keyboard's, or the output's.
  private var modesDescriptor: Int32 { keyboard ?? output }

  /// Switches to the alternate screen with a hidden cursor and no line wrapping, and
  /// makes keys arrive at once without echo. Entering again (on a resume after Ctrl-Z, or
  /// any SIGCONT) applies the modes again but keeps the modes found the first time, so that
  /// ``leave()`` never "restores" the screen's own modes.
  func enter() {
    var modes = termios()
    if tcgetattr(modesDescriptor, &modes) == 0 {
      if savedModes == nil { savedModes = modes }
      modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
      withUnsafeMutableBytes(of: &modes.c_cc) { characters in
        characters[Int(VMIN)] = 1
        characters[Int(VTIME)] = 0
      }
      _ = tcsetattr(modesDescriptor, TCSANOW, &modes)
    }
    // Alternate screen, cursor hidden, no autowrap (a full last line must not scroll), clear.
    _ = write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J")
    isActive = true
  }

  /// Puts the terminal back as it was found: colours reset, wrapping and cursor on, the
  /// main screen with its old contents, the old modes.
  func leave() {
    guard isActive else { return }
    isActive = false
    _ = write("\u{1B}[0m\u{1B}[?2026l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
    if var modes = savedModes {
      _ = tcsetattr(modesDescriptor, TCSANOW, &modes)
    }
  }

  /// The size in columns and rows; 80 × 24 when the terminal does not say.
  func size() -> (columns: Int, rows: Int) {
    var size = winsize()
    // TIOCGWINSZ is 0x5413 on Linux's common architectures; the header's own value is used
    // so that architectures that encode it differently (powerpc, mips) get theirs.
    if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    return (80, 24)
  }

  /// Writes all of `text`; returns the errno of a failure (EIO when the terminal hung up).
  /// A terminal left non-blocking by another program is waited for, up to a second at a
  /// time.
  func write(_ text: String) -> Int32? {
    var text = text
    return text.withUTF8 { SystemIO.writeAll(UnsafeRawBufferPointer($0), to: output, timeout: 1) }
  }

  /// The keys typed since the last call; `nil` at the end of input or on an error.
  func readKeys() -> [UInt8]? {
    guard let keyboard else { return nil }
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(keyboard, &buffer, buffer.count)
      if count > 0 { return Array(buffer[0..<count]) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
      return nil
    }
  }
}
