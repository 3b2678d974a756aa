/// Merges the sentences of each reporting cycle into one ``Fix``.
///
/// A cycle is the run of sentences sharing one UTC time. Sentences that carry a position
/// (GGA, RMC, GLL, GNS) open a new cycle when their time differs from the current one;
/// sentences without a time (GSA, GSV, VTG, HDT) belong to the cycle they arrive in. A
/// cycle is complete when the next one starts, or when ``finish()`` is called (at the end
/// of the input, or when a live source goes quiet).
///
/// Positions are only taken from sentences that vouch for them (GGA quality above 0, RMC
/// and GLL status `A`, an FAA mode other than `N`). The fix mode comes from GSA when the
/// cycle has one, otherwise from the presence of an altitude.
public struct FixAssembler {
  private struct Cycle {
    var time: TimeOfDay
    var date: CalendarDate?
    var latitude: Double?
    var longitude: Double?
    var ggaQuality: FixQuality?
    var modeQuality: FixQuality?
    var gsaMode: FixMode?
    var navigationalStatus: NavigationalStatus?
    var altitude: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var course: Double?
    var magneticVariation: Double?
    var heading: Double?
    var dop = DilutionOfPrecision()
    var satellitesUsed: Int?
    var gsaUsedCount = 0
    var hasGSA = false
    var errorStatistics: ErrorStatistics?
    var differentialAge: Double?
    var differentialStation: Int?
  }

  /// The cycle being merged, valid while `hasCycle`. Not an optional: every field
  /// access then went through an out-of-line tag check.
  private var cycle = Cycle(time: TimeOfDay(microseconds: 0))
  private var hasCycle = false
  private var dates = DateTracker()
  private var previous: Fix?
  private var cycleCount = 0
  private var pendingErrors: (TimeOfDay, ErrorStatistics)?
  private var sky = SkyTracker()
  /// The fix of a cycle completed by a decoded sentence, until taken.
  private var completedFix: Fix?

  /// Creates an assembler; `date` names the date of the first cycle for logs that carry
  /// none (RMC and ZDA dates take over as soon as they come).
  public init(date: CalendarDate? = nil) {
    if let date { dates.seed(date) }
  }

  /// The kind of sentence seen last in the two most recent cycles, once they agree: the
  /// one that ends every cycle of this receiver (see ``completeCycleIfEnded()``).
  public private(set) var cycleEnder: Sentence.Kind?
  private var lastKindInCycle: Sentence.Kind?
  private var previousCandidate: Sentence.Kind?
  /// Set by a sentence whose data went to a cycle other than the current one.
  private var keptForAnotherCycle = false
  /// Whether the current cycle has had its ``cycleEnder``.
  private var cycleHasEnded = false

  /// Adds a sentence; returns the previous cycle's fix when this sentence starts a new
  /// cycle.
  public mutating func add(_ sentence: Sentence) -> Fix? {
    struct Adding: PayloadVisitor {
      let assembler: UnsafeMutablePointer<FixAssembler>
      func visit<Decoded: DecodedSentence>(_ sentence: Decoded) -> Bool { assembler.pointee.add(sentence) }
    }
    // Sentences of other types carry nothing for a fix, nor a kind to learn from.
    let completed = withUnsafeMutablePointer(to: &self) { assembler in
      var adding = Adding(assembler: assembler)
      return sentence.visitPayload(&adding) ?? false
    }
    return completed ? takeCompletedFix() : nil
  }

  /// Adds a decoded sentence of a known kind; `true` when it completed a cycle, whose fix
  /// ``takeCompletedFix()`` then hands out.
  ///
  /// The decoder comes this way. It builds no ``Sentence``, and no `Fix?` travels through
  /// the calls of every sentence: copying those payloads of a few hundred bytes, even
  /// empty ones, cost more than decoding the sentence.
  @inline(__always)
  mutating func add<Decoded: DecodedSentence>(_ sentence: Decoded) -> Bool {
    let kind: Sentence.Kind? = Decoded.kind
    if !hasCycle, cycleEnder != nil, kind == .gsa || kind == .vtg || kind == .hdt {
      // A sentence of the cycle came after the one taken as its end: relearn.
      cycleEnder = nil
      previousCandidate = nil
    }
    let closing = lastKindInCycle
    let completed = sentence.apply(to: &self)
    if completed {
      if let closing, closing == previousCandidate { cycleEnder = closing }
      previousCandidate = closing
    }
    // A GST or ZDA for another time (sent ahead of its cycle) does not end this one.
    let keptForLater = keptForAnotherCycle
    keptForAnotherCycle = false
    if hasCycle, let kind, kind != .gsv, kind != .txt, !keptForLater {
      lastKindInCycle = kind
      if kind == cycleEnder { cycleHasEnded = true }
    }
    return completed
  }

  /// Completes the current cycle if it has had the learned ``cycleEnder``, returning its
  /// fix; `nil` (and nothing changed) otherwise.
  ///
  /// A live source calls this when the receiver's burst is over (nothing more to read for
  /// now), so that the fix comes out at the end of the burst, not when the next cycle
  /// begins a second later. Sentences that came after the ender in the same burst (a ZDA
  /// once a second, a GST some receivers send late) are in it already. Only then:
  /// mid-stream, a sentence of the cycle may still come after the ender, and a log read at
  /// full speed must give the same fixes as the file.
  public mutating func completeCycleIfEnded() -> Fix? {
    guard hasCycle, cycleHasEnded else { return nil }
    lastKindInCycle = nil
    cycleHasEnded = false
    return finish()
  }

  /// The fix of the cycle the last ``add(_:)`` of a decoded sentence completed.
  mutating func takeCompletedFix() -> Fix {
    completedFix.take()!
  }

  /// Names the date of the first cycle unless the log has given one already.
  public mutating func seed(date: CalendarDate) { dates.seed(date) }

  // One `apply` per sentence type: what the sentence adds to the current cycle; `true`
  // when it started a new one and so completed the previous cycle.

  mutating func apply(_ gga: GGA) -> Bool {
    guard let time = gga.time else { return false }
    let done = begin(time)
    let valid = (gga.quality ?? .invalid) != .invalid
    cycle.ggaQuality = gga.quality
    if valid { setPosition(gga.latitude, gga.longitude) }
    if valid || gga.altitude != nil {
      cycle.altitude = gga.altitude ?? cycle.altitude
      cycle.geoidSeparation = gga.geoidSeparation ?? cycle.geoidSeparation
    }
    cycle.satellitesUsed = gga.satellitesUsed ?? cycle.satellitesUsed
    cycle.dop.horizontal = gga.hdop ?? cycle.dop.horizontal
    cycle.differentialAge = gga.differentialAge ?? cycle.differentialAge
    cycle.differentialStation = gga.differentialStation ?? cycle.differentialStation
    return done
  }

  mutating func apply(_ rmc: RMC) -> Bool {
    guard let time = rmc.time else { return false }
    let done = begin(time)
    if let date = rmc.date { cycle.date = date }
    let valid = rmc.isValid == true && (rmc.mode?.isValid ?? true)
    if valid {
      setPosition(rmc.latitude, rmc.longitude)
      cycle.speed = rmc.speed ?? cycle.speed
      cycle.course = rmc.course ?? cycle.course
      if let mode = rmc.mode { cycle.modeQuality = FixQuality(mode) }
    }
    cycle.magneticVariation = rmc.magneticVariation ?? cycle.magneticVariation
    cycle.navigationalStatus = rmc.navigationalStatus ?? cycle.navigationalStatus
    return done
  }

  mutating func apply(_ gll: GLL) -> Bool {
    guard let time = gll.time else { return false }
    let done = begin(time)
    if gll.isValid != false && (gll.mode?.isValid ?? true) {
      setPosition(gll.latitude, gll.longitude)
      if let mode = gll.mode { cycle.modeQuality = FixQuality(mode) }
    }
    return done
  }

  mutating func apply(_ gns: GNS) -> Bool {
    guard let time = gns.time else { return false }
    let done = begin(time)
    if let mode = gns.mode, mode.isValid {
      setPosition(gns.latitude, gns.longitude)
      cycle.modeQuality = FixQuality(mode)
      cycle.altitude = gns.altitude ?? cycle.altitude
      cycle.geoidSeparation = gns.geoidSeparation ?? cycle.geoidSeparation
    }
    cycle.satellitesUsed = gns.satellitesUsed ?? cycle.satellitesUsed
    cycle.dop.horizontal = gns.hdop ?? cycle.dop.horizontal
    cycle.navigationalStatus = gns.navigationalStatus ?? cycle.navigationalStatus
    cycle.differentialAge = gns.differentialAge ?? cycle.differentialAge
    cycle.differentialStation = gns.differentialStation ?? cycle.differentialStation
    return done
  }

  mutating func apply(_ vtg: VTG) -> Bool {
    guard hasCycle, vtg.mode?.isValid ?? true else { return false }
    cycle.speed = vtg.speed ?? cycle.speed
    cycle.course = vtg.course ?? cycle.course
    return false
  }

  mutating func apply(_ gsa: GSA) -> Bool {
    guard hasCycle else { return false }
    if !cycle.hasGSA { sky.beginUsed() }
    cycle.hasGSA = true
    if let mode = gsa.mode { cycle.gsaMode = max(cycle.gsaMode ?? mode, mode) }
    cycle.dop.position = gsa.pdop ?? cycle.dop.position
    cycle.dop.horizontal = gsa.hdop ?? cycle.dop.horizontal
    cycle.dop.vertical = gsa.vdop ?? cycle.dop.vertical
    cycle.gsaUsedCount += gsa.usedCount
    for index in 0..<gsa.usedCount {
      let id = Int(gsa.used[index])
      let constellation =
        gsa.constellation ?? gsa.talker.constellation.flatMap { talkerSystem in
          talkerSystem == .gps ? Constellation(nmeaSatelliteID: id) : talkerSystem
        } ?? Constellation(nmeaSatelliteID: id)
      sky.markUsed(constellation, id)
    }
    return false
  }

  mutating func apply(_ gsv: GSV) -> Bool {
    sky.add(gsv, cycle: cycleCount)
    return false
  }

  mutating func apply(_ gst: GST) -> Bool {
    guard let time = gst.time else { return false }
    let statistics = ErrorStatistics(
      rms: gst.rms, semiMajor: gst.semiMajor, semiMinor: gst.semiMinor,
      orientation: gst.orientation, latitude: gst.latitudeError,
      longitude: gst.longitudeError, altitude: gst.altitudeError)
    if hasCycle && cycle.time == time {
      cycle.errorStatistics = statistics
    } else {
      pendingErrors = (time, statistics)
      keptForAnotherCycle = true
    }
    return false
  }

  mutating func apply(_ zda: ZDA) -> Bool {
    if let date = zda.date, let time = zda.time {
      if hasCycle && cycle.time == time {
        cycle.date = date
      } else {
        dates.observe(date, at: time)
        keptForAnotherCycle = true
      }
    }
    return false
  }

  mutating func apply(_ hdt: HDT) -> Bool {
    guard hasCycle else { return false }
    cycle.heading = hdt.heading ?? cycle.heading
    return false
  }

  /// Completes the current cycle, if any, and returns its fix.
  public mutating func finish() -> Fix? {
    guard hasCycle else { return nil }
    hasCycle = false
    return makeFix(cycle)
  }

  /// Completes the current cycle, if any, into ``completedFix``; `true` if there was one.
  private mutating func completeCycle() -> Bool {
    guard hasCycle else { return false }
    completedFix = finish()
    return true
  }

  private mutating func begin(_ time: TimeOfDay) -> Bool {
    if hasCycle && cycle.time == time { return false }
    let done = completeCycle()
    lastKindInCycle = nil
    cycleHasEnded = false
    cycle = Cycle(time: time)
    hasCycle = true
    cycleCount += 1
    if let (pendingTime, statistics) = pendingErrors {
      if pendingTime == time { cycle.errorStatistics = statistics }
      pendingErrors = nil
    }
    return done
  }

  private mutating func setPosition(_ latitude: Double?, _ longitude: Double?) {
    guard let latitude, let longitude else { return }
    cycle.latitude = latitude
    cycle.longitude = longitude
  }

  private mutating func makeFix(_ cycle: Cycle) -> Fix {
    var fix = Fix(timeOfDay: cycle.time)
    if let date = cycle.date { dates.observe(date, at: cycle.time) }
    fix.time = dates.resolve(cycle.time)
    fix.quality = cycle.ggaQuality ?? cycle.modeQuality
    if fix.quality == .invalid, cycle.modeQuality != nil, cycle.modeQuality != .invalid {
      fix.quality = cycle.modeQuality
    }
    fix.navigationalStatus = cycle.navigationalStatus
    if let latitude = cycle.latitude, let longitude = cycle.longitude {
      fix.latitude = latitude
      fix.longitude = longitude
      fix.mode = cycle.altitude != nil || cycle.gsaMode == .threeD ? .threeD : .twoD
      fix.speed = cycle.speed
      fix.course = cycle.course
    }
    fix.altitudeMSL = cycle.altitude
    fix.geoidSeparation = cycle.geoidSeparation
    fix.magneticVariation = cycle.magneticVariation
    fix.heading = cycle.heading
    fix.dop = cycle.dop
    fix.satellitesUsed = cycle.satellitesUsed ?? (cycle.hasGSA ? cycle.gsaUsedCount : nil)
    fix.errorStatistics = cycle.errorStatistics
    fix.differentialAge = cycle.differentialAge
    fix.differentialStation = cycle.differentialStation

    fix.satellites = sky.satellites(cycle: cycleCount, hadGSA: cycle.hasGSA)

    if fix.hasPosition {
      if let statistics = cycle.errorStatistics, let latitude = statistics.latitude,
        let longitude = statistics.longitude
      {
        fix.horizontalAccuracy = (latitude * latitude + longitude * longitude).squareRoot()
        fix.verticalAccuracy = fix.mode == .threeD ? statistics.altitude : nil
        fix.accuracySource = .receiverStatistics
      } else if let hdop = cycle.dop.horizontal, hdop > 0 {
        let rangeError = UserEquivalentRangeError.metres(for: fix.quality)
        fix.horizontalAccuracy = hdop * rangeError
        if fix.mode == .threeD, let vdop = cycle.dop.vertical, vdop > 0 {
          fix.verticalAccuracy = vdop * rangeError
        }
        fix.accuracySource = .dilutionOfPrecision
      }
      if let previous, previous.hasPosition, let before = previous.altitudeMSL,
        let after = fix.altitudeMSL, fix.mode == .threeD, previous.mode == .threeD,
        let then = previous.time, let now = fix.time
      {
        let seconds = now.seconds(since: then)
        if seconds > 0 && seconds <= 60 { fix.climb = (after - before) / seconds }
      }
      previous = fix
    }
    return fix
  }
}
