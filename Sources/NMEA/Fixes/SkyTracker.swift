#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The satellites in view (from GSV groups) and those used in the fix (from GSA), kept
/// for ``FixAssembler``.
///
/// Built for a stream of ten cycles a second: nothing here hashes or allocates per
/// sentence. Groups live in a short array in output order, the used satellites in a
/// bit set, and the list a fix carries is rebuilt only when the sky or the used set
/// changed (fixes in between share one array).
struct SkyTracker {
  /// Groups of GSV sentences that have not been refreshed (or, while incomplete,
  /// continued) for this many cycles are dropped: that constellation or signal is no
  /// longer tracked.
  static let lifetime = 20

  /// One GSV group: the satellites of one talker and signal.
  private struct Group {
    var talker: Talker
    var signalID: Int?
    /// The satellites of the last complete group, and the cycle it completed in.
    var satellites: [SatelliteInfo] = []
    var cycle = 0
    var isComplete = false
    /// The group being received, and the cycle of its latest part.
    var pending: [SatelliteInfo] = []
    var pendingCycle = 0
    var isPending = false

    /// Makes the pending list the group's; the old list's storage is reused next time.
    mutating func complete(cycle: Int) {
      swap(&satellites, &pending)
      isPending = false
      isComplete = true
      self.cycle = cycle
    }

    /// Output order: by talker, then signal ID (none first).
    func precedes(_ talker: Talker, _ signalID: Int?) -> Bool {
      if self.talker.rawValue != talker.rawValue { return self.talker.rawValue < talker.rawValue }
      guard let other = signalID else { return false }
      guard let mine = self.signalID else { return true }
      return mine < other
    }
  }

  private var groups: [Group] = []
  /// Bits of (constellation, satellite ID) pairs: used in the fix, and being collected
  /// from the current cycle's GSAs.
  private var used: [UInt64]
  private var usedThisCycle: [UInt64]
  /// The list handed out with fixes, valid until `isStale`.
  private var snapshot: [SatelliteInfo] = []
  private var isStale = false

  /// Satellite IDs are 0–999 in GSA and GSV; each constellation (and none) gets 1024 bits.
  private static let idsPerConstellation = 1024
  private static let words = 8 * idsPerConstellation / 64

  init() {
    used = Array(repeating: 0, count: Self.words)
    usedThisCycle = used
  }

  @inline(__always)
  private static func bit(_ constellation: Constellation?, _ id: Int) -> Int? {
    guard id >= 0, id < idsPerConstellation else { return nil }
    // Raw value 4 is no constellation's: it stands for an unknown one.
    return (constellation?.rawValue ?? 4) * idsPerConstellation + id
  }

  /// Whether this tracker will give the same satellites as `other` from here on, when
  /// its cycles are numbered from `cycle` and the other's from `otherCycle`: only how long
  /// ago a group was seen counts, and any age past ``lifetime`` counts the same.
  func continuesLike(_ other: SkyTracker, cycle: Int, otherCycle: Int) -> Bool {
    func age(_ seen: Int, _ now: Int) -> Int { min(now - seen, Self.lifetime + 1) }
    guard groups.count == other.groups.count, isStale == other.isStale, snapshot == other.snapshot,
      Self.equal(used, other.used), Self.equal(usedThisCycle, other.usedThisCycle)
    else { return false }
    for (mine, theirs) in zip(groups, other.groups) {
      guard mine.talker == theirs.talker, mine.signalID == theirs.signalID,
        mine.isComplete == theirs.isComplete, mine.isPending == theirs.isPending,
        mine.satellites == theirs.satellites, mine.pending == theirs.pending,
        !mine.isComplete || age(mine.cycle, cycle) == age(theirs.cycle, otherCycle),
        !mine.isPending || age(mine.pendingCycle, cycle) == age(theirs.pendingCycle, otherCycle)
      else { return false }
    }
    return true
  }

  // MARK: GSA

  /// Starts the used list of a cycle (at its first GSA).
  mutating func beginUsed() {
    usedThisCycle.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
  }

  /// Marks a satellite as used in the current cycle.
  mutating func markUsed(_ constellation: Constellation?, _ id: Int) {
    guard let bit = Self.bit(constellation, id) else { return }
    usedThisCycle[bit >> 6] |= 1 << UInt64(bit & 63)
  }

  private func isUsed(_ satellite: SatelliteInfo) -> Bool {
    guard let bit = Self.bit(satellite.constellation, satellite.id) else { return false }
    return used[bit >> 6] & 1 << UInt64(bit & 63) != 0
  }

  private static func equal(_ first: [UInt64], _ second: [UInt64]) -> Bool {
    first.count == second.count
      && first.withUnsafeBytes { first in
        second.withUnsafeBytes { second in memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0 }
      }
  }

  // MARK: GSV

  /// Adds one GSV sentence, received in cycle number `cycle`.
  mutating func add(_ gsv: GSV, cycle: Int) {
    var index = groups.firstIndex { $0.talker == gsv.talker && $0.signalID == gsv.signalID }
    if index == nil {
      // A group that does not start here has nothing to continue: nothing to keep.
      guard gsv.messageNumber == 1 else { return }
      let position = groups.firstIndex { !$0.precedes(gsv.talker, gsv.signalID) } ?? groups.endIndex
      groups.insert(Group(talker: gsv.talker, signalID: gsv.signalID), at: position)
      index = position
    }
    let group = index!
    if gsv.messageNumber == 1 {
      groups[group].pending.removeAll(keepingCapacity: true)
      groups[group].isPending = true
    }
    guard groups[group].isPending, groups[group].pending.count <= (gsv.messageNumber - 1) * 4 else {
      groups[group].isPending = false
      return
    }
    // Read through a pointer: subscripting the inline array copies all of it per access.
    withUnsafePointer(to: gsv.entries) { entries in
      entries.withMemoryRebound(to: GSV.Satellite.self, capacity: 4) { entries in
        for entry in 0..<gsv.entryCount {
          let satellite = entries[entry]
          let constellation =
            gsv.talker.constellation.flatMap { talkerSystem in
              talkerSystem == .gps && satellite.id > 32 ? Constellation(nmeaSatelliteID: satellite.id) : talkerSystem
            } ?? Constellation(nmeaSatelliteID: satellite.id)
          groups[group].pending.append(
            SatelliteInfo(
              constellation: constellation, id: satellite.id, signalID: gsv.signalID,
              elevation: satellite.elevation, azimuth: satellite.azimuth, snr: satellite.snr))
        }
      }
    }
    groups[group].pendingCycle = cycle
    if gsv.messageNumber == gsv.messageCount {
      groups[group].complete(cycle: cycle)
      isStale = true
    }
  }

  // MARK: Fixes

  /// The satellites in view for the fix of cycle number `cycle`, with used flags; with
  /// `hadGSA`, the used list collected in that cycle replaces the previous one.
  mutating func satellites(cycle: Int, hadGSA: Bool) -> [SatelliteInfo] {
    if hadGSA {
      if !Self.equal(usedThisCycle, used) { isStale = true }
      // The cycle's list is kept; the next cycle's first GSA clears the other.
      swap(&used, &usedThisCycle)
    }
    var index = groups.startIndex
    while index < groups.endIndex {
      if groups[index].isComplete && cycle - groups[index].cycle > Self.lifetime {
        groups[index].isComplete = false
        groups[index].satellites.removeAll()
        isStale = true
      }
      if groups[index].isPending && cycle - groups[index].pendingCycle > Self.lifetime {
        groups[index].isPending = false
      }
      if !groups[index].isComplete && !groups[index].isPending {
        groups.remove(at: index)
      } else {
        index += 1
      }
    }
    if isStale {
      var list: [SatelliteInfo] = []
      list.reserveCapacity(groups.reduce(0) { $0 + ($1.isComplete ? $1.satellites.count : 0) })
      for group in groups where group.isComplete {
        for var satellite in group.satellites {
          satellite.isUsed = isUsed(satellite)
          list.append(satellite)
        }
      }
      snapshot = list
      isStale = false
    }
    return snapshot
  }
}
