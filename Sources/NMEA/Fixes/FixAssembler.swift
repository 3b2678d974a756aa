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
  /// Groups of GSV sentences that have not been refreshed for this many cycles are
  /// dropped: that constellation or signal is no longer tracked.
  static let skyLifetime = 20

  private struct SkyGroup: Hashable {
    var talker: Talker
    var signalID: Int?
  }

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

  private var cycle: Cycle?
  private var dates = DateTracker()
  private var previous: Fix?
  private var cycleCount = 0
  private var pendingErrors: (TimeOfDay, ErrorStatistics)?
  private var pendingSky: [SkyGroup: [SatelliteInfo]] = [:]
  private var sky: [SkyGroup: (cycle: Int, satellites: [SatelliteInfo])] = [:]
  private var used: Set<SatelliteKey> = []
  private var usedThisCycle: Set<SatelliteKey> = []

  private struct SatelliteKey: Hashable {
    var constellation: Constellation?
    var id: Int
  }

  /// Creates an assembler; `date` names the date of the first cycle for logs that carry
  /// none (RMC and ZDA dates take over as soon as they come).
  public init(date: CalendarDate? = nil) {
    if let date { dates.seed(date) }
  }

  /// Names the date of the first cycle unless the log has given one already.
  public mutating func seed(date: CalendarDate) { dates.seed(date) }

  /// Adds a sentence; returns the previous cycle's fix when this sentence starts a new one.
  public mutating func add(_ sentence: Sentence) -> Fix? {
    switch sentence {
    case .gga(let gga):
      guard let time = gga.time else { return nil }
      let done = begin(time)
      let valid = (gga.quality ?? .invalid) != .invalid
      cycle!.ggaQuality = gga.quality
      if valid { setPosition(gga.latitude, gga.longitude) }
      if valid || gga.altitude != nil {
        cycle!.altitude = gga.altitude ?? cycle!.altitude
        cycle!.geoidSeparation = gga.geoidSeparation ?? cycle!.geoidSeparation
      }
      cycle!.satellitesUsed = gga.satellitesUsed ?? cycle!.satellitesUsed
      cycle!.dop.horizontal = gga.hdop ?? cycle!.dop.horizontal
      cycle!.differentialAge = gga.differentialAge ?? cycle!.differentialAge
      cycle!.differentialStation = gga.differentialStation ?? cycle!.differentialStation
      return done
    case .rmc(let rmc):
      guard let time = rmc.time else { return nil }
      let done = begin(time)
      if let date = rmc.date { cycle!.date = date }
      let valid = rmc.isValid == true && (rmc.mode?.isValid ?? true)
      if valid {
        setPosition(rmc.latitude, rmc.longitude)
        cycle!.speed = rmc.speed ?? cycle!.speed
        cycle!.course = rmc.course ?? cycle!.course
        if let mode = rmc.mode { cycle!.modeQuality = FixQuality(mode) }
      }
      cycle!.magneticVariation = rmc.magneticVariation ?? cycle!.magneticVariation
      cycle!.navigationalStatus = rmc.navigationalStatus ?? cycle!.navigationalStatus
      return done
    case .gll(let gll):
      guard let time = gll.time else { return nil }
      let done = begin(time)
      if gll.isValid != false && (gll.mode?.isValid ?? true) {
        setPosition(gll.latitude, gll.longitude)
        if let mode = gll.mode { cycle!.modeQuality = FixQuality(mode) }
      }
      return done
    case .gns(let gns):
      guard let time = gns.time else { return nil }
      let done = begin(time)
      if let mode = gns.mode, mode.isValid {
        setPosition(gns.latitude, gns.longitude)
        cycle!.modeQuality = FixQuality(mode)
        cycle!.altitude = gns.altitude ?? cycle!.altitude
        cycle!.geoidSeparation = gns.geoidSeparation ?? cycle!.geoidSeparation
      }
      cycle!.satellitesUsed = gns.satellitesUsed ?? cycle!.satellitesUsed
      cycle!.dop.horizontal = gns.hdop ?? cycle!.dop.horizontal
      cycle!.navigationalStatus = gns.navigationalStatus ?? cycle!.navigationalStatus
      cycle!.differentialAge = gns.differentialAge ?? cycle!.differentialAge
      cycle!.differentialStation = gns.differentialStation ?? cycle!.differentialStation
      return done
    case .vtg(let vtg):
      guard cycle != nil, vtg.mode?.isValid ?? true else { return nil }
      cycle!.speed = vtg.speed ?? cycle!.speed
      cycle!.course = vtg.course ?? cycle!.course
    case .gsa(let gsa):
      guard cycle != nil else { return nil }
      if !cycle!.hasGSA { usedThisCycle.removeAll(keepingCapacity: true) }
      cycle!.hasGSA = true
      if let mode = gsa.mode { cycle!.gsaMode = max(cycle!.gsaMode ?? mode, mode) }
      cycle!.dop.position = gsa.pdop ?? cycle!.dop.position
      cycle!.dop.horizontal = gsa.hdop ?? cycle!.dop.horizontal
      cycle!.dop.vertical = gsa.vdop ?? cycle!.dop.vertical
      cycle!.gsaUsedCount += gsa.usedCount
      for index in 0..<gsa.usedCount {
        let id = Int(gsa.used[index])
        let constellation =
          gsa.constellation ?? gsa.talker.constellation.flatMap { talkerSystem in
            talkerSystem == .gps ? Constellation(nmeaSatelliteID: id) : talkerSystem
          } ?? Constellation(nmeaSatelliteID: id)
        usedThisCycle.insert(SatelliteKey(constellation: constellation, id: id))
      }
    case .gsv(let gsv):
      addSatellites(gsv)
    case .gst(let gst):
      guard let time = gst.time else { return nil }
      let statistics = ErrorStatistics(
        rms: gst.rms, semiMajor: gst.semiMajor, semiMinor: gst.semiMinor,
        orientation: gst.orientation, latitude: gst.latitudeError,
        longitude: gst.longitudeError, altitude: gst.altitudeError)
      if cycle?.time == time {
        cycle!.errorStatistics = statistics
      } else {
        pendingErrors = (time, statistics)
      }
    case .zda(let zda):
      if let date = zda.date, let time = zda.time {
        if cycle?.time == time {
          cycle!.date = date
        } else {
          dates.observe(date, at: time)
        }
      }
    case .hdt(let hdt):
      guard cycle != nil else { return nil }
      cycle!.heading = hdt.heading ?? cycle!.heading
    case .txt, .dtm, .gbs, .other:
      break
    }
    return nil
  }

  /// Completes the current cycle, if any, and returns its fix.
  public mutating func finish() -> Fix? {
    guard let cycle else { return nil }
    self.cycle = nil
    return makeFix(cycle)
  }

  private mutating func begin(_ time: TimeOfDay) -> Fix? {
    if cycle?.time == time { return nil }
    let done = finish()
    cycle = Cycle(time: time)
    cycleCount += 1
    if let (pendingTime, statistics) = pendingErrors {
      if pendingTime == time { cycle!.errorStatistics = statistics }
      pendingErrors = nil
    }
    return done
  }

  private mutating func setPosition(_ latitude: Double?, _ longitude: Double?) {
    guard let latitude, let longitude else { return }
    cycle!.latitude = latitude
    cycle!.longitude = longitude
  }

  private mutating func addSatellites(_ gsv: GSV) {
    let group = SkyGroup(talker: gsv.talker, signalID: gsv.signalID)
    if gsv.messageNumber == 1 {
      pendingSky[group] = []
    }
    guard var satellites = pendingSky[group],
      satellites.count <= (gsv.messageNumber - 1) * 4
    else {
      pendingSky[group] = nil
      return
    }
    for index in 0..<gsv.entryCount {
      let entry = gsv.entries[index]
      let constellation =
        gsv.talker.constellation.flatMap { talkerSystem in
          talkerSystem == .gps && entry.id > 32 ? Constellation(nmeaSatelliteID: entry.id) : talkerSystem
        } ?? Constellation(nmeaSatelliteID: entry.id)
      satellites.append(
        SatelliteInfo(
          constellation: constellation, id: entry.id, signalID: gsv.signalID,
          elevation: entry.elevation, azimuth: entry.azimuth, snr: entry.snr))
    }
    if gsv.messageNumber == gsv.messageCount {
      sky[group] = (cycleCount, satellites)
      pendingSky[group] = nil
    } else {
      pendingSky[group] = satellites
    }
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

    if cycle.hasGSA { used = usedThisCycle }
    sky = sky.filter { cycleCount - $0.value.cycle <= Self.skyLifetime }
    for group in sky.keys.sorted(by: { ($0.talker.rawValue, $0.signalID ?? 0) < ($1.talker.rawValue, $1.signalID ?? 0) }
    ) {
      for var satellite in sky[group]!.satellites {
        satellite.isUsed = used.contains(SatelliteKey(constellation: satellite.constellation, id: satellite.id))
        fix.satellites.append(satellite)
      }
    }

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
