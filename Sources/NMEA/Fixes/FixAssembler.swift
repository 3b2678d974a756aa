import Geodesy

/// Merges the sentences of each reporting cycle into one ``Fix``.
///
/// A cycle is the run of sentences sharing one UTC time. Sentences that carry a position
/// (GGA, RMC, GLL, GNS) open a new cycle when their time differs from the current one;
/// sentences without a time (GSA, GSV, VTG, HDT) belong to the cycle they arrive in. A
/// cycle is complete when the next one starts, or when ``finish()`` is called (at the end
/// of the input, or when a live source goes quiet).
///
/// Positions are only taken from sentences that vouch for them (GGA quality above 0, RMC
/// and GLL status `A`, an FAA mode other than `N`, `$PUBX,00` status other than `NF`).
///
/// What a cycle lacks is filled in as follows, each marked as such in the fix:
/// - **Fix mode.** 3D when the cycle has an altitude or a GSA says 3D; 2D when its
///   sentences state a mode (GGA, GNS, GSA, `$PGRMZ`, `$PUBX,00`, `$PASHR,POS`) and it is
///   not 3D. A cycle whose sentences state none (only RMC or GLL, from a receiver that
///   alternates sentence sets) takes the mode of the most recent cycle that stated one,
///   if that was at most ``modeCarryCycles`` cycles ago, as gpsd does; otherwise 2D.
/// - **Altitude.** GGA or GNS (above mean sea level) first; then the ellipsoidal height
///   of `$PUBX,00` or `$PASHR,POS`; then Garmin's `$PGRMZ` (whole feet, above mean sea
///   level).
/// - **Geoid separation.** The receiver's (GGA, GNS, or the difference of its two heights);
///   where it gives none, the ``geoid`` model's (``GeoidSource/egm96``). A receiver that
///   sends a separation of exactly 0 where the model's is 1 m or more has no geoid model:
///   its altitude is the ellipsoidal height (NMEA leaves no other field for it), and the
///   height above mean sea level is corrected with the model's separation.
/// - **Speed and course** (``SpeedSource/positions``), when the cycle has no RMC, VTG or
///   other velocity: the speed is the geodesic distance from the previous fix with a
///   position over the time between them, when that time is more than 0 and at most
///   ``derivationInterval`` seconds (longer gaps are outages, and a straight line says
///   nothing of the path). The course is that geodesic's azimuth at this fix, given only
///   when the distance exceeds twice the two positions' combined 1-sigma accuracy
///   (√(σ₁² + σ₂²)): below that, the direction is noise.
/// - **Accuracy.** The receiver's own estimates, in the order of ``AccuracySource``
///   (GST, `$PUBX,00`, `$PGRME`, `$PSRFEPE`), before DOP × UERE; never less than the
///   coordinates' resolution allows (``CoordinateResolution``).
public struct FixAssembler {
  /// How many cycles a stated fix mode is carried to cycles that state none.
  public static let modeCarryCycles = 5
  /// The longest interval, seconds, over which speed is derived from positions.
  public static let derivationInterval = 10.0
  /// A receiver's separation of 0 marks its altitude as ellipsoidal where the model's
  /// separation is at least this, metres.
  public static let ellipsoidalAltitudeEvidence = 1.0

  /// A receiver's own accuracy estimate, 1-sigma metres, with where it came from.
  private struct ReceiverEstimate: Equatable {
    var horizontal: Double
    var vertical: Double?
    var source: AccuracySource

    /// The place of `source` in the order of precedence; lower wins.
    var rank: Int {
      switch source {
      case .ubloxPUBX: 0
      case .garminPGRME: 1
      default: 2
      }
    }
  }

  /// What the next fix needs of the last one with a position (a few of its hundreds of
  /// bytes: keeping the whole fix copied it at every cycle).
  private struct PreviousFix: Equatable {
    var timeOfDay: TimeOfDay
    var time: Timestamp?
    var latitude: Double
    var longitude: Double
    var mode: FixMode
    var altitudeMSL: Double?
    var horizontalAccuracy: Double?
  }

  private struct Cycle: Equatable {
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
    /// The receiver's ellipsoidal height (`$PUBX,00`, `$PASHR,POS`).
    var ellipsoidalAltitude: Double?
    /// Garmin's `$PGRMZ` altitude above mean sea level.
    var garminAltitude: Double?
    var climb: Double?
    var estimate: ReceiverEstimate?
    var coordinateDecimals: Int?
    /// Whether a sentence of the cycle stated the fix's dimension.
    var statesMode = false
  }

  /// The cycle being merged, valid while `hasCycle`. Not an optional: every field
  /// access then went through an out-of-line tag check.
  private var cycle = Cycle(time: TimeOfDay(microseconds: 0))
  private var hasCycle = false
  private var dates = DateTracker()
  /// The last fix with a position: what the next one is derived from.
  private var previous: PreviousFix?
  private var cycleCount = 0
  private var pendingErrors: (TimeOfDay, ErrorStatistics)?
  private var pendingEstimate: (TimeOfDay, ReceiverEstimate)?
  /// The mode of the latest cycle with a position that stated one, and that cycle's number.
  private var statedMode: (mode: FixMode, cycle: Int)?
  /// The geoid model for receivers that give no separation; `nil` for none.
  public let geoid: GeoidGrid?
  /// The magnetic model for declinations the receiver does not give; `nil` for none.
  public let magneticModel: MagneticModel?
  /// The reading the last heading sentence gave, until the decoder takes it.
  private var headingReading: HeadingReading?
  /// The receiver's latest magnetic variation (RMC, HDG), degrees east.
  private var lastVariation: Double?
  /// Whether a heading's declination was taken without a latest variation since
  /// ``resetVariationAssumption()``: see ``difference(from:)``.
  package private(set) var assumedNoVariation = false
  private var sky = SkyTracker()
  /// Whether fixes carry the satellites in view (``Fix/satellites``); without, GSV and
  /// GSA's satellite lists are read but not kept.
  public var tracksSatellites = true
  /// GPS week-number rollovers to add to the receiver's RMC and ZDA dates, 1,024 weeks
  /// each: a receiver whose firmware predates a rollover (the last in April 2019) counts
  /// its weeks from the previous one, and dates its fixes 19.6 years early. 0 by default.
  public var weekRollovers = 0 {
    didSet { rolloverDays = weekRollovers * Self.daysPerRollover }
  }
  /// The days of one rollover: 1,024 weeks.
  public static let daysPerRollover = 1024 * 7
  private var rolloverDays = 0

  /// A receiver's date, with the rollovers added.
  @inline(__always)
  private func corrected(_ date: CalendarDate) -> CalendarDate {
    rolloverDays == 0 ? date : CalendarDate(daysSinceEpoch: date.daysSinceEpoch + rolloverDays)
  }
  /// The fix of a cycle completed by a decoded sentence, valid while `hasCompletedFix`.
  /// Not an optional: taking a fix out of one copied all of its 281 bytes three times,
  /// for every fix.
  private var completedFix = Fix(timeOfDay: TimeOfDay(microseconds: 0))
  private var hasCompletedFix = false

  /// Creates an assembler; `date` names the date of the first cycle for logs that carry
  /// none (RMC and ZDA dates take over as soon as they come); `geoid` gives separations
  /// where receivers give none.
  public init(date: CalendarDate? = nil, geoid: GeoidGrid? = nil, magneticModel: MagneticModel? = .wmm2025) {
    self.geoid = geoid
    self.magneticModel = magneticModel
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

  /// Whether this assembler will make the same fixes as `other` from the same sentences
  /// on: the same open cycle, history and learned receiver habits. How many cycles each
  /// has counted does not matter, only how long ago the counts that matter were made.
  ///
  /// An assembler started partway into a log (``NMEADecoder``'s parallel decoding) is
  /// checked this way against the one that read everything before it.
  package func continuesLike(_ other: FixAssembler) -> Bool { difference(from: other) == nil }

  /// The first part of the state in which this assembler differs from `other`; `nil` when
  /// it would make the same fixes (``continuesLike(_:)``), with one exception: a latest
  /// magnetic variation that this assembler has not learned and `other` has is no
  /// difference. A receiver gives one, if at all, in RMC or HDG, and it is used only for
  /// a later heading sentence's declination; a log of several receivers carries one
  /// receiver's further than any warm-up reaches. So the caller instead resets
  /// ``assumedNoVariation`` where this assembler starts, checks that it is still false
  /// where it ends (no declination went without), and then hands `other`'s variation
  /// over (``adoptVariation(of:)``).
  package func difference(from other: FixAssembler) -> DecoderStateDifference? {
    func modeAge(_ assembler: FixAssembler) -> Int? {
      assembler.statedMode.map { min(assembler.cycleCount - $0.cycle, Self.modeCarryCycles + 1) }
    }
    guard hasCycle == other.hasCycle && (!hasCycle || cycle == other.cycle) else { return .openCycle }
    guard dates == other.dates else { return .date }
    guard previous == other.previous else { return .previousFix }
    guard
      pendingErrors?.0 == other.pendingErrors?.0 && pendingErrors?.1 == other.pendingErrors?.1
        && pendingEstimate?.0 == other.pendingEstimate?.0 && pendingEstimate?.1 == other.pendingEstimate?.1
    else { return .pendingAccuracy }
    guard statedMode?.mode == other.statedMode?.mode && modeAge(self) == modeAge(other) else { return .fixMode }
    guard headingReading == other.headingReading && (lastVariation == other.lastVariation || lastVariation == nil)
    else {
      return .headingOrVariation
    }
    guard
      hasCompletedFix == other.hasCompletedFix && (!hasCompletedFix || completedFix == other.completedFix)
    else { return .completedFix }
    guard
      cycleEnder == other.cycleEnder && lastKindInCycle == other.lastKindInCycle
        && previousCandidate == other.previousCandidate && keptForAnotherCycle == other.keptForAnotherCycle
        && cycleHasEnded == other.cycleHasEnded
    else { return .cycleEnd }
    guard sky.continuesLike(other.sky, cycle: cycleCount, otherCycle: other.cycleCount) else { return .skyView }
    return nil
  }

  /// Whether a latest magnetic variation has been seen.
  package var hasVariation: Bool { lastVariation != nil }

  /// Starts counting declinations taken without a latest variation afresh.
  package mutating func resetVariationAssumption() { assumedNoVariation = false }

  /// Takes `other`'s latest variation when this assembler has learned none.
  package mutating func adoptVariation(of other: FixAssembler) {
    if lastVariation == nil { lastVariation = other.lastVariation }
  }

  /// How many dates the receiver has stated (RMC, ZDA, ...) since the assembler began.
  package var datesStated: Int { dates.observations }

  /// Whole days from this assembler's dating to `other`'s, when that is all that tells
  /// their dates apart (both dated by their anchors, which differ by whole days).
  package func wholeDays(to other: FixAssembler) -> Int? { dates.wholeDays(to: other.dates) }

  /// The time of the latest cycle dated, which dates the next; `nil` before one is.
  package var dateAnchor: Timestamp? { dates.latest }

  /// Moves every date this assembler holds by `days` whole days: its anchor, and the
  /// times of the previous fix, a completed fix and a heading reading not yet taken. An
  /// assembler that dated a stretch of a dateless log from another day's anchor then
  /// continues as the one dated from the right day would.
  package mutating func shiftDates(byDays days: Int) {
    guard days != 0 else { return }
    dates.shift(byDays: days)
    if let time = previous?.time { previous?.time = time.shifted(byDays: days) }
    if hasCompletedFix, let time = completedFix.time { completedFix.time = time.shifted(byDays: days) }
    if let time = headingReading?.time { headingReading?.time = time.shifted(byDays: days) }
  }

  /// Whether this assembler can date nothing yet: no date seen or seeded. A decoder
  /// started partway into a log whose dates come seldom (a ZDA once a minute) is so
  /// until its chunk states one.
  package var isUndated: Bool { dates.isEmpty }

  /// The dating of `other`, for an undated assembler that read the same cycles: `other`'s
  /// anchor, and the times of the previous fix and of a completed fix that went without.
  package mutating func adoptDating(of other: FixAssembler) {
    dates.adopt(other.dates)
    if let previousFix = previous, previousFix.time == nil, let theirs = other.previous,
      theirs.timeOfDay == previousFix.timeOfDay
    {
      previous?.time = theirs.time
    }
    if hasCompletedFix, completedFix.time == nil, other.hasCompletedFix,
      other.completedFix.timeOfDay == completedFix.timeOfDay
    {
      completedFix.time = other.completedFix.time
    }
  }

  /// Dates what an undated assembler made, as this one would have: the fixes it handed
  /// out without a time, in order, until the first it could date itself.
  package struct Dating: Sendable {
    fileprivate var dates: DateTracker
    /// The time of the last fix with a position so dated: the previous fix's.
    package private(set) var lastPositionTime: Timestamp?
    /// Whether a fix came that had its own time: from there on the assembler dated its
    /// fixes itself.
    package private(set) var isOver = false

    /// Gives `fix` the time this assembler would have, if it has none.
    package mutating func date(_ fix: inout Fix) {
      guard !isOver else { return }
      guard fix.time == nil else {
        isOver = true
        return
      }
      fix.time = dates.resolve(fix.timeOfDay)
      if fix.latitude != nil && fix.longitude != nil { lastPositionTime = fix.time }
    }
  }

  /// This assembler's dating, to date what an undated one made after it (see ``Dating``).
  package var dating: Dating { Dating(dates: dates) }

  /// Takes what an undated assembler would have had by now, after `dating` dated its
  /// fixes: the previous fix's time when it went without, and, when `anchor` (no date was
  /// stated meanwhile), the anchor.
  package mutating func adoptDating(_ dating: Dating, anchor: Bool) {
    if anchor { dates.adopt(dating.dates) }
    if previous != nil, previous?.time == nil, let time = dating.lastPositionTime { previous?.time = time }
  }

  /// Whether a date has been seen, so that seeding one changes nothing.
  var isDated: Bool { dates.isAnchored }

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
    if !hasCycle, cycleEnder != nil, kind == .gsa || kind == .vtg {
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
    // Heading sensors send at their own rate, not as part of the receiver's cycle.
    if hasCycle, let kind, kind != .gsv, kind != .txt, !kind.isHeading, !keptForLater {
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
    precondition(hasCompletedFix, "no completed fix to take")
    hasCompletedFix = false
    return completedFix
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
    if valid {
      setPosition(gga.latitude, gga.longitude, decimals: gga.coordinateDecimals)
      cycle.statesMode = true
    }
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
    if let date = rmc.date { cycle.date = corrected(date) }
    let valid = rmc.isValid == true && (rmc.mode?.isValid ?? true)
    if valid {
      setPosition(rmc.latitude, rmc.longitude, decimals: rmc.coordinateDecimals)
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
      setPosition(gll.latitude, gll.longitude, decimals: gll.coordinateDecimals)
      if let mode = gll.mode { cycle.modeQuality = FixQuality(mode) }
    }
    return done
  }

  mutating func apply(_ gns: GNS) -> Bool {
    guard let time = gns.time else { return false }
    let done = begin(time)
    if let mode = gns.mode, mode.isValid {
      setPosition(gns.latitude, gns.longitude, decimals: gns.coordinateDecimals)
      cycle.modeQuality = FixQuality(mode)
      cycle.statesMode = true
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
    if !cycle.hasGSA && tracksSatellites { sky.beginUsed() }
    cycle.hasGSA = true
    if let mode = gsa.mode {
      cycle.gsaMode = max(cycle.gsaMode ?? mode, mode)
      cycle.statesMode = true
    }
    cycle.dop.position = gsa.pdop ?? cycle.dop.position
    cycle.dop.horizontal = gsa.hdop ?? cycle.dop.horizontal
    cycle.dop.vertical = gsa.vdop ?? cycle.dop.vertical
    cycle.gsaUsedCount += gsa.usedCount
    guard tracksSatellites else { return false }
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
    if tracksSatellites { sky.add(gsv, cycle: cycleCount) }
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
    if let date = zda.date.map(corrected), let time = zda.time {
      if hasCycle && cycle.time == time {
        cycle.date = date
      } else {
        dates.observe(date, at: time)
        keptForAnotherCycle = true
      }
    }
    return false
  }

  mutating func apply(_ pubx: PUBX00) -> Bool {
    guard let time = pubx.time else { return false }
    let done = begin(time)
    guard let status = pubx.status, status.hasPosition else { return done }
    if cycle.latitude == nil { setPosition(pubx.latitude, pubx.longitude, decimals: pubx.coordinateDecimals) }
    cycle.modeQuality = cycle.modeQuality ?? status.quality
    cycle.statesMode = true
    if status.isThreeDimensional {
      cycle.ellipsoidalAltitude = pubx.ellipsoidalAltitude ?? cycle.ellipsoidalAltitude
      cycle.climb = pubx.climb ?? cycle.climb
    }
    if cycle.speed == nil, let speed = pubx.speed {
      cycle.speed = speed
      cycle.course = pubx.course ?? cycle.course
    }
    cycle.dop.horizontal = cycle.dop.horizontal ?? pubx.hdop
    cycle.dop.vertical = cycle.dop.vertical ?? pubx.vdop
    cycle.satellitesUsed = cycle.satellitesUsed ?? pubx.satellitesUsed
    cycle.differentialAge = cycle.differentialAge ?? pubx.differentialAge
    if let horizontal = pubx.horizontalAccuracy {
      offer(ReceiverEstimate(horizontal: horizontal, vertical: pubx.verticalAccuracy, source: .ubloxPUBX))
    }
    return done
  }

  mutating func apply(_ pos: PASHRPOS) -> Bool {
    guard let time = pos.time else { return false }
    let done = begin(time)
    guard let quality = pos.quality else { return done }
    if cycle.latitude == nil { setPosition(pos.latitude, pos.longitude, decimals: pos.coordinateDecimals) }
    cycle.modeQuality = cycle.modeQuality ?? quality
    cycle.statesMode = true
    cycle.ellipsoidalAltitude = pos.ellipsoidalAltitude ?? cycle.ellipsoidalAltitude
    if cycle.speed == nil, let speed = pos.speed {
      cycle.speed = speed
      cycle.course = pos.course ?? cycle.course
    }
    cycle.dop.position = cycle.dop.position ?? pos.pdop
    cycle.dop.horizontal = cycle.dop.horizontal ?? pos.hdop
    cycle.dop.vertical = cycle.dop.vertical ?? pos.vdop
    cycle.satellitesUsed = cycle.satellitesUsed ?? pos.satellitesUsed
    return done
  }

  mutating func apply(_ pgrme: PGRME) -> Bool {
    // A Garmin without an estimate sends 0.00 (the corpus's TomTom MkII with three
    // satellites and HDOP 3.4): no receiver's error is zero, so zero says nothing, as an
    // empty field would.
    guard hasCycle, let horizontal = pgrme.horizontalError, horizontal > 0 else { return false }
    offer(
      ReceiverEstimate(
        horizontal: horizontal / PGRME.sigmas,
        vertical: pgrme.verticalError.flatMap { $0 > 0 ? $0 / PGRME.sigmas : nil }, source: .garminPGRME))
    return false
  }

  mutating func apply(_ pgrmz: PGRMZ) -> Bool {
    guard hasCycle else { return false }
    if let dimension = pgrmz.dimension, dimension >= 2 {
      cycle.statesMode = true
      cycle.garminAltitude = dimension == 3 ? pgrmz.altitude ?? cycle.garminAltitude : cycle.garminAltitude
    }
    return false
  }

  mutating func apply(_ epe: PSRFEPE) -> Bool {
    guard let time = epe.time, epe.isValid == true, let horizontal = epe.horizontalError else { return false }
    let estimate = ReceiverEstimate(horizontal: horizontal, vertical: epe.verticalError, source: .sirfPSRFEPE)
    if hasCycle && cycle.time == time {
      offer(estimate)
    } else {
      pendingEstimate = (time, estimate)
      keptForAnotherCycle = true
    }
    return false
  }

  /// Keeps a receiver's estimate unless the cycle has one of higher precedence.
  private mutating func offer(_ estimate: ReceiverEstimate) {
    if let current = cycle.estimate, current.rank < estimate.rank { return }
    cycle.estimate = estimate
  }

  mutating func apply(_ hdt: HDT) -> Bool {
    var reading = HeadingReading(sentence: "HDT")
    reading.trueHeading = hdt.heading
    report(reading)
    return false
  }

  mutating func apply(_ hdg: HDG) -> Bool {
    var reading = HeadingReading(sentence: "HDG")
    reading.magneticHeading = hdg.magneticHeading
    if let variation = hdg.variation { lastVariation = variation }
    report(reading, variation: hdg.variation)
    return false
  }

  mutating func apply(_ hdm: HDM) -> Bool {
    var reading = HeadingReading(sentence: "HDM")
    reading.magneticHeading = hdm.heading
    report(reading)
    return false
  }

  mutating func apply(_ ths: THS) -> Bool {
    var reading = HeadingReading(sentence: "THS")
    reading.trueHeading = ths.heading
    report(reading)
    return false
  }

  mutating func apply(_ rot: ROT) -> Bool {
    var reading = HeadingReading(sentence: "ROT")
    reading.rateOfTurn = rot.rate
    report(reading)
    return false
  }

  mutating func apply(_ xdr: XDR) -> Bool {
    var reading = HeadingReading(sentence: "XDR")
    reading.pitch = xdr.pitch
    reading.roll = xdr.roll
    report(reading)
    return false
  }

  mutating func apply(_ attitude: PASHRAttitude) -> Bool {
    var reading = HeadingReading(sentence: "PASHR")
    reading.trueHeading = attitude.heading
    reading.accuracy = attitude.headingAccuracy
    reading.roll = attitude.roll
    reading.pitch = attitude.pitch
    reading.rollAccuracy = attitude.rollAccuracy
    reading.pitchAccuracy = attitude.pitchAccuracy
    reading.heave = attitude.heave
    report(reading, time: attitude.time)
    return false
  }

  mutating func apply(_ psti: PSTI036) -> Bool {
    var reading = HeadingReading(sentence: "PSTI,036")
    reading.trueHeading = psti.heading
    reading.pitch = psti.pitch
    reading.roll = psti.roll
    if let date = psti.date, let time = psti.time, !hasCycle || cycle.time != time { dates.observe(date, at: time) }
    report(reading, time: psti.time)
    return false
  }

  mutating func apply(_ compass: PTNTHTM) -> Bool {
    var reading = HeadingReading(sentence: "PTNTHTM")
    reading.trueHeading = compass.heading
    reading.pitch = compass.pitch
    reading.roll = compass.roll
    reading.dip = compass.dip
    report(reading)
    return false
  }

  /// The reading of the heading sentence just added, if it carried anything.
  mutating func takeHeadingReading() -> HeadingReading? { headingReading.take() }

  /// Dates a reading, completes its headings with a declination, and keeps it for the
  /// decoder; a true heading is also the current cycle's.
  private mutating func report(_ reading: HeadingReading, time: TimeOfDay? = nil, variation: Double? = nil) {
    var reading = reading
    guard reading.hasHeading || reading.rateOfTurn != nil || reading.roll != nil || reading.pitch != nil else {
      return
    }
    reading.timeOfDay = time ?? (hasCycle ? cycle.time : previous?.timeOfDay)
    if hasCycle, let date = cycle.date, reading.timeOfDay == cycle.time {
      // The cycle's RMC dated it already; the tracker learns that date when the cycle ends.
      reading.time = Timestamp(date: date, time: cycle.time)
    } else {
      reading.time = reading.timeOfDay.flatMap { dates.timestamp(for: $0) }
    }
    if reading.trueHeading == nil || reading.magneticHeading == nil, reading.hasHeading,
      let (declination, source, caveat) = declination(variation, at: reading.time)
    {
      reading.declination = declination
      reading.declinationSource = source
      reading.declinationCaveat = caveat
      if let magnetic = reading.magneticHeading {
        reading.trueHeading = HeadingMath.normalized(magnetic + declination)
      } else if let heading = reading.trueHeading {
        reading.magneticHeading = HeadingMath.normalized(heading - declination)
      }
    }
    if hasCycle, let heading = reading.trueHeading { cycle.heading = heading }
    headingReading = reading
  }

  /// The declination: the sentence's own variation, the receiver's latest, or the
  /// magnetic model's at the last position (at sea level: the height changes it by less
  /// than 0.01° per kilometre) on the reading's date.
  private mutating func declination(_ variation: Double?, at time: Timestamp?)
    -> (Double, DeclinationSource, MagneticModel.Reliability?)?
  {
    if let variation { return (variation, .sentence, nil) }
    if hasCycle, let variation = cycle.magneticVariation { return (variation, .receiver, nil) }
    if let lastVariation { return (lastVariation, .receiver, nil) }
    assumedNoVariation = true
    // The position: the current cycle's, else the last fix's.
    var place: (latitude: Double, longitude: Double)?
    if hasCycle, let latitude = cycle.latitude, let longitude = cycle.longitude {
      place = (latitude, longitude)
    } else if let previous {
      place = (previous.latitude, previous.longitude)
    }
    guard let magneticModel, let place, let time = time ?? previous?.time else { return nil }
    let year = 1970 + time.secondsSinceEpoch / (365.2425 * 86400)
    let field = magneticModel.field(latitude: place.latitude, longitude: place.longitude, year: year)
    let reliability = magneticModel.reliability(of: field, year: year)
    return (field.declination, .wmm2025, reliability == .reliable ? nil : reliability)
  }

  /// Completes the current cycle, if any, and returns its fix.
  public mutating func finish() -> Fix? {
    guard hasCycle else { return nil }
    hasCycle = false
    return makeFix()
  }

  /// Completes the current cycle, if any, into ``completedFix``; `true` if there was one.
  private mutating func completeCycle() -> Bool {
    guard hasCycle else { return false }
    hasCycle = false
    completedFix = makeFix()
    hasCompletedFix = true
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
    if let (pendingTime, estimate) = pendingEstimate {
      if pendingTime == time { cycle.estimate = estimate }
      pendingEstimate = nil
    }
    return done
  }

  private mutating func setPosition(_ latitude: Double?, _ longitude: Double?, decimals: Int?) {
    guard let latitude, let longitude else { return }
    cycle.latitude = latitude
    cycle.longitude = longitude
    cycle.coordinateDecimals = decimals
  }

  /// The fix of the current ``cycle``: read in place, where passing the cycle (some 400
  /// bytes) to a mutating method copied it for every fix.
  private mutating func makeFix() -> Fix {
    var fix = Fix(timeOfDay: cycle.time)
    fill(&fix)
    return fix
  }

  /// Fills in a fix of the current cycle's time. A method of its own, with one way out of
  /// ``makeFix()``: its several returns of the fix copied all of it three times.
  private mutating func fill(_ fix: inout Fix) {
    if let date = cycle.date { dates.observe(date, at: cycle.time) }
    fix.time = dates.resolve(cycle.time)
    fix.quality = cycle.ggaQuality ?? cycle.modeQuality
    if fix.quality == .invalid, cycle.modeQuality != nil, cycle.modeQuality != .invalid {
      fix.quality = cycle.modeQuality
    }
    fix.navigationalStatus = cycle.navigationalStatus
    fix.magneticVariation = cycle.magneticVariation
    fix.heading = cycle.heading
    fix.dop = cycle.dop
    fix.satellitesUsed = cycle.satellitesUsed ?? (cycle.hasGSA ? cycle.gsaUsedCount : nil)
    fix.errorStatistics = cycle.errorStatistics
    fix.differentialAge = cycle.differentialAge
    fix.differentialStation = cycle.differentialStation
    if tracksSatellites { fix.satellites = sky.satellites(cycle: cycleCount, hadGSA: cycle.hasGSA) }
    setHeights(of: &fix)
    if let variation = cycle.magneticVariation { lastVariation = variation }

    guard let latitude = cycle.latitude, let longitude = cycle.longitude else { return }
    fix.latitude = latitude
    fix.longitude = longitude
    let hasAltitude = fix.altitudeMSL != nil || fix.altitudeHAE != nil
    if hasAltitude || cycle.gsaMode == .threeD {
      fix.mode = .threeD
    } else if cycle.statesMode {
      fix.mode = .twoD
    } else if let statedMode, cycleCount - statedMode.cycle <= Self.modeCarryCycles {
      fix.mode = statedMode.mode
    } else {
      fix.mode = .twoD
    }
    if cycle.statesMode { statedMode = (fix.mode, cycleCount) }
    fix.speed = cycle.speed
    fix.course = cycle.course
    if cycle.speed != nil || cycle.course != nil { fix.speedSource = .receiver }
    setAccuracy(of: &fix)
    if let previous {
      let seconds = Self.seconds(from: (previous.time, previous.timeOfDay), to: (fix.time, fix.timeOfDay))
      if let seconds, seconds > 0, seconds <= 60, fix.mode == .threeD, previous.mode == .threeD {
        if let climb = cycle.climb {
          fix.climb = climb
        } else if let before = previous.altitudeMSL, let after = fix.altitudeMSL {
          fix.climb = (after - before) / seconds
        }
      }
      if fix.speed == nil, let seconds, seconds > 0, seconds <= Self.derivationInterval {
        derive(&fix, from: previous, seconds: seconds)
      }
    } else if fix.mode == .threeD {
      fix.climb = cycle.climb
    }
    previous = PreviousFix(
      timeOfDay: fix.timeOfDay, time: fix.time, latitude: latitude, longitude: longitude, mode: fix.mode,
      altitudeMSL: fix.altitudeMSL, horizontalAccuracy: fix.horizontalAccuracy)
  }

  /// The seconds from one fix to the next: by their full times when both have one,
  /// otherwise by their times of day (across midnight at most once).
  private static func seconds(
    from earlier: (time: Timestamp?, timeOfDay: TimeOfDay), to later: (time: Timestamp?, timeOfDay: TimeOfDay)
  ) -> Double? {
    if let then = earlier.time, let now = later.time { return now.seconds(since: then) }
    var microseconds = later.timeOfDay.microseconds - earlier.timeOfDay.microseconds
    if microseconds < 0 { microseconds += 86_400_000_000 }
    return Double(microseconds) / 1e6
  }

  /// Altitude above mean sea level, geoid separation and ellipsoidal height, in the order
  /// of precedence the type's documentation gives.
  ///
  /// `mutating` though it changes nothing, as ``setAccuracy(of:)``: a non-mutating call
  /// from the mutating ``fill(_:)`` copied the whole assembler (1,335 bytes) for every fix.
  private mutating func setHeights(of fix: inout Fix) {
    var altitude = cycle.altitude
    var separation = cycle.geoidSeparation
    var ellipsoidal: Double?
    if altitude == nil {
      ellipsoidal = cycle.ellipsoidalAltitude
      if ellipsoidal == nil { altitude = cycle.garminAltitude }
    } else if separation == nil, let height = cycle.ellipsoidalAltitude, let altitude {
      separation = height - altitude
    }
    var source: GeoidSource? = separation == nil ? nil : .receiver
    if let geoid, let latitude = cycle.latitude, let longitude = cycle.longitude,
      altitude != nil || ellipsoidal != nil,
      separation == nil || separation == 0,
      let model = geoid.separation(latitude: latitude, longitude: longitude)
    {
      if separation == nil {
        separation = model
        source = .egm96
        if altitude == nil, let ellipsoidal { altitude = ellipsoidal - model }
      } else if abs(model) >= Self.ellipsoidalAltitudeEvidence, let height = altitude {
        // A separation of exactly 0: a receiver without a geoid model, whose altitude
        // is the ellipsoidal height.
        ellipsoidal = height
        altitude = height - model
        separation = model
        source = .egm96
      }
    }
    if ellipsoidal == nil, let altitude, let separation { ellipsoidal = altitude + separation }
    fix.altitudeMSL = altitude
    fix.geoidSeparation = separation
    fix.geoidSource = separation == nil ? nil : source
    fix.altitudeHAE = ellipsoidal
  }

  /// The accuracy from the best source the cycle has, at least the coordinates' resolution.
  ///
  /// `mutating` though it changes nothing (see ``setHeights(of:)``).
  private mutating func setAccuracy(of fix: inout Fix) {
    if let statistics = cycle.errorStatistics, let latitude = statistics.latitude,
      let longitude = statistics.longitude
    {
      fix.horizontalAccuracy = (latitude * latitude + longitude * longitude).squareRoot()
      fix.verticalAccuracy = fix.mode == .threeD ? statistics.altitude : nil
      fix.accuracySource = .receiverStatistics
    } else if let estimate = cycle.estimate {
      fix.horizontalAccuracy = estimate.horizontal
      fix.verticalAccuracy = fix.mode == .threeD ? estimate.vertical : nil
      fix.accuracySource = estimate.source
    } else if let hdop = cycle.dop.horizontal, hdop > 0 {
      let rangeError = UserEquivalentRangeError.metres(for: fix.quality)
      fix.horizontalAccuracy = hdop * rangeError
      if fix.mode == .threeD, let vdop = cycle.dop.vertical, vdop > 0 {
        fix.verticalAccuracy = vdop * rangeError
      }
      fix.accuracySource = .dilutionOfPrecision
    }
    if let accuracy = fix.horizontalAccuracy, let decimals = cycle.coordinateDecimals, let latitude = fix.latitude,
      accuracy < CoordinateResolution.largestBound(decimals: decimals)
    {
      let bound = CoordinateResolution.horizontalBound(decimals: decimals, latitude: latitude)
      if bound > accuracy {
        fix.horizontalAccuracy = bound
        fix.accuracySource = .coordinateResolution
      }
    }
  }

  /// Speed, and course when the distance is clear of the positions' noise, from the
  /// previous fix's position to this one's.
  private func derive(_ fix: inout Fix, from previous: PreviousFix, seconds: Double) {
    guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
    // A step of a track is short: measured along its chord, at a fifth of the full
    // solution's cost, and within nanometres and 10⁻⁶° of it.
    let line = Geodesic.wgs84.distanceAndFinalAzimuth(
      latitude1: previous.latitude, longitude1: previous.longitude, latitude2: latitude, longitude2: longitude)
    let speed = line.distance / seconds
    // Faster than anything a receiver tracks on Earth: a position jump, not a speed.
    guard speed < 10_000 else { return }
    fix.speed = speed
    fix.speedSource = .positions
    if fix.course == nil, let accuracy = fix.horizontalAccuracy, let earlierAccuracy = previous.horizontalAccuracy,
      line.distance > 2 * (accuracy * accuracy + earlierAccuracy * earlierAccuracy).squareRoot()
    {
      var course = line.finalAzimuth.truncatingRemainder(dividingBy: 360)
      if course < 0 { course += 360 }
      fix.course = course
    }
  }
}
