import LocationKit
import TrackExport

#if canImport(Glibc)
  import Glibc
#endif

/// `whereami regions --region NAME=LAT,LON,RADIUS ... | --geojson FILE [SOURCE]`: the
/// receiver entering and leaving regions, as it happens.
enum RegionsCommand {
  static let spec = CommandSpec(
    name: "regions",
    abstract: "Tell when the receiver enters or leaves regions: circles, or polygons from a GeoJSON file.",
    arguments: "[SOURCE]",
    minimumArguments: 0,
    maximumArguments: 1,
    options: [
      OptionSpec(
        name: "region", value: "NAME=LAT,LON,RADIUS",
        help: "A circle of RADIUS metres about LAT,LON (degrees); repeat for several."),
      OptionSpec(
        name: "geojson", value: "FILE",
        help: "The Polygon, MultiPolygon and Point (with a radius property, metres) features of a GeoJSON file; "
          + "repeat for several."),
      OptionSpec(
        name: "name-property", value: "KEY",
        help: "The feature property that names a GeoJSON region (default: name, else the feature's id)."),
      OptionSpec(name: "json", value: nil, help: "One JSON object (class REGION) per event."),
    ] + SourceRun.specs.filter { $0.name != "accuracy" && $0.name != "distance-filter" },
    discussion: """
      SOURCE is any source of whereami print (default $WHEREAMI_SOURCE, else
      gpsd://localhost:2947): live, each event is printed as it happens; a log is read to
      its end.
      A region's state is decided with the position's uncertainty, not against the raw
      fix: it becomes outside once the estimated position is past the boundary by 2.33
      sigmas of its uncertainty (99 % one-sided), and inside likewise, so jitter at a
      boundary gives no flurry of events. The uncertainty is the larger of the fix's own
      accuracy and the scatter the receiver shows; with Doppler speeds a multipath
      excursion at rest is told from a real movement. The state is unknown until decided,
      while the fix is lost, and for a region smaller than the uncertainty can resolve
      (said once).
      Lines: ENTER, EXIT, or STATE (the first decision, an unknown stretch, or a state
      that completes no crossing), the fix's UTC time, the region, its state (inside,
      outside, unknown), the estimated position's distance to the boundary (negative
      inside), the threshold it had to pass, and the fix's coordinates.
      A GeoJSON file that is not valid GeoJSON, or whose features are no regions, is
      refused with the feature named (exit code 65).
      """)

  static func run(_ arguments: ParsedArguments) throws(CommandError) {
    let regions = try RegionArguments.regions(arguments, command: spec.name)
    guard !regions.isEmpty else {
      throw CommandError(
        message: "regions: name a region: --region NAME=LAT,LON,RADIUS or --geojson FILE", code: .usage)
    }
    let source = try SourceRun(
      arguments, address: SourceRun.address(arguments, defaultSource: PrintCommand.defaultSource),
      command: spec.name, label: "whereami.regions")
    regions.forEach { source.manager.startMonitoring(for: $0) }
    let output = SharedOutput(descriptor: STDOUT_FILENO, flushingEachLine: source.isLive)
    let json = arguments.has("json")
    let session = LocationSession(
      source, verbose: arguments.has("verbose"),
      regionEvent: { event, severalDevices in
        output.write { line in
          line.append(string: json ? RegionLines.json(event) : RegionLines.text(event, severalDevices: severalDevices))
          line.append(UInt8(ascii: "\n"))
        }
      },
      render: { _, _, _, _ in true })
    let code = session.run()
    if let failure = output.finish() { throw failure }
    if code != .success { throw CommandError(message: nil, code: code) }
  }
}
