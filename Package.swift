// swift-tools-version:6.0
// WhereAmI is licensed under the Apache License, Version 2.0: see LICENSE.
import PackageDescription

let package = Package(
  name: "WhereAmI",
  products: [
    .library(name: "NMEA", targets: ["NMEA"]),
    .library(name: "Geodesy", targets: ["Geodesy"]),
    .library(name: "LocationKit", targets: ["LocationKit"]),
    .library(name: "MotionKit", targets: ["MotionKit"]),
    .library(name: "TrackExport", targets: ["TrackExport"]),
    .executable(name: "whereami", targets: ["whereami"]),
  ],
  targets: [
    // WGS84 geodesic distance and azimuth, local map projections, the geoid; no dependencies
    .target(name: "Geodesy"),
    // bytes -> framed, checksummed sentences -> typed sentences -> fixes (a fix's geoid
    // separation and derived speed come from Geodesy)
    .target(name: "NMEA", dependencies: ["Geodesy"]),
    // gpsd's client library, libgps (Debian: libgps-dev)
    .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
    // Location, LocationError, LocationManager and its delegate, the sources
    .target(name: "LocationKit", dependencies: ["NMEA", "Geodesy", "CGPS"]),
    // MotionManager: accelerometer, gyroscope, magnetometer, attitude and shakes from the
    // kernel's IIO sensors, gpsd's ATT reports or a recorded sensor log
    .target(name: "MotionKit", dependencies: ["LocationKit", "NMEA", "Geodesy"]),
    // Writers (GPX, GeoJSON, KML, CSV, JSON lines, SVG), the field table, TPV JSON and
    // text lines, summaries and trips: what a program that records tracks needs
    .target(name: "TrackExport", dependencies: ["NMEA", "Geodesy", "LocationKit"]),
    // Blocks the interrupt signals before the runtime and the program's code run, so that
    // one sent while whereami starts waits for its handler
    .target(name: "CEarlySignals"),
    .executableTarget(
      name: "whereami",
      dependencies: ["NMEA", "Geodesy", "LocationKit", "MotionKit", "TrackExport", "CEarlySignals"]),
    .testTarget(name: "NMEATests", dependencies: ["NMEA", "TestSupport"], resources: [.copy("Resources")]),
    .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "TestSupport"], resources: [.copy("Resources")]),
    // Helpers shared by the test targets: child processes, free ports.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "LocationKitTests", dependencies: ["LocationKit", "NMEA", "Geodesy", "TestSupport"],
      resources: [.copy("Resources")]),
    .testTarget(name: "MotionKitTests", dependencies: ["MotionKit", "LocationKit", "TestSupport"]),
    .testTarget(name: "TrackExportTests", dependencies: ["TrackExport", "Geodesy", "LocationKit", "NMEA", "TestSupport"]),
    .testTarget(
      name: "WhereAmITests", dependencies: ["whereami", "TrackExport", "LocationKit", "NMEA", "TestSupport"],
      resources: [.copy("Resources")]),
  ],
  swiftLanguageModes: [.v6]
)
