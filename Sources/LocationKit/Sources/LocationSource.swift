import NMEA

/// What a source tells its location manager.
public enum SourceEvent: Sendable {
  /// A fix with a position.
  case location(Location)
  /// A reporting cycle without a position (no fix yet, or fix lost), with what the
  /// receiver did say: its time and the satellites it sees.
  indirect case noFix(SkyView)
  /// Something went wrong; ``LocationError/isFinal`` errors end the source.
  case error(LocationError)
  /// A heading or attitude report, at the rate the sensor sends.
  indirect case heading(Heading)
}

/// Where locations come from: a log file, standard input, a serial receiver, a TCP NMEA
/// stream, a gpsd daemon.
///
/// A source reads on a thread of its own and reports through the sink it is started
/// with. The manager knows nothing else about it, so new kinds of source need no change
/// to the manager.
public protocol LocationSource: AnyObject, Sendable {
  /// A short description for messages (`fixtures/walk.nmea`, `tcp://host:port`).
  var name: String { get }
  /// Starts reading; events go to `sink`, from the source's own thread, in order.
  func start(_ sink: @escaping @Sendable (SourceEvent) -> Void)
  /// Stops reading and releases the file, device or socket. When it returns the reading
  /// thread has ended and `sink` is not called again. It may be called from within the
  /// sink; then the thread ends as soon as the sink returns, and the next call from
  /// elsewhere (the manager makes one whenever updates are stopped) waits for that end.
  /// Calling it again, or on a source that is not running, does no harm.
  func stop()
  /// Bytes received so far, for telling silence from input that yields nothing (`/dev/zero`,
  /// a receiver at the wrong baud rate); 0 for sources that do not count them.
  var receivedBytes: Int { get }
}

extension LocationSource {
  public var receivedBytes: Int { 0 }
}

/// What a receiver without a fix still says: the time, and the satellites in view with
/// their signal strength (the cold start, when a user most wants to see why there is no
/// fix).
public struct SkyView: Sendable, Equatable {
  /// The receiver's UTC time, when it gave a date with it.
  public var timestamp: Timestamp?
  /// The receiver's UTC time of day, when it gave one.
  public var timeOfDay: TimeOfDay?
  /// The satellites in view.
  public var satellites: [SatelliteInfo]
  /// How many it uses.
  public var satellitesUsed: Int?
  /// The device, for a source with several (gpsd).
  public var device: String?

  /// A sky view; `nil` and empty for what the cycle did not give.
  public init(
    timestamp: Timestamp? = nil, timeOfDay: TimeOfDay? = nil, satellites: [SatelliteInfo] = [],
    satellitesUsed: Int? = nil, device: String? = nil
  ) {
    self.device = device
    self.timestamp = timestamp
    self.timeOfDay = timeOfDay ?? timestamp?.timeOfDay
    self.satellites = satellites
    self.satellitesUsed = satellitesUsed
  }
}
