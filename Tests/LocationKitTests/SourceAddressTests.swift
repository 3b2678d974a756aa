import Foundation
import TestSupport
import Testing

@testable import LocationKit

@Suite struct SourceAddressTests {
  @Test func aPathIsWhatItIs() throws {
    #expect(try SourceAddress("/dev/null") == .file(path: "/dev/null"))
    #expect(try SourceAddress("/dev/zero") == .file(path: "/dev/zero"))
    #expect(try SourceAddress("/dev/stdin") == .file(path: "/dev/stdin"))
    // A receiver not plugged in yet is waited for, as a serial device.
    #expect(try SourceAddress("/dev/ttyUSB97") == .serial(path: "/dev/ttyUSB97"))
    #expect(try SourceAddress("/no/such/log.nmea") == .file(path: "/no/such/log.nmea"))
    let pseudoTerminal = try PseudoTerminal()
    #expect(try SourceAddress(pseudoTerminal.devicePath) == .serial(path: pseudoTerminal.devicePath))
    // An empty SOURCE (an unset variable) is no path: a usage error, not a file not found.
    #expect(throws: LocationError.self) { try SourceAddress("") }
  }

  @Test func gpsdDevicesArePathsOrGpsdsOwnNetworkDevices() throws {
    #expect(
      try SourceAddress("gpsd://localhost:2947/dev/ttyUSB0")
        == .gpsd(host: "localhost", port: 2947, device: "/dev/ttyUSB0"))
    let network = try SourceAddress("gpsd://10.0.0.2:2947/tcp://10.0.0.5:10110")
    #expect(network == .gpsd(host: "10.0.0.2", port: 2947, device: "tcp://10.0.0.5:10110"))
    #expect(network.description == "gpsd://10.0.0.2:2947/tcp://10.0.0.5:10110")
  }
}
