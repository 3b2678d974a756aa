import Foundation
import Geodesy
import NMEA
import TestSupport
import Testing

@testable import LocationKit

/// The estimate regions are decided on, on every real receiver's log of the gpsd corpus:
/// it must stay with the receiver's own fixes as far as its uncertainty says, whatever the
/// receiver does with its speeds and courses (the Doppler carrying is where a receiver the
/// generated families do not cover would show).
@Suite struct RegionCorpusTests {
  struct LogFigures {
    var name: String
    var estimates = 0
    var carried = 0
    /// Fixes whose carried estimate is farther from them than 6 sigmas of the estimate's
    /// uncertainty.
    var far = 0
    var worstRatio = 0.0
  }

  static func figures(_ log: URL) throws -> LogFigures {
    let bytes = [UInt8](try Data(contentsOf: log))
    var decoder = NMEADecoder()
    var estimators: [String: PositionEstimator] = [:]
    var figures = LogFigures(name: log.lastPathComponent)
    let handle: (DecoderEvent) -> Void = { event in
      guard case .fix(let fix) = event else { return }
      guard let location = Location(fix) else {
        for key in estimators.keys { estimators[key]!.reset() }
        return
      }
      guard location.hasTime else { return }
      let key = location.device ?? ""
      guard let estimate = estimators[key, default: PositionEstimator()].add(location) else { return }
      figures.estimates += 1
      if estimate.usesVelocities { figures.carried += 1 }
      let apart = Geodesic.wgs84.distance(
        latitude1: estimate.latitude, longitude1: estimate.longitude, latitude2: location.latitude,
        longitude2: location.longitude)
      // Without velocities the estimate is the median of 5 s, behind a moving receiver by
      // design; carried, it is where the receiver is now.
      guard estimate.usesVelocities else { return }
      let ratio = apart / estimate.sigma
      figures.worstRatio = max(figures.worstRatio, ratio)
      if ratio > 6 { figures.far += 1 }
    }
    bytes.withUnsafeBytes { decoder.decode($0, handle) }
    decoder.finish(handle)
    return figures
  }

  /// For a fix and an estimate each off the truth by at most one sigma per axis, Gaussian,
  /// their distance is Rayleigh with a scale of √2 sigmas: past 6 sigmas once in 8,100.
  /// Real receivers have heavier tails: one that holds its position and then steps, or
  /// flips between the cells its coordinates are rounded to, surprises the spread it has
  /// measured so far. So: at most 5 % of a log's carried estimates (at least one) past 6
  /// sigmas, none past 12, and over the whole corpus at most 1 %.
  @Test func theEstimateStaysWithTheFixesOnEveryCorpusLog() throws {
    let logs = corpusLogs
    #expect(logs.count >= 100, "the gpsd corpus is missing")
    var all: [LogFigures] = []
    for log in logs { all.append(try Self.figures(log)) }
    if ProcessInfo.processInfo.environment["WHEREAMI_REGION_REPORT"] == "1" {
      for figures in all.sorted(by: { $0.worstRatio > $1.worstRatio }) {
        print(
          "region corpus: \(figures.name): \(figures.estimates) estimates, \(figures.carried) carried, "
            + "\(figures.far) far, worst \(String(format: "%.1f", figures.worstRatio)) sigmas")
      }
    }
    for figures in all where figures.carried > 0 {
      #expect(
        Double(figures.far) <= max(1, 0.05 * Double(figures.carried)),
        "\(figures.name): \(figures.far) of \(figures.carried) carried estimates more than 6 sigmas from their fix")
      #expect(figures.worstRatio <= 12, "\(figures.name): a carried estimate \(figures.worstRatio) sigmas from its fix")
    }
    let far = all.reduce(0) { $0 + $1.far }
    let carried = all.reduce(0) { $0 + $1.carried }
    if ProcessInfo.processInfo.environment["WHEREAMI_REGION_REPORT"] == "1" {
      print(
        "region corpus: \(far) of \(carried) carried estimates past 6 sigmas, on \(all.filter { $0.carried > 0 }.count) logs"
      )
    }
    #expect(Double(far) <= 0.01 * Double(carried), "\(far) of \(carried) carried estimates past 6 sigmas")
    #expect(all.filter { $0.carried > 0 }.count >= 30, "the Doppler carrying ran on few logs")
  }
}
