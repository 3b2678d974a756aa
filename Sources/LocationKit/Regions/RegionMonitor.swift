/// Whether the receiver is in a region, as far as its fixes can tell.
public enum RegionState: String, Sendable, Equatable, CustomStringConvertible {
  /// Inside by more than the position's uncertainty allows at ``RegionMonitor/confidence``.
  case inside
  /// Outside by more than that.
  case outside
  /// Not known: no fix yet, the fix lost, or a position too uncertain for the region's
  /// size (see ``Region/resolutionRadius``).
  case unknown

  public var description: String { rawValue }
}

/// A region's state determined, changed or asked for (``LocationManager/requestState(for:)``).
public struct RegionEvent: Sendable, Equatable {
  /// A crossing between known states.
  public enum Transition: String, Sendable, Equatable {
    /// From outside to inside (reported when the region's ``Region/notifyOnEntry`` holds).
    case entered
    /// From inside to outside (when ``Region/notifyOnExit`` holds).
    case exited
  }

  /// The region.
  public var region: Region
  /// Its state now.
  public var state: RegionState
  /// The crossing this state completes, if any: ``Transition/entered`` or
  /// ``Transition/exited`` when the last known state (before any unknown stretch) was the
  /// other one.
  public var transition: Transition?
  /// The fix that decided; `nil` for an unknown state without one.
  public var location: Location?
  /// The estimated position's signed distance to the boundary, metres (negative inside);
  /// `nil` without an estimate.
  public var distance: Double?
  /// How far past the boundary the estimate must be for a state to change: ``RegionMonitor/z``
  /// times the position's one-sigma uncertainty, metres. A true position past the
  /// boundary by twice this is told at ``RegionMonitor/confidence`` with the next fix.
  public var threshold: Double?
  /// The device, for a source of several (`nil` for one receiver).
  public var device: String?
  /// Whether ``LocationManager/requestState(for:)`` asked for it (it is no change).
  public var isRequested = false

  /// An event of `region` in `state`.
  public init(region: Region, state: RegionState, transition: Transition? = nil) {
    self.region = region
    self.state = state
    self.transition = transition
  }
}

/// Tells when a receiver enters and leaves regions, deciding with the position's
/// uncertainty rather than against the raw fix, so that jitter at a boundary gives no
/// flurry of events, and with hysteresis.
///
/// Each fix updates an estimate of where the receiver is and how sure that is (from the
/// fix's own accuracy and the scatter the receiver shows; see the README's "Regions and
/// the anchor watch"). A region's state becomes ``RegionState/outside`` once the estimate
/// is outside by more than ``z`` sigmas, and ``RegionState/inside`` once inside by more:
/// a one-sided test at ``confidence``. Between, the state stays as it was. It is
/// ``RegionState/unknown`` before the first decision, after a fix loss (``lose(device:)``)
/// and while ``z`` sigmas exceed the region's ``Region/resolutionRadius``.
///
/// A value type, one state per region per device, in the shape of ``MovementRecognizer``.
public struct RegionMonitor: Sendable {
  /// The one-sided confidence of every decision: 99 %.
  public static let confidence = 0.99
  /// The standard normal quantile of ``confidence``: the sigmas past the boundary.
  public static let z = 2.326_347_874

  /// The regions watched, in the order they were added.
  public private(set) var regions: [Region] = []

  private struct Status: Sendable {
    var state = RegionState.unknown
    var lastKnown: RegionState?
    /// Whether the state is unknown because the uncertainty was larger than the region:
    /// it is decided again only once the threshold is below half the region's size, so
    /// that an uncertainty hovering about it gives no flurry of unknown states.
    var unresolved = false
  }

  private struct Device: Sendable {
    var estimator = PositionEstimator()
    var statuses: [String: Status] = [:]
    var latest: (location: Location, estimate: PositionEstimator.Estimate?)?
  }

  private var devices: [String: Device] = [:]
  private var deviceOrder: [String] = []
  /// When each device was last heard, by the count of fixes so far.
  private var heardAt: [String: Int] = [:]
  private var fixCount = 0

  /// The most devices with states of their own; beyond, the one heard least recently is
  /// forgotten.
  public static let maximumDevices = 256

  /// A monitor watching nothing yet.
  public init() {}

  /// Where each region is in ``regions``, by identifier.
  private var index: [String: Int] = [:]

  /// Starts watching `region`, in state unknown for every device; replaces a region of the
  /// same identifier, in its place (its states are forgotten).
  public mutating func add(_ region: Region) {
    if let place = index[region.identifier] {
      regions[place] = region
      for device in deviceOrder { devices[device]?.statuses[region.identifier] = nil }
    } else {
      index[region.identifier] = regions.count
      regions.append(region)
    }
  }

  /// Stops watching the region named `identifier`.
  public mutating func remove(identifier: String) {
    guard let place = index.removeValue(forKey: identifier) else { return }
    regions.remove(at: place)
    for later in regions[place...] { index[later.identifier]! -= 1 }
    for device in deviceOrder { devices[device]?.statuses[identifier] = nil }
  }

  /// Forgets every device and state, keeping the regions (a new run of updates).
  public mutating func forgetStates() {
    devices = [:]
    deviceOrder = []
    heardAt = [:]
  }

  /// The state of `region` for `device` (`nil`: the source's one receiver, or the device
  /// heard last), as an event with ``RegionEvent/isRequested`` set.
  public func state(of region: Region, device: String? = nil) -> RegionEvent {
    let key = device ?? heardAt.max(by: { $0.value < $1.value })?.key ?? ""
    var event = RegionEvent(region: region, state: devices[key]?.statuses[region.identifier]?.state ?? .unknown)
    event.isRequested = true
    event.device = key.isEmpty ? nil : key
    if let latest = devices[key]?.latest {
      event.location = latest.location
      if let estimate = latest.estimate {
        event.distance = region.signedDistance(latitude: estimate.latitude, longitude: estimate.longitude)
        event.threshold = Self.z * estimate.sigma
      }
    }
    return event
  }

  /// How far past a boundary the latest estimate of `device` (`""` for a source that is one
  /// receiver) must be for a state to change, metres (``RegionEvent/threshold``); `nil`
  /// without an estimate.
  public func threshold(device: String = "") -> Double? {
    devices[device]?.latest?.estimate.map { Self.z * $0.sigma }
  }

  /// The devices heard so far, in order (`""` for a source that is one receiver).
  public var devicesHeard: [String] { deviceOrder }

  /// Adds a fix; returns the states it changes, in the order of ``regions``. A fix without
  /// a time changes nothing (nothing can be carried to it).
  public mutating func add(_ location: Location) -> [RegionEvent] {
    guard location.hasTime else { return [] }
    let key = location.device ?? ""
    if devices[key] == nil {
      // Bounded whatever the senders (a UDP port sprayed from many addresses): the device
      // heard least recently is forgotten.
      if deviceOrder.count >= Self.maximumDevices, let oldest = deviceOrder.min(by: { heardAt[$0]! < heardAt[$1]! }) {
        devices[oldest] = nil
        heardAt[oldest] = nil
        deviceOrder.removeAll { $0 == oldest }
      }
      devices[key] = Device()
      deviceOrder.append(key)
    }
    fixCount += 1
    heardAt[key] = fixCount
    let estimate = devices[key]!.estimator.add(location)
    devices[key]!.latest = (location, estimate)
    var events: [RegionEvent] = []
    for region in regions {
      var status = devices[key]!.statuses[region.identifier] ?? Status()
      var next = status.state
      var distance: Double?
      var threshold: Double?
      if let estimate {
        let margin = Self.z * estimate.sigma
        let signed = region.signedDistance(latitude: estimate.latitude, longitude: estimate.longitude)
        distance = signed
        threshold = margin
        if margin >= region.resolutionRadius {
          next = .unknown
          status.unresolved = true
        } else if status.unresolved, margin >= region.resolutionRadius / 2 {
          // Still too coarse to decide again.
        } else if signed > margin {
          next = .outside
          status.unresolved = false
        } else if signed < -margin {
          next = .inside
          status.unresolved = false
        }
      }
      devices[key]!.statuses[region.identifier] = status
      guard next != status.state else { continue }
      var event = RegionEvent(region: region, state: next)
      if next != .unknown {
        if status.lastKnown == .outside, next == .inside, region.notifyOnEntry { event.transition = .entered }
        if status.lastKnown == .inside, next == .outside, region.notifyOnExit { event.transition = .exited }
        status.lastKnown = next
      }
      status.state = next
      devices[key]!.statuses[region.identifier] = status
      event.location = location
      event.distance = distance
      event.threshold = threshold
      event.device = location.device
      events.append(event)
    }
    return events
  }

  /// The fix is lost for `device` (`nil`: every device): every region it was in a known
  /// state of becomes unknown, and the estimate starts afresh with the next fix. A crossing
  /// meanwhile is told when the state is known again.
  public mutating func lose(device: String? = nil) -> [RegionEvent] {
    let keys = device.map { [$0] } ?? deviceOrder
    var events: [RegionEvent] = []
    for key in keys {
      guard var entry = devices[key] else { continue }
      entry.estimator.reset()
      for region in regions {
        guard var status = entry.statuses[region.identifier], status.state != .unknown else { continue }
        status.state = .unknown
        entry.statuses[region.identifier] = status
        var event = RegionEvent(region: region, state: .unknown)
        event.device = key.isEmpty ? nil : key
        events.append(event)
      }
      devices[key] = entry
    }
    return events
  }
}
