import Geodesy
import LocationKit
import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// The notice that a receiver's dates look a whole number of GPS week-number rollovers
/// (1,024 weeks, 19.6 years) early: firmware that predates a rollover counts its weeks
/// from the previous one, so April 2019's turned 2019-07-02 into 1999-11-16. gpsd
/// corrects such dates against its build date; here `--week-rollover N` does, once the
/// user has seen the notice, since a log's early date may be true (the corpus has logs
/// from 2005).
///
/// The reference is the time the data was read: now, for a live source; a log file's
/// modification time, which is when its recording ended. The first fix's date, with the
/// rollovers added, must land within 2 days of it (a clock's error, a recording of a day
/// or two). A log copied since (its file time is the copy's) is not told: the gpsd
/// corpus's Haicom log of 2007-04-08, copied 12 days after 1,024 weeks had passed, would
/// have been taken for one with a window of weeks.
enum DeclinationNotice {
  /// The notice, said once, that `source`'s headings use a declination the World Magnetic
  /// Model cannot vouch for there and then.
  static func message(_ caveat: MagneticModel.Reliability, source: String) -> String {
    let why =
      switch caveat {
      case .outsideValidity:
        "the date is outside the model's years (2025.0 to 2030.0), so its secular variation is extrapolated"
      case .blackout:
        "this is the model's blackout zone near a magnetic pole (horizontal field under 2,000 nT), where "
          + "compasses and the declination are unreliable"
      case .caution:
        "this is the model's caution zone near a magnetic pole (horizontal field under 6,000 nT)"
      case .reliable: "it is reliable"
      }
    return "whereami: \(source): the declination between true and magnetic headings comes from WMM2025, and "
      + "\(why); JSON marks such headings' declinationCaveat"
  }
}

enum WeekRolloverNotice {
  /// The rollovers `time` looks short of, read at `reference` (seconds since the epoch);
  /// `nil` when none.
  static func rollovers(of time: Timestamp, reference: Double) -> Int? {
    let day = 86_400.0
    for count in 1...4 {
      let corrected = time.secondsSinceEpoch + Double(count * FixAssembler.daysPerRollover) * day
      if abs(reference - corrected) <= 2 * day { return count }
    }
    return nil
  }

  /// When the data of `address` was read, and what to call that: now for a live source,
  /// a regular file's modification time; `nil` when neither tells.
  static func reference(for address: SourceAddress) -> (seconds: Double, name: String)? {
    if address.isLive { return (SystemClock.wall(), "now") }
    var info = stat()
    let found: Bool
    switch address {
    case .file(let path): found = stat(path, &info) == 0
    case .standardInput: found = fstat(STDIN_FILENO, &info) == 0
    default: found = false
    }
    guard found else { return nil }
    let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    return (modified, "the file's last change")
  }

  /// The notice for `time` from `source`, when it looks rolled over.
  static func message(_ time: Timestamp, source: String, reference: (seconds: Double, name: String)) -> String? {
    guard let count = rollovers(of: time, reference: reference.seconds) else { return nil }
    let weeks = count * 1024
    return "whereami: \(source): the receiver's date \(time.date) is \(weeks) weeks before \(reference.name), to "
      + "within days: its GPS week number looks rolled over (receivers made before a rollover do this); "
      + "--week-rollover \(count) adds the \(weeks) weeks, as gpsd does"
  }
}
