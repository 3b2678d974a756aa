import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair: the test writes NMEA into the master side, the source reads
/// the slave device path as if it were a serial receiver.
public final class PseudoTerminal: @unchecked Sendable {
  // @unchecked Sendable: `master` is immutable; writes are whole-buffer write(2) calls.
  public let master: Int32
  public let devicePath: String
  private var slaveHold: Int32

  // TIOCSPTLCK and TIOCGPTN are function-like macros (_IOW/_IOR) that Swift does not
  // import: init uses their values on Linux (x86_64 and arm64 alike).

  public init() throws {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    let lockRequest: UInt = 0x4004_5431
    let numberRequest: UInt = 0x8004_5430
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, lockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else {
      throw POSIXError(.ENODEV)
    }
    devicePath = "/dev/pts/\(number)"
    // Keep the slave open here too, so that the master does not see EIO while the
    // source reconnects.
    slaveHold = open(devicePath, O_RDWR | O_NOCTTY)
    var settings = termios()
    tcgetattr(slaveHold, &settings)
    cfmakeraw(&settings)
    tcsetattr(slaveHold, TCSANOW, &settings)
  }

  public func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Writes `text` unless the terminal's buffer stays full for `timeout` seconds (a
  /// source that stopped reading: a test then fails rather than hangs); returns whether
  /// all of it was written.
  @discardableResult
  public func write(_ text: String, timeout: Double) -> Bool {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      var ready = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
      guard poll(&ready, 1, Int32(timeout * 1000)) == 1, ready.revents & Int16(POLLOUT) != 0 else { return false }
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  deinit {
    close(slaveHold)
    close(master)
  }
}
