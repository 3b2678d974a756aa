// swift-tools-version:6.0
// WhereAmI's LocationKit used from outside, as a dependency, through its public API only.
import PackageDescription

// SwiftPM names a dependency given by path after its folder: here the checkout two levels
// up, whatever it is called. In a package of your own, write
// `.package(url: "<WhereAmI's repository>", branch: "main")` and name it after the
// repository (`package: "whereami"`).
let whereAmI = Context.packageDirectory.split(separator: "/").dropLast(2).last.map { $0.lowercased() } ?? "whereami"

let package = Package(
  name: "LocationLogger",
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(
      name: "LocationLogger", dependencies: [.product(name: "LocationKit", package: whereAmI)])
  ],
  swiftLanguageModes: [.v6]
)
