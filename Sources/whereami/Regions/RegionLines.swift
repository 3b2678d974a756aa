import LocationKit
import TrackExport

/// The lines `whereami regions` (and `print --anchor --json`) writes for region events.
///
/// Text: the kind (`ENTER`, `EXIT`, or `STATE` for a state that completes no crossing),
/// the decisive fix's UTC time, the region, its state, the estimated position's signed
/// distance to the boundary (negative inside), the threshold it had to pass, and the fix's
/// coordinates; `-` for what is not known (a state made unknown by a lost fix has no
/// fix). JSON: a `REGION` object with the same values.
enum RegionLines {
  static func kind(_ event: RegionEvent) -> String {
    switch event.transition {
    case .entered: "ENTER"
    case .exited: "EXIT"
    case nil: "STATE"
    }
  }

  static func text(_ event: RegionEvent, severalDevices: Bool) -> String {
    var fields: [String] = []
    if severalDevices, let device = event.device { fields.append(device) }
    fields.append(kind(event).padding(5))
    fields.append(event.location.map(time) ?? "-")
    fields.append(event.region.identifier)
    fields.append(event.state.rawValue.padding(7))
    fields.append(event.distance.map { "distance \(fixed($0, 1)) m" } ?? "distance -")
    fields.append(event.threshold.map { "threshold \(fixed($0, 1)) m" } ?? "threshold -")
    if let location = event.location {
      fields.append("at \(fixed(location.latitude, 6)),\(fixed(location.longitude, 6))")
    }
    return fields.joined(separator: "  ")
  }

  static func json(_ event: RegionEvent) -> String {
    var object = JSONObject()
    object.add("class", string: "REGION")
    object.add("event", string: kind(event))
    object.add("region", string: event.region.identifier)
    object.add("state", string: event.state.rawValue)
    if let device = event.device { object.add("device", string: device) }
    if let location = event.location {
      object.add("time", string: time(location))
      object.add("lat", location.latitude, 9)
      object.add("lon", location.longitude, 9)
    }
    object.add("distance", event.distance, 2)
    object.add("threshold", event.threshold, 2)
    if event.isRequested { object.add("requested", raw: "true") }
    return object.finish()
  }

  /// The fix's UTC time: its timestamp, or its time of day without a date.
  static func time(_ location: Location) -> String {
    location.timestamp?.description ?? location.timeOfDay.description
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
