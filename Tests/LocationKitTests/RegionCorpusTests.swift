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
    /// Fixes whose estimate is farther from them than 6 sigmas of the estimate's
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
  /// Allowing 1 % of a log's fixes leaves room for the real receivers' heavier tails.
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
    for figures in all where figures.estimates > 0 {
      #expect(
        Double(figures.far) <= 0.01 * Double(figures.estimates),
        "\(figures.name): \(figures.far) of \(figures.estimates) estimates more than 6 sigmas from their fix")
    }
    #expect(all.filter { $0.carried > 0 }.count >= 30, "the Doppler carrying ran on few logs")
  }
}
