/// Why a location manager could not deliver a location.
///
/// Every error has a ``Code`` that tells the three cases an app must treat differently:
/// ``Code/denied`` is final (updates stop), ``Code/locationUnknown`` is transient (updates
/// resume by themselves with the next good fix), and the rest name what went wrong with
/// the source.
public struct LocationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Sendable, Equatable, CaseIterable {
    /// The device, file or daemon refused us for permission reasons (EACCES, EPERM).
    /// Final: updates stop.
    case denied
    /// No position right now: no fix yet, fix lost, or no data for a while. Transient:
    /// updates resume by themselves.
    case locationUnknown
    /// No heading right now: a heading sensor that was sending has stopped. Transient, and
    /// location updates go on; heading updates resume by themselves.
    case headingUnknown
    /// The source does not exist (no such file or device, unknown host).
    case sourceNotFound
    /// A network source refused or did not answer; retried with backoff.
    case cannotConnect
    /// The source reached its end (end of a log file or of standard input). Final.
    case sourceEnded
    /// Reading the source failed.
    case readError
    /// The SOURCE text or an option is not valid.
    case invalidSource
  }

  /// What kind of failure: tells ``Code/denied`` (final) from ``Code/locationUnknown``
  /// (transient) from the rest.
  public var code: Code
  /// A sentence for the user: what happened, to which source, and what to do if anything.
  public var message: String

  /// Whether updates stop because of this error: always for ``Code/denied``,
  /// ``Code/sourceEnded``, ``Code/sourceNotFound`` and ``Code/invalidSource``, never for
  /// ``Code/locationUnknown`` and ``Code/cannotConnect`` (retried), and for
  /// ``Code/readError`` when the source cannot go on (a log file) rather than reconnect.
  public var isFinal: Bool
  /// The device the error is about, for a source of several (gpsd's devices, a UDP
  /// port's senders): one of them fell silent while the others report. `nil` when the
  /// error is about the source as a whole.
  public var device: String?

  /// Creates an error; `final` overrides the code's usual finality.
  public init(_ code: Code, _ message: String, final: Bool? = nil) {
    self.code = code
    self.message = message
    switch code {
    case .denied, .sourceEnded, .sourceNotFound, .invalidSource: isFinal = true
    case .headingUnknown, .cannotConnect: isFinal = false
    // Transient, but for a requested location whose time is up: nothing more comes.
    case .locationUnknown, .readError: isFinal = final ?? false
    }
  }

  /// The kind as shown to users: `denied`, `location unknown`, `source not found`, ...
  public var kind: String {
    switch code {
    case .denied: "denied"
    case .locationUnknown: "location unknown"
    case .headingUnknown: "heading unknown"
    case .sourceNotFound: "source not found"
    case .cannotConnect: "cannot connect"
    case .sourceEnded: "source ended"
    case .readError: "read error"
    case .invalidSource: "invalid source"
    }
  }

  /// The kind and the message, without saying the kind twice ("cannot connect to ...").
  public var description: String { message.hasPrefix(kind) ? message : "\(kind): \(message)" }
}
