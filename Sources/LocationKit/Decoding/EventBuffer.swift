import NMEA

/// A worker's events for one chunk, stored until the merger hands them over in order,
/// each moved out once.
///
/// An array cannot give up an element without something left in its place: writing that
/// placeholder copies a whole event (a fix is 240 bytes) for every event handed over.
/// Here the events handed over are simply no longer counted as held.
final class EventBuffer: @unchecked Sendable {
  // @unchecked Sendable: one thread at a time uses a buffer. A worker fills it and stores
  // it in the ``ChunkQueue`` (under its lock); the merger takes it from there (under the
  // same lock), hands its events over, and puts it back among the spares (under that
  // list's lock) before a worker takes it again. Each hand-over is ordered by a lock.
  private var base: UnsafeMutablePointer<DecoderEvent>
  private var capacity: Int
  /// The events stored, from 0: those below ``firstHeld`` are gone (handed over or
  /// dropped), the rest are held.
  private(set) var count = 0
  private var firstHeld = 0

  /// A buffer with room for `capacity` events. Only the pages the events fill become
  /// resident.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
    base = UnsafeMutablePointer<DecoderEvent>.allocate(capacity: self.capacity)
  }

  deinit {
    removeAll()
    base.deallocate()
  }

  /// Stores `event` after the others.
  func append(_ event: consuming DecoderEvent) {
    if count == capacity {
      // Not reached within a chunk's budget (``ChunkPlan/maximumEvents`` is the
      // capacity), but never written past.
      let larger = UnsafeMutablePointer<DecoderEvent>.allocate(capacity: 2 * capacity)
      (larger + firstHeld).moveInitialize(from: base + firstHeld, count: count - firstHeld)
      base.deallocate()
      base = larger
      capacity *= 2
    }
    (base + count).initialize(to: event)
    count += 1
  }

  /// Hands the events of `range` to `body` in order, each moved out, with its index; the
  /// events before `range` not yet handed over are dropped. Ranges are taken in
  /// ascending order. Stops, and drops nothing more, when `body` returns `false`;
  /// returns whether every event of `range` was handed over.
  func take(_ range: Range<Int>, _ body: (Int, consuming DecoderEvent) -> Bool) -> Bool {
    precondition(range.lowerBound >= firstHeld && range.upperBound <= count, "events taken out of order")
    (base + firstHeld).deinitialize(count: range.lowerBound - firstHeld)
    firstHeld = range.lowerBound
    for index in range {
      // Counted as gone before the call: the event is the handler's from here on.
      firstHeld = index + 1
      guard body(index, (base + index).move()) else { return false }
    }
    return true
  }

  /// What a stored event is, as far as handing it over cares.
  enum Kind {
    case fix, heading
    /// A sentence, a rejection or an accepted sentence: its line moves at hand-over.
    case carriesLine
  }

  /// The kind of the event at `index`, which is held. (Asking an event its case copies
  /// all of it: for the few that are not fixes.)
  func kind(at index: Int) -> Kind {
    precondition(index >= firstHeld && index < count, "an event not held")
    return switch (base + index).pointee {
    case .fix: .fix
    case .heading: .heading
    case .sentence, .accepted, .rejected: .carriesLine
    }
  }

  /// Drops every event held and empties the buffer, keeping its room.
  func removeAll() {
    (base + firstHeld).deinitialize(count: count - firstHeld)
    count = 0
    firstHeld = 0
  }
}
