import LocationKit
import NMEA

/// Totals over the fixes of a track.
public struct TrackSummary {
  /// The decoder's counts for the input: bytes, lines, sentences by type, rejections by
  /// reason. The summary does not fill them itself; whoever decodes sets them.
  public var statistics = DecoderStatistics()
  /// Fixes with a position that passed the plausibility check (those the odometer counts).
  public var fixes = 0
  /// The earliest dated fix's time; `nil` while no fix carried a date.
  public var first: Timestamp?
  /// The latest dated fix's time; `nil` while no fix carried a date.
  public var last: Timestamp?
  /// The odometer fed with every counted fix: this file's distance, moving and stopped time.
  public var odometer = TrackOdometer()
  /// The check that sets physically implausible fixes aside, as `print` does.
  public var plausibility = FixPlausibility()
  /// Fixes set aside as physically implausible, by reason.
  public var implausible: [ImplausibleFix: Int] = [:]
  /// The highest speed the receiver measured (Doppler), metres per second; `nil` without any.
  public var maximumSpeed: Double?
  /// Fixes by mode (no fix, 2D, 3D), counted before the plausibility check.
  public var modes = Tally<FixMode>()
  /// Counted fixes by quality (GPS, DGPS, RTK, ...), where the receiver gave one.
  public var qualities = Tally<FixQuality>()
  /// For a total: the files' durations summed (two walks months apart last their own
  /// time, not the months between them).
  public var summedDuration: Double?
  /// The track figures of the files merged into a total; a file's own are its
  /// odometer's, read when asked (copying them out at every fix cost more than the
  /// summary's own work).
  private var merged = TrackFigures()
  private var isTotal = false
  /// How many files' summaries were merged into this total.
  private var mergedFiles = 0

  /// The odometer's figures, summed over files for a total.
  private struct TrackFigures {
    var distance = 0.0
    var distanceVariance = 0.0
    var pathLength = 0.0
    var movingTime = 0.0
    var stoppedTime = 0.0
    var bridgedDistance = 0.0
    var bridgedDistanceInStoppedTime = 0.0
    var bridges = 0
    var sessions = 0
    var fixesBackInTime = 0
  }

  /// Jitter-proof distance (see ``/LocationKit/TrackOdometer``), metres.
  public var distance: Double { odometer.distance + merged.distance }
  /// The 1-sigma uncertainty of ``distance``, metres (``/LocationKit/TrackOdometer/distanceError``;
  /// for a total, the files' in quadrature: their errors are independent).
  public var distanceError: Double {
    (odometer.distanceError * odometer.distanceError + merged.distanceVariance).squareRoot()
  }
  /// Raw path length, metres.
  public var pathLength: Double { odometer.pathLength + merged.pathLength }
  /// Straight distance from the first fix to the last; `nil` for a total (files are
  /// separate tracks).
  public var displacement: Double? { isTotal ? nil : odometer.displacement }
  /// Seconds moving and standing, as the odometer decides.
  public var movingTime: Double { odometer.movingTime + merged.movingTime }
  /// Seconds standing still, as the odometer decides.
  public var stoppedTime: Double { odometer.stoppedTime + merged.stoppedTime }
  /// The part of `distance` added across fix losses, and how many were bridged.
  public var bridgedDistance: Double { odometer.bridgedDistance + merged.bridgedDistance }
  /// The part of ``bridgedDistance`` across losses whose time counts as stopped
  /// (``/LocationKit/TrackOdometer/bridgedDistanceInStoppedTime``).
  public var bridgedDistanceInStoppedTime: Double {
    odometer.bridgedDistanceInStoppedTime + merged.bridgedDistanceInStoppedTime
  }
  /// How many fix losses the odometer bridged.
  public var bridges: Int { odometer.bridges + merged.bridges }
  /// How many sessions the odometer counted, each on its own (``/LocationKit/TrackOdometer/sessions``:
  /// logs joined end to end, a clock reset), summed over the files of a total. A total's
  /// own odometer takes no fix, and its one session of none is not counted (two files of
  /// one session each were a total of three).
  public var sessions: Int { (isTotal ? 0 : odometer.sessions) + merged.sessions }
  /// Fixes the odometer left out because their time went back without beginning a
  /// session.
  public var fixesBackInTime: Int { odometer.fixesBackInTime + merged.fixesBackInTime }

  /// An empty summary.
  public init() {}

  /// Counts a fix: its mode always; when it has a plausible position, also the fix, its
  /// time, its distance and its measured speed.
  public mutating func add(_ fix: Fix) {
    modes.count(fix.mode)
    // The point the checks and the odometer need, not a whole Location.
    guard let point = TrackPoint(fix) else { return }
    // Set aside, as print sets it aside: neither a fix nor a step.
    if plausibility.check(point) != nil {
      implausible = plausibility.counts
      return
    }
    fixes += 1
    if let quality = fix.quality { qualities.count(quality) }
    if let time = fix.time {
      if first == nil || time < first! { first = time }
      if last == nil || time > last! { last = time }
    }
    odometer.add(point)
    // Measured speeds only: one derived from positions is as noisy as they are.
    if fix.speedSource == .receiver, let speed = fix.speed {
      maximumSpeed = max(maximumSpeed ?? speed, speed)
    }
  }

  /// Adds another file's summary to this total.
  public mutating func merge(_ other: TrackSummary) {
    statistics.merge(other.statistics)
    fixes += other.fixes
    if let time = other.first, first == nil || time < first! { first = time }
    if let time = other.last, last == nil || time > last! { last = time }
    merged.distance += other.distance
    merged.distanceVariance += other.distanceError * other.distanceError
    merged.pathLength += other.pathLength
    merged.movingTime += other.movingTime
    merged.stoppedTime += other.stoppedTime
    merged.bridgedDistance += other.bridgedDistance
    merged.bridgedDistanceInStoppedTime += other.bridgedDistanceInStoppedTime
    merged.bridges += other.bridges
    merged.sessions += other.sessions
    mergedFiles += 1
    merged.fixesBackInTime += other.fixesBackInTime
    implausible.merge(other.implausible, uniquingKeysWith: +)
    isTotal = true
    if let time = other.duration { summedDuration = (summedDuration ?? 0) + time }
    if let speed = other.maximumSpeed { maximumSpeed = max(maximumSpeed ?? speed, speed) }
    modes.merge(other.modes)
    qualities.merge(other.qualities)
  }

  /// Seconds from the first dated fix to the last, or the time the odometer counted,
  /// moving and standing, where that is longer: fixes before the first date, on the
  /// track's clock (the corpus's neo-m8n.log begins with a GLL a second before its first
  /// RMC: 22 s from its first date, 23 s stopped). For a total, the files' durations
  /// summed; for a file of several sessions, the sessions' own times summed, as two
  /// files' would be. `nil` without dated fixes.
  public var duration: Double? {
    if let summedDuration { return summedDuration }
    guard let first, let last else { return nil }
    let counted = odometer.movingTime + odometer.stoppedTime
    if odometer.sessions > 1 { return counted }
    return max(last.seconds(since: first), counted)
  }

  /// The mean moving speed: ``distance`` over ``movingTime``, metres per second, as for a
  /// trip (``/LocationKit/Trip/meanMovingSpeed``); `nil` without moving time. Standing
  /// time is left out, so that an hour parked does not halve a drive's mean, and so is
  /// the distance bridged across a loss whose time counts as stopped (a receiver
  /// switched off and on 670 m on read 173 m/s).
  public var meanSpeed: Double? {
    movingTime > 0 ? max(0, distance - bridgedDistanceInStoppedTime) / movingTime : nil
  }

  private var sentenceCounts: [(String, Int)] {
    Sentence.Kind.allCases.map { ($0.description, statistics.decoded($0)) }.filter { $0.1 > 0 }
  }

  private var otherCounts: [(String, Int)] {
    statistics.otherByAddress.sorted { $0.key < $1.key }.map { ($0.key.description, $0.value) }
      + (statistics.otherUnlisted > 0 ? [("(unlisted)", statistics.otherUnlisted)] : [])
  }

  private var rejectionCounts: [(RejectionReason, Int)] {
    RejectionReason.allCases.map { ($0, statistics.rejected($0)) }.filter { $0.1 > 0 }
  }

  /// The summary as `whereami summary` prints it, headed by `name` (the file's).
  public func text(name: String) -> String {
    func list(_ pairs: [(String, Int)]) -> String {
      pairs.isEmpty ? "none" : pairs.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }
    var lines = ["\(name):"]
    lines.append("  fixes            \(fixes) (of \(statistics.cycles) reporting cycles)")
    lines.append("  first            \(first?.description ?? "-")")
    lines.append("  last             \(last?.description ?? "-")")
    lines.append("  duration         \(duration.map { formatDuration($0) } ?? "-")")
    lines.append(
      "  distance         \(fixed(distance, 1)) ± \(fixed(distanceError, 1)) m (1σ; jitter-proof; raw path \(fixed(pathLength, 1)) m, displacement \(displacement.map { fixed($0, 1) + " m" } ?? "-"))"
    )
    if !implausible.isEmpty {
      let reasons = ImplausibleFix.allCases.compactMap { reason in implausible[reason].map { "\(reason) \($0)" } }
      lines.append(
        "  set aside        \(implausible.values.reduce(0, +)) implausible fixes: \(reasons.joined(separator: ", "))")
    }
    // A total's files are sessions of their own: only more than one in a file is said.
    let files = isTotal ? mergedFiles : 1
    if sessions > files || fixesBackInTime > 0 {
      let counted =
        sessions > files
        ? "\(sessions) sessions\(isTotal ? " in \(files) files" : "") (logs joined or a clock reset: the time went back, or the date or the place jumped; each counted on its own)"
        : "\(sessions)"
      let left = fixesBackInTime > 0 ? "; \(fixesBackInTime) fixes back in time not counted" : ""
      lines.append("  sessions         \(counted)\(left)")
    }
    if bridges > 0 {
      lines.append(
        "  fix losses       \(bridges) bridged, \(fixed(bridgedDistance, 1)) m of the distance (straight across)")
    }
    lines.append(
      "  moving time      \(fixes > 1 ? formatDuration(movingTime) : "-") (stopped \(fixes > 1 ? formatDuration(stoppedTime) : "-"))"
    )
    lines.append("  max speed        \(maximumSpeed.map { fixed($0, 2) + " m/s" } ?? "-")")
    lines.append("  mean speed       \(meanSpeed.map { fixed($0, 2) + " m/s (moving)" } ?? "-")")
    let modeList = [FixMode.threeD, .twoD, .noFix].compactMap { mode in modes[mode].map { ("\(mode)", $0) } }
    lines.append("  fix modes        \(list(modeList))")
    let qualityList = FixQuality.allCases.compactMap { quality in qualities[quality].map { ("\(quality)", $0) } }
    lines.append("  qualities        \(list(qualityList))")
    lines.append(
      "  sentences        \(statistics.sentences) accepted (\(statistics.uncheckedSentences) without checksum): \(list(sentenceCounts))"
    )
    lines.append("  other sentences  \(list(otherCounts))")
    lines.append("  rejected         \(statistics.totalRejected): \(list(rejectionCounts.map { ("\($0.0)", $0.1) }))")
    if statistics.ignoredFields > 0 {
      lines.append("  fields ignored   \(statistics.ignoredFields) (values unknown to informational fields)")
    }
    lines.append(
      "  input            \(statistics.bytes) bytes, \(statistics.lines) lines, \(statistics.comments) comments")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The summary as one `SUMMARY` JSON object (`whereami summary --json`), with `name` as
  /// its `file` (none for a total).
  public func json(name: String?) -> String {
    func counts(_ pairs: [(String, Int)]) -> String {
      "{" + pairs.map { "\(jsonString($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
    var object = JSONObject()
    object.add("class", string: "SUMMARY")
    if let name { object.add("file", string: name) } else { object.add("total", raw: "true") }
    object.add("fixes", integer: fixes)
    object.add("cycles", integer: statistics.cycles)
    if let first { object.add("first", string: first.description) }
    if let last { object.add("last", string: last.description) }
    object.add("duration", duration, 3)
    object.add("distance", distance, 3)
    object.add("distanceError", distanceError, 3)
    object.add("pathLength", pathLength, 3)
    object.add("displacement", displacement, 3)
    object.add(
      "implausible",
      raw: counts(ImplausibleFix.allCases.compactMap { reason in implausible[reason].map { (reason.rawValue, $0) } }))
    object.add("bridgedDistance", bridgedDistance, 3)
    object.add("fixLosses", integer: bridges)
    object.add("sessions", integer: sessions)
    object.add("fixesBackInTime", integer: fixesBackInTime)
    if fixes > 1 {
      object.add("movingTime", movingTime, 3)
      object.add("stoppedTime", stoppedTime, 3)
    }
    object.add("maxSpeed", maximumSpeed, 3)
    object.add("meanSpeed", meanSpeed, 3)
    object.add(
      "modes",
      raw: counts(
        [FixMode.threeD, .twoD, .noFix].compactMap { mode in modes[mode].map { (String(mode.rawValue), $0) } }))
    object.add(
      "qualities",
      raw: counts(FixQuality.allCases.compactMap { quality in qualities[quality].map { (quality.description, $0) } }))
    object.add("sentences", integer: statistics.sentences)
    object.add("unchecked", integer: statistics.uncheckedSentences)
    object.add("sentenceTypes", raw: counts(sentenceCounts))
    object.add("otherSentences", raw: counts(otherCounts))
    object.add("rejected", integer: statistics.totalRejected)
    object.add("rejections", raw: counts(rejectionCounts.map { ($0.0.key, $0.1) }))
    object.add("ignoredFields", integer: statistics.ignoredFields)
    object.add("bytes", integer: statistics.bytes)
    object.add("lines", integer: statistics.lines)
    return object.finish() + "\n"
  }
}

/// `1 h 02 min 05 s` style.
public func formatDuration(_ seconds: Double) -> String {
  let total = Int(seconds.rounded())
  let (hours, rest) = total.quotientAndRemainder(dividingBy: 3600)
  let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
  if hours > 0 { return "\(hours) h \(minutes) min \(secs) s" }
  if minutes > 0 { return "\(minutes) min \(secs) s" }
  return fixed(seconds, 1) + " s"
}

/// Counts by a small enumeration (fix modes, qualities): an array indexed by raw value, so
/// that counting each of millions of fixes hashes nothing.
public struct Tally<Key: RawRepresentable> where Key.RawValue == Int {
  private var counts = [Int](repeating: 0, count: 16)

  /// How many were counted; `nil` for none.
  public subscript(key: Key) -> Int? {
    let count = counts[key.rawValue]
    return count > 0 ? count : nil
  }

  /// Counts one `key`.
  public mutating func count(_ key: Key) { counts[key.rawValue] += 1 }

  /// Adds another tally's counts to this one's.
  public mutating func merge(_ other: Tally) {
    for index in counts.indices { counts[index] += other.counts[index] }
  }
}
