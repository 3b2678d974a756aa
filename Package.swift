// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "WhereAmI",
  products: [
    .library(name: "NMEA", targets: ["NMEA"]),
    .library(name: "Geodesy", targets: ["Geodesy"]),
    .executable(name: "whereami", targets: ["whereami"]),
  ],
  targets: [
    // bytes -> framed, checksummed sentences -> typed sentences -> fixes
    .target(name: "NMEA"),
    // WGS84 geodesic distance and azimuth; no dependencies
    .target(name: "Geodesy"),
    .executableTarget(name: "whereami", dependencies: ["NMEA", "Geodesy"]),
    .testTarget(name: "NMEATests", dependencies: ["NMEA"], resources: [.copy("Resources")]),
    .testTarget(name: "GeodesyTests", dependencies: ["Geodesy"], resources: [.copy("Resources")]),
    .testTarget(name: "WhereAmITests", dependencies: ["NMEA", "Geodesy"]),
  ],
  swiftLanguageModes: [.v6]
)
