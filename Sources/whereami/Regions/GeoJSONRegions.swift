import LocationKit

/// Regions from a GeoJSON document (RFC 7946): a FeatureCollection, a Feature or a bare
/// geometry. A `Polygon` is a region, a `MultiPolygon` one region of several parts, and a
/// `Point` with a `radius` property (metres) a circle. A region's name is the feature's
/// property given (`--name-property`), else its `name` property, else its `id`, else
/// `feature N`. Anything else, or anything RFC 7946 does not allow (rings of fewer than
/// four positions or not closed, positions that are not numbers), is refused with the
/// feature it is in.
enum GeoJSONRegions {
  /// Why a document gives no regions, naming the feature.
  struct Failure: Error {
    var message: String
  }

  static func regions(from bytes: [UInt8], nameProperty: String? = nil) throws(Failure) -> [Region] {
    let document: JSONValue
    do throws(JSONValue.ParseError) {
      document = try JSONValue.parse(bytes)
    } catch {
      throw Failure(message: "not JSON at line \(error.line), column \(error.column): \(error.reason)")
    }
    guard let type = document["type"]?.string else { throw Failure(message: "not GeoJSON: no \"type\" member") }
    switch type {
    case "FeatureCollection":
      guard let features = document["features"]?.array else {
        throw Failure(message: "the FeatureCollection has no \"features\" array")
      }
      guard !features.isEmpty else { throw Failure(message: "the FeatureCollection has no features") }
      var regions: [Region] = []
      for (index, feature) in features.enumerated() {
        regions.append(try region(feature: feature, number: index + 1, nameProperty: nameProperty))
      }
      return regions
    case "Feature":
      return [try region(feature: document, number: 1, nameProperty: nameProperty)]
    default:
      return [try region(geometry: document, properties: nil, name: "feature 1", label: "the geometry")]
    }
  }

  private static func region(feature: JSONValue, number: Int, nameProperty: String?) throws(Failure) -> Region {
    var label = "feature \(number)"
    guard feature["type"]?.string == "Feature" else { throw Failure(message: "\(label) is not a Feature") }
    let properties = feature["properties"]
    var name: String
    if let nameProperty {
      guard let value = properties?[nameProperty]?.nameText else {
        throw Failure(message: "\(label) has no property \"\(nameProperty)\" to name it by")
      }
      name = value
    } else {
      name = properties?["name"]?.nameText ?? feature["id"]?.nameText ?? label
    }
    // Shown on terminals: no control characters from a file.
    name = TextWidth.sanitized(name)
    if name.isEmpty { name = label }
    if name != label { label += " (\"\(name)\")" }
    guard let geometry = feature["geometry"], geometry != .null else {
      throw Failure(message: "\(label) has no geometry")
    }
    return try region(geometry: geometry, properties: properties, name: name, label: label)
  }

  private static func region(geometry: JSONValue, properties: JSONValue?, name: String, label: String) throws(Failure)
    -> Region
  {
    guard let type = geometry["type"]?.string else { throw Failure(message: "\(label): the geometry has no type") }
    guard let coordinates = geometry["coordinates"] else {
      throw Failure(message: "\(label): the \(type) has no coordinates")
    }
    switch type {
    case "Point":
      let (latitude, longitude) = try position(coordinates, label)
      guard let radius = properties?["radius"]?.number else {
        throw Failure(message: "\(label): a Point is a region only with a \"radius\" property in metres")
      }
      return try made(label, name) { () throws(LocationError) in
        try Region(identifier: name, latitude: latitude, longitude: longitude, radius: radius)
      }
    case "Polygon":
      let part = try polygon(coordinates, label, name)
      return try made(label, name) { () throws(LocationError) in try Region(identifier: name, polygons: [part]) }
    case "MultiPolygon":
      guard let parts = coordinates.array, !parts.isEmpty else {
        throw Failure(message: "\(label): a MultiPolygon's coordinates must be a non-empty array of polygons")
      }
      var polygons: [RegionPolygon] = []
      for (index, part) in parts.enumerated() {
        polygons.append(try polygon(part, "\(label), polygon \(index + 1)", name))
      }
      return try made(label, name) { () throws(LocationError) in try Region(identifier: name, polygons: polygons) }
    default:
      throw Failure(message: "\(label): a \(type) is not a region (Polygon, MultiPolygon or Point with a radius)")
    }
  }

  /// What `make` makes, or its error as the feature's.
  private static func made<T>(_ label: String, _ name: String, _ make: () throws(LocationError) -> T) throws(Failure)
    -> T
  {
    do throws(LocationError) {
      return try make()
    } catch {
      throw Failure(message: "\(label): \(error.message.replacingRegionPrefix(name))")
    }
  }

  private static func polygon(_ coordinates: JSONValue, _ label: String, _ name: String) throws(Failure)
    -> RegionPolygon
  {
    guard let rings = coordinates.array, !rings.isEmpty else {
      throw Failure(message: "\(label): a Polygon's coordinates must be a non-empty array of rings")
    }
    var vertices: [[RegionPolygon.Vertex]] = []
    for (index, ring) in rings.enumerated() {
      let what = index == 0 ? "its outer ring" : "hole \(index)"
      guard let positions = ring.array, positions.count >= 4 else {
        throw Failure(message: "\(label): \(what) has fewer than 4 positions (RFC 7946 3.1.6)")
      }
      var points: [RegionPolygon.Vertex] = []
      for position in positions {
        let (latitude, longitude) = try self.position(position, label)
        points.append(RegionPolygon.Vertex(latitude: latitude, longitude: longitude))
      }
      guard points.first == points.last else {
        throw Failure(message: "\(label): \(what) is not closed (its last position must be its first)")
      }
      vertices.append(points)
    }
    return try made(label, name) { () throws(LocationError) in
      try RegionPolygon(outer: vertices[0], holes: Array(vertices.dropFirst()), name: name)
    }
  }

  /// A GeoJSON position, `[longitude, latitude]` with an optional altitude.
  private static func position(_ value: JSONValue, _ label: String) throws(Failure) -> (Double, Double) {
    guard let numbers = value.array, (2...3).contains(numbers.count), let longitude = numbers[0].number,
      let latitude = numbers[1].number
    else {
      throw Failure(message: "\(label): a position must be [longitude, latitude] in degrees")
    }
    guard abs(latitude) <= 90, abs(longitude) <= 180 else {
      throw Failure(message: "\(label): [\(longitude), \(latitude)] is not a longitude and latitude")
    }
    return (latitude, longitude)
  }
}

extension String {
  /// A region's error without its "region NAME: " (the feature is named already).
  fileprivate func replacingRegionPrefix(_ name: String) -> String {
    hasPrefix("region \(name): ") ? String(dropFirst("region \(name): ".count)) : self
  }
}
