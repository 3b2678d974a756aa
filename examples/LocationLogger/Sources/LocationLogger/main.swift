// LocationLogger [SOURCE]: prints each location with its accuracy and the distance
// travelled so far, from gpsd by default or from any SOURCE `whereami` takes (a log file,
// `-`, a serial receiver, tcp://, udp://, gpsd://). Stops on a final error such as denied,
// keeps going while the location is unknown, and ends cleanly on Ctrl-C or at the end of a
// log, with the distance travelled on its last line.
//
// Exit status: 0 when the source ended or on Ctrl-C, 1 when updates stopped on an error
// (denied, source not found, ...), 64 for a SOURCE that is not valid.
import Dispatch
import Foundation
import LocationKit

/// A line on standard output, written at once (a pipe's reader sees each location as it
/// comes, not when a buffer fills).
func say(_ items: String...) {
  FileHandle.standardOutput.write(Data((items.joined(separator: " ") + "\n").utf8))
}

func warn(_ text: String) {
  FileHandle.standardError.write(Data("LocationLogger: \(text)\n".utf8))
}

func fail(_ text: String, status: Int32) -> Never {
  warn(text)
  exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.count > 1 || arguments.first == "--help" {
  fail("usage: LocationLogger [SOURCE] (default gpsd://localhost:2947)", status: 64)
}

let manager: LocationManager
do {
  let address = try SourceAddress(arguments.first ?? "gpsd://localhost:2947")
  manager = LocationManager(source: try address.makeSource())
} catch {
  fail(error.message, status: 64)
}

// Ctrl-C stops the updates, which ends the loop below; the distance is printed after it.
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
// (`@Sendable`: the handler runs on a dispatch queue, not on the main actor of this top-level code.)
interrupt.setEventHandler { @Sendable [manager] in manager.stopUpdatingLocation() }
interrupt.resume()

var odometer = TrackOdometer()
var stoppedBy: LocationError?
// Made before updates start, so that it sees the first of them.
let events = manager.updates
manager.startUpdatingLocation()
for await event in events {
  switch event {
  case .update(let location, _):
    odometer.add(location)
    let accuracy = location.horizontalAccuracy.map { String(format: "±%.1f m", $0) } ?? "accuracy unknown"
    let position = String(format: "%.7f %.7f", location.latitude, location.longitude)
    say(position, accuracy, String(format: "distance %.1f m", odometer.distance))
  case .failure(let error) where error.code == .locationUnknown:
    // Transient: the receiver has no fix, or went quiet; updates resume by themselves.
    warn("waiting for a fix (\(error.message))")
  case .failure(let error) where error.code == .sourceEnded:
    break  // the end of a log: the sequence ends after this
  case .failure(let error) where error.isFinal:
    // Denied, not found, ...: updates have stopped, and the sequence ends after this.
    stoppedBy = error
    warn("\(error.kind): \(error.message)")
  case .failure(let error):
    warn("\(error.kind): \(error.message)")  // retried by the source
  default:
    break
  }
}
manager.stopUpdatingLocation()
say(String(format: "travelled %.1f m", odometer.distance))
exit(stoppedBy == nil ? 0 : 1)
