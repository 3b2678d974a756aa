import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Everything the watch screen shows, as a value: the screen is a pure function of it
/// (see ``WatchScreen``), so that frames can be tested without a terminal.
///
/// Times of arrival and of errors are wall-clock seconds since the Unix epoch, compared
/// with the `now` a frame is drawn at to show ages.
struct WatchModel: Sendable {
  /// The settings of the display (`--coords`, `--units`).
  struct Options: Sendable, Equatable {
    var coordinates = CoordinateStyle.decimal
    var units = UnitSystem.metric
  }

  /// Where the fixes come from, as shown in the title (`fixtures/walk.nmea`).
  let sourceName: String
  /// The device shown, for a source with several (gpsd), and its place among them.
  var device: String?
  var devices = (index: 1, count: 1)
  let options: Options
  /// The latest location delivered.
  private(set) var location: Location?
  /// The local time zone at the latest fix's time, for its local time.
  private(set) var localZone: LocalZone?
  /// Trips and stops; its odometer gives the distance travelled, path length and
  /// displacement since the first fix.
  private(set) var movement = MovementRecognizer()
  /// Whether the receiver is moving, and since which fix: the trip's start while moving,
  /// the first fix of the stop while standing.
  private(set) var motion: (moving: Bool, since: Location)?
  /// The most recent positions, oldest first, for the map.
  private(set) var track = TrackRing(capacity: WatchModel.trackCapacity)
  /// What the receiver says while it has no fix (time, satellites in view); cleared by
  /// the next location, which carries its own.
  private(set) var sky: SkyView?
  /// How many locations were delivered.
  private(set) var fixCount = 0
  /// When the latest location arrived.
  private(set) var lastFixAt: Double?
  /// The last error the manager reported, and when.
  private(set) var lastError: LocationError?
  private(set) var lastErrorAt: Double?
  /// The last line something wrote on standard error while the screen was up (rejected
  /// lines under `--verbose`), and when.
  private(set) var lastMessage: String?
  private(set) var lastMessageAt: Double?
  /// Whether the source reached its end (a log file replayed to the last line).
  private(set) var ended = false
  /// The anchor watch, with `--anchor`.
  var anchor: AnchorWatch?

  /// Distance travelled, path length and displacement since the first fix.
  var odometer: TrackOdometer { movement.odometer }

  /// How many positions the map keeps: over an hour of a 1 Hz receiver.
  static let trackCapacity = 4096

  /// An empty model: no fix yet.
  init(sourceName: String, options: Options = Options()) {
    self.sourceName = TextWidth.sanitized(sourceName)
    self.options = options
  }

  /// Takes in a new location that arrived at `time`; `zone` is the local time zone at the
  /// location's timestamp.
  mutating func add(_ location: Location, at time: Double, zone: LocalZone?) {
    self.location = location
    localZone = zone
    sky = nil
    _ = movement.add(location)
    let moving = movement.odometer.isMoving
    // A fix without a time cannot start a stretch of moving or stopping: it has no start.
    if location.hasTime, motion?.moving != moving {
      motion = (moving, moving ? movement.trip?.start ?? location : location)
    }
    track.append(TrackPoint(latitude: location.latitude, longitude: location.longitude))
    fixCount += 1
    lastFixAt = time
  }

  /// The latest heading report with a heading (compass, dual-antenna receiver).
  private(set) var heading: Heading?

  /// What a motion source says, with `--motion`; `nil` without one.
  var motionPanel: MotionPanel?

  /// Takes in a heading report.
  mutating func update(_ heading: Heading) {
    if heading.direction != nil { self.heading = heading }
  }

  /// Takes in what the receiver says in a cycle without a fix.
  mutating func update(_ sky: SkyView) {
    self.sky = sky
  }

  /// The satellites to show: the latest fix's, or while there is none, those the
  /// receiver reports in view.
  var satellites: [SatelliteInfo] { sky?.satellites ?? location?.satellites ?? [] }

  /// Notes an error reported at `time`; ``LocationError/Code/sourceEnded`` marks the end.
  mutating func fail(_ error: LocationError, at time: Double) {
    if error.code == .sourceEnded { ended = true }
    // The watchdog's "no data for 3 s" says less than the reason already on screen
    // ("cannot connect to ...: connection refused") while nothing has come since.
    if error.code == .locationUnknown, error.message.hasPrefix("no data"), let last = lastError,
      last.code != .locationUnknown, (lastFixAt ?? -.infinity) < (lastErrorAt ?? 0)
    {
      return
    }
    lastError = LocationError(error.code, TextWidth.sanitized(error.message), final: error.isFinal)
    lastErrorAt = time
  }

  /// Notes a line written on standard error at `time`.
  mutating func note(_ message: String, at time: Double) {
    lastMessage = TextWidth.sanitized(message)
    lastMessageAt = time
  }
}

/// One position of the track, degrees.
struct TrackPoint: Sendable, Equatable {
  var latitude: Double
  var longitude: Double
}

/// The most recent track points in a fixed amount of memory: once full, each new point
/// replaces the oldest.
struct TrackRing: Sendable {
  let capacity: Int
  private var storage: [TrackPoint] = []
  /// Where the oldest point is once the storage is full.
  private var start = 0

  /// An empty ring that keeps at most `capacity` points.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
    storage.reserveCapacity(self.capacity)
  }

  var count: Int { storage.count }
  var isEmpty: Bool { storage.isEmpty }

  mutating func append(_ point: TrackPoint) {
    if storage.count < capacity {
      storage.append(point)
    } else {
      storage[start] = point
      start = (start + 1) % capacity
    }
  }

  /// The points, oldest first.
  var points: [TrackPoint] { Array(storage[start...] + storage[..<start]) }
}

/// A local time zone at one moment: its offset from UTC and its abbreviation.
struct LocalZone: Sendable, Equatable {
  /// Seconds east of UTC.
  var offset: Int
  /// `CEST`, or a numeric form when the zone has no name.
  var abbreviation: String

  /// Creates a zone; the abbreviation is sanitised for the terminal.
  init(offset: Int, abbreviation: String) {
    self.offset = offset
    self.abbreviation = TextWidth.sanitized(abbreviation)
  }

  /// The zone of the system (or `TZ`) at `secondsSinceEpoch`, from localtime_r(3).
  static func system(at secondsSinceEpoch: Double) -> LocalZone? {
    var time = time_t(secondsSinceEpoch.rounded(.down))
    var parts = Glibc.tm()
    guard localtime_r(&time, &parts) != nil else { return nil }
    let name = parts.tm_zone.map { String(cString: $0) } ?? ""
    return LocalZone(offset: Int(parts.tm_gmtoff), abbreviation: name)
  }

  /// `timestamp` shifted into this zone, for its local date and time of day.
  func local(_ timestamp: Timestamp) -> Timestamp {
    Timestamp(microsecondsSinceEpoch: timestamp.microsecondsSinceEpoch + Int64(offset) * 1_000_000)
  }
}
