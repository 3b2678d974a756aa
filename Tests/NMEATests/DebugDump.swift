import Foundation
import NMEA
import Testing

/// Prints rejections and fixes of `$WHEREAMI_DUMP` (a log path); does nothing otherwise.
@Test func debugDump() throws {
  guard let path = ProcessInfo.processInfo.environment["WHEREAMI_DUMP"] else { return }
  let result = decodeAll([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
  for rejection in result.rejections { print("REJ", rejection) }
  for fix in result.fixes {
    print(
      "FIX", fix.time?.description ?? "-", fix.timeOfDay, fix.mode, fix.latitude ?? .nan, fix.longitude ?? .nan,
      fix.altitudeMSL ?? .nan, fix.speed ?? .nan, fix.course ?? .nan)
  }
}
