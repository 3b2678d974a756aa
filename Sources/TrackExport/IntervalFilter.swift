import LocationKit

/// One fix per `interval` seconds of each device's own time (gpxlogger's `-i`), on a grid
/// from its first fix, so that a 1 Hz receiver at 5 s gives :00, :05, :10, and a log gives
/// what the live receiver would have.
///
/// A fix counts as on time from half the device's own cycle before it is due: the median
/// of its last intervals between fixes, so that one late or early timestamp does not
/// move it. Receivers' clocks step by their cycle, but their timestamps can wander around
/// it (a 1 Hz receiver's :04.985 for :05). The grid starts at the first fix, whose own
/// wander it carries, so any wander under a quarter of the cycle still lands on the fix
/// nearest each grid point; an interval shorter than the cycle keeps every fix. The untimed positions gpsd gives before it knows the date are placed by
/// the monotonic clock instead.
public struct IntervalFilter: Sendable {
  /// The seconds between fixes kept.
  public let interval: Double
  private struct Device {
    var due: Double
    var previous: Double
    /// The last intervals between fixes, oldest first (at most ``Device/kept``).
    var intervals: [Double] = []
    static let kept = 9

    /// The median of the intervals; 0 before there is one.
    var cycle: Double {
      guard !intervals.isEmpty else { return 0 }
      return intervals.sorted()[intervals.count / 2]
    }
  }
  private var devices: [String: Device] = [:]

  /// Keeps one fix per `interval` seconds (above 0) of each device's time.
  public init(interval: Double) {
    self.interval = interval
  }

  /// Whether `location` is due; it is noted either way. `monotonicNow` (default: the
  /// monotonic clock now) places a fix without a time.
  public mutating func admits(_ location: Location, monotonicNow: Double? = nil) -> Bool {
    let time =
      location.timestamp?.secondsSinceEpoch
      ?? (location.hasTime ? Double(location.timeOfDay.microseconds) / 1e6 : monotonicNow ?? SystemClock.monotonic())
    let key = location.device ?? ""
    // A fix a few cycles late (a reordered datagram, a stale report) is off the grid:
    // left out, as gpxlogger would.
    if let device = devices[key], time < device.previous, device.previous - time <= 3 * device.cycle {
      return false
    }
    guard var device = devices[key], time >= device.previous else {
      // The first fix, or the time went back further (another session, a dateless log
      // past midnight): a new grid from here.
      // Bounded whatever the senders: at most as many grids as the manager has devices.
      if devices.count >= 256, devices[key] == nil { devices.removeAll(keepingCapacity: true) }
      devices[key] = Device(due: time + interval, previous: time)
      return true
    }
    if time > device.previous {
      if device.intervals.count == Device.kept { device.intervals.removeFirst() }
      device.intervals.append(time - device.previous)
    }
    device.previous = time
    let slack = device.cycle / 2
    guard time >= device.due - slack else {
      devices[key] = device
      return false
    }
    // The next grid point after this fix (after a gap, the first one past it).
    let steps = ((time + slack - device.due) / interval).rounded(.down) + 1
    device.due += steps * interval
    devices[key] = device
    return true
  }
}
