/// Receives a location manager's updates and errors, on the manager's callback queue.
public protocol LocationManagerDelegate: AnyObject, Sendable {
  /// A new location that passed the desired accuracy and the distance filter. `previous`
  /// is the location delivered before it, `nil` on the first call.
  func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?)
  /// Something went wrong. Tell ``LocationError/Code/denied`` (final: updates have
  /// stopped) from ``LocationError/Code/locationUnknown`` (transient: updates resume by
  /// themselves) from the rest.
  func locationManager(_ manager: LocationManager, didFailWithError error: LocationError)
  /// A movement transition (began, changed, ended, cancelled), when the manager has a
  /// ``LocationManager/movementRecognizer``.
  func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent)
  /// A fix set aside as physically implausible (see ``FixPlausibility``): it is not
  /// delivered, and nothing counts it.
  func locationManager(_ manager: LocationManager, didSetAside location: Location, because reason: ImplausibleFix)
  /// A reporting cycle without a position: the receiver's time and the satellites it
  /// sees, each cycle until it has a fix.
  func locationManager(_ manager: LocationManager, didUpdateSky sky: SkyView)
  /// A heading or attitude report that passed the ``LocationManager/headingFilter``, while
  /// heading updates are on (``LocationManager/startUpdatingHeading()``), at the rate the
  /// sensor sends.
  func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading)
  /// A monitored region's state changed (or was asked for with
  /// ``LocationManager/requestState(for:)``): inside, outside or unknown; `event` says which
  /// fix decided and how far from the boundary the position is.
  func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent)
  /// The receiver entered a monitored region (after its ``locationManager(_:didDetermineState:for:event:)``).
  func locationManager(_ manager: LocationManager, didEnterRegion region: Region, event: RegionEvent)
  /// The receiver left a monitored region (after its ``locationManager(_:didDetermineState:for:event:)``).
  func locationManager(_ manager: LocationManager, didExitRegion region: Region, event: RegionEvent)
  /// Monitoring `region` failed: ``LocationError/Code/invalidSource`` for a region without
  /// an identifier or not monitored, ``LocationError/Code/locationUnknown`` for a region
  /// smaller than the position's uncertainty can resolve (its state stays unknown).
  func locationManager(_ manager: LocationManager, monitoringDidFailFor region: Region?, withError error: LocationError)
}

extension LocationManagerDelegate {
  public func locationManager(_ manager: LocationManager, didUpdate location: Location, previous: Location?) {}
  public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {}
  public func locationManager(_ manager: LocationManager, didRecognize movement: MovementEvent) {}
  public func locationManager(
    _ manager: LocationManager, didSetAside location: Location, because reason: ImplausibleFix
  ) {}
  public func locationManager(_ manager: LocationManager, didUpdateSky sky: SkyView) {}
  public func locationManager(_ manager: LocationManager, didUpdateHeading heading: Heading) {}
  public func locationManager(
    _ manager: LocationManager, didDetermineState state: RegionState, for region: Region, event: RegionEvent
  ) {}
  public func locationManager(_ manager: LocationManager, didEnterRegion region: Region, event: RegionEvent) {}
  public func locationManager(_ manager: LocationManager, didExitRegion region: Region, event: RegionEvent) {}
  public func locationManager(
    _ manager: LocationManager, monitoringDidFailFor region: Region?, withError error: LocationError
  ) {}
}

/// One thing a location manager reports, for ``LocationManager/updates``.
public indirect enum LocationEvent: Sendable, Equatable {
  // Indirect: an event is one reference, so that handing it from the source's thread to
  // the callback queue (a list, a closure, a dispatch block) retains it instead of
  // copying two locations each time.
  /// A location that passed the filters, and the one delivered before it (`nil` first).
  case update(Location, previous: Location?)
  /// An error: ``LocationError/Code/denied`` is final and ends the sequence,
  /// ``LocationError/Code/locationUnknown`` is transient.
  case failure(LocationError)
  /// A movement transition, when the manager has a ``LocationManager/movementRecognizer``.
  case movement(MovementEvent)
  /// A fix set aside as physically implausible.
  case setAside(Location, ImplausibleFix)
  /// A reporting cycle without a position: time and satellites in view.
  case sky(SkyView)
  /// A heading or attitude report, while heading updates are on.
  case heading(Heading)
  /// A monitored region's state determined or changed, or asked for.
  case region(RegionEvent)
  /// Monitoring a region failed (see
  /// ``LocationManagerDelegate/locationManager(_:monitoringDidFailFor:withError:)``).
  case regionFailure(Region?, LocationError)
}

/// Constants for ``LocationManager/headingFilter``.
public enum HeadingFilter {
  /// No filter: every heading reading is delivered.
  public static let none = -1.0
}

/// Constants for ``LocationManager/desiredAccuracy``, in metres, as in Core Location.
public enum LocationAccuracy {
  /// No bar: every fix with a position is delivered.
  public static let best = -1.0
  /// Fixes within 10 m (1 sigma).
  public static let nearestTenMeters = 10.0
  /// Fixes within 100 m.
  public static let hundredMeters = 100.0
  /// Fixes within 1 km.
  public static let kilometer = 1000.0
  /// Fixes within 3 km.
  public static let threeKilometers = 3000.0
}

/// Constants for ``LocationManager/distanceFilter``.
public enum LocationDistance {
  /// No filter: every fix is delivered.
  public static let none = -1.0
}
