import LocationKit

/// Cuts a track into its trips for `export --split trips`: a fix comes out once it is
/// known to belong to a trip that reached the recogniser's minimum distance, and the fixes
/// of stops (the standing at either end, the noise of a cancelled start) never do. Memory
/// stays bounded: what waits is at most the stop duration's fixes, plus the start of a
/// trip until it has gone its minimum distance (both capped at `limit` fixes, beyond
/// which the oldest are let through or dropped).
public struct TripSplitter {
  private var recognizer = MovementRecognizer()
  /// Recent fixes outside any trip, for the start of the next.
  private var before: [Location] = []
  /// Fixes of a trip that has not yet gone its minimum distance.
  private var unconfirmed: [Location] = []
  /// Fixes of a trip standing still, which either resumes (they are part of it) or ends.
  private var standing: [Location] = []
  private var confirmed = false
  private var startsTrip = false
  /// The most fixes held back at once, in each of the splitter's waiting lists.
  public let limit = 4096

  /// A splitter with the recogniser's defaults (a stop of a minute ends a trip).
  public init() {}

  /// Adds a fix; returns the fixes now known to be in a trip, with whether each starts one.
  public mutating func add(_ location: Location) -> [(Location, Bool)] {
    let event = recognizer.add(location)
    guard let event else {
      if recognizer.trip == nil {
        before.append(location)
        if before.count > limit { before.removeFirst(before.count - limit / 2) }
        return []
      }
      // In a trip, standing (no event): held until the trip goes on or ends.
      standing.append(location)
      if standing.count > limit { return release(Array(standing.prefix(limit / 2)), dropping: limit / 2) }
      return []
    }
    switch event.state {
    case .began:
      let start = event.trip.start
      unconfirmed = before.filter { Trip.elapsed(from: start, to: $0) >= 0 } + [location]
      before = []
      standing = []
      confirmed = false
      startsTrip = true
      return confirmIfFar(event.trip)
    case .changed:
      let resumed = standing + [location]
      standing = []
      if confirmed { return emit(resumed) }
      unconfirmed += resumed
      if unconfirmed.count > limit { unconfirmed.removeFirst(unconfirmed.count - limit) }
      return confirmIfFar(event.trip)
    case .ended, .cancelled:
      return end(event, after: location)
    case .possible:
      return []
    }
  }

  /// Ends a trip under way at the end of the track.
  public mutating func finish() -> [(Location, Bool)] {
    guard let event = recognizer.finish() else { return [] }
    return end(event, after: nil)
  }

  private mutating func end(_ event: MovementEvent, after location: Location?) -> [(Location, Bool)] {
    // The trip ends at the first fix of its stop; the rest of the stop is not exported.
    var out: [(Location, Bool)] = []
    if event.state == .ended {
      let end = event.trip.end
      let last = standing.filter { Trip.elapsed(from: $0, to: end) >= 0 }
      if !confirmed {
        unconfirmed += last
        out = emit(unconfirmed)
      } else {
        out = emit(last)
      }
    }
    unconfirmed = []
    standing = []
    confirmed = false
    before = location.map { [$0] } ?? []
    return out
  }

  private mutating func confirmIfFar(_ trip: Trip) -> [(Location, Bool)] {
    guard !confirmed, trip.distance >= recognizer.minimumDistance else { return [] }
    confirmed = true
    let fixes = unconfirmed
    unconfirmed = []
    return emit(fixes)
  }

  private mutating func emit(_ fixes: [Location]) -> [(Location, Bool)] {
    var out: [(Location, Bool)] = []
    out.reserveCapacity(fixes.count)
    for fix in fixes {
      out.append((fix, startsTrip))
      startsTrip = false
    }
    return out
  }

  private mutating func release(_ fixes: [Location], dropping count: Int) -> [(Location, Bool)] {
    standing.removeFirst(count)
    return confirmed ? emit(fixes) : []
  }
}
