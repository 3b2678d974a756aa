import LocationKit

/// Says a message once, then again only when it changes or once a minute: a source that
/// retries every few seconds must not fill the terminal with the same line.
struct RepeatedMessages {
  /// How long the same message stays quiet, seconds.
  static let interval = 60.0
  private var last: (text: String, at: Double)?

  /// Whether `text` is to be said now; notes it when so.
  mutating func shouldSay(_ text: String, now: Double = SystemClock.monotonic()) -> Bool {
    if let last, last.text == text, now - last.at < Self.interval { return false }
    last = (text, now)
    return true
  }

  /// Whether `error` is to be said now. An error about one device of several always is:
  /// the manager reports each outage of a device once.
  mutating func shouldSay(_ error: LocationError, now: Double = SystemClock.monotonic()) -> Bool {
    error.device != nil || shouldSay("\(error)", now: now)
  }

  /// A fix came: the next message is about a new outage, said even when its text is the
  /// last one's.
  mutating func received() { last = nil }

}
