import Foundation
import NMEA
import TestSupport

/// Where the shared gpsd corpus lives: `$WHEREAMI_CORPUS`, or `../shared/corpus/gpsd`
/// beside the package (the layout of a checkout and of CI).
enum Corpus {
  static var packageRoot: URL { TestPaths.packageRoot }
  static var directory: URL { TestPaths.corpus }
  static var logs: [URL] { TestPaths.corpusLogs }
}

/// Decodes a whole byte array in one go.
func decodeAll(
  _ bytes: [UInt8], options: NMEADecoder.Options = .init()
) -> (
  fixes: [Fix], rejections: [Rejection], sentences: [(Sentence, Int)], statistics: DecoderStatistics,
  headings: [HeadingReading]
) {
  var decoder = NMEADecoder(options: options)
  var fixes: [Fix] = []
  var rejections: [Rejection] = []
  var sentences: [(Sentence, Int)] = []
  var headings: [HeadingReading] = []
  let handle: (DecoderEvent) -> Void = { event in
    switch event {
    case .fix(let fix): fixes.append(fix)
    case .rejected(let rejection): rejections.append(rejection)
    case .sentence(let sentence, let line): sentences.append((sentence, line))
    case .heading(let reading): headings.append(reading)
    case .accepted: break
    }
  }
  bytes.withUnsafeBytes { decoder.decode($0, handle) }
  decoder.finish(handle)
  return (fixes, rejections, sentences, decoder.statistics, headings)
}
