import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// Regions from the command line: `--region NAME=LAT,LON,RADIUS`, `--geojson FILE` and
/// `--anchor RADIUS[@LAT,LON]`.
enum RegionArguments {
  /// The largest GeoJSON file read: it is parsed whole, at some twenty times its size.
  static let maximumFileSize = 8 << 20
  /// The most vertices of all regions together (a circle counts one): every fix is
  /// measured against each, by a geodesic, about a microsecond each.
  static let maximumVertices = 20_000

  /// A circle from `NAME=LAT,LON,RADIUS` (degrees, degrees, metres).
  static func circle(_ text: String, command: String) throws(CommandError) -> Region {
    let usage = CommandError(
      message: "\(command): --region '\(text)' is not NAME=LAT,LON,RADIUS (degrees, degrees, metres)", code: .usage)
    guard let equals = text.lastIndex(of: "=") else { throw usage }
    let name = TextWidth.sanitized(String(text[..<equals]))
    let numbers = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
      .map { Double($0.trimmingSpaces) }
    guard !name.isEmpty, numbers.count == 3, let latitude = numbers[0], let longitude = numbers[1],
      let radius = numbers[2]
    else { throw usage }
    do throws(LocationError) {
      return try Region(identifier: name, latitude: latitude, longitude: longitude, radius: radius)
    } catch {
      throw CommandError(message: "\(command): --region: \(error.message)", code: .usage)
    }
  }

  /// The regions of `--region` options and `--geojson` files, in the order given; names
  /// must be unique.
  static func regions(_ arguments: ParsedArguments, command: String) throws(CommandError) -> [Region] {
    var regions: [Region] = []
    for text in arguments.allValues("region") { regions.append(try circle(text, command: command)) }
    let nameProperty = arguments.value("name-property")
    for path in arguments.allValues("geojson") {
      var bytes: [UInt8] = []
      var tooLarge = false
      do throws(CommandError) {
        let file = try InputFile(path: path)
        try file.forEachChunk { chunk in
          bytes += chunk
          tooLarge = bytes.count > maximumFileSize
          return !tooLarge
        }
      } catch {
        throw CommandError(message: "\(command): --geojson: \(error.message ?? path)", code: error.code)
      }
      if tooLarge {
        throw CommandError(
          message: "\(command): \(path): larger than \(maximumFileSize >> 20) MiB, more than regions need",
          code: .dataError)
      }
      do throws(GeoJSONRegions.Failure) {
        regions += try GeoJSONRegions.regions(from: bytes, nameProperty: nameProperty)
      } catch {
        throw CommandError(message: "\(command): \(path): \(error.message)", code: .dataError)
      }
    }
    let vertices = regions.reduce(0) { total, region in
      switch region.shape {
      case .circle: total + 1
      case .polygons(let polygons): total + polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } }
      }
    }
    if vertices > maximumVertices {
      throw CommandError(
        message: "\(command): the regions have \(vertices) vertices in all, more than \(maximumVertices) (each fix is "
          + "measured against every one): simplify the polygons",
        code: .dataError)
    }
    var seen: Set<String> = []
    for region in regions where !seen.insert(region.identifier).inserted {
      throw CommandError(
        message: "\(command): two regions are named '\(region.identifier)' (names must be unique)",
        code: arguments.allValues("geojson").isEmpty ? .usage : .dataError)
    }
    return regions
  }

  /// The anchor watch's `RADIUS[@LAT,LON]`: the swing radius in metres, and the anchor's
  /// position when given (else where the boat is at the first fix).
  static func anchor(_ text: String, command: String) throws(CommandError) -> (
    radius: Double, position: (latitude: Double, longitude: Double)?
  ) {
    let usage = CommandError(
      message: "\(command): --anchor '\(text)' is not RADIUS or RADIUS@LAT,LON (metres, degrees)", code: .usage)
    let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let radius = Double(parts[0].trimmingSpaces), radius.isFinite, radius > 0 else { throw usage }
    guard parts.count == 2 else { return (radius, nil) }
    let numbers = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
    guard numbers.count == 2, let latitude = numbers[0], let longitude = numbers[1], latitude.isFinite,
      longitude.isFinite, abs(latitude) <= 90
    else { throw usage }
    return (radius, (latitude, longitude))
  }
}

extension Substring {
  /// Without the spaces around it.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }
}
