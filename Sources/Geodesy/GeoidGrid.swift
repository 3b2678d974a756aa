#if canImport(Glibc)
  import Glibc
#endif

/// A geoid model on a regular latitude/longitude grid: the height of the geoid (mean sea
/// level) above the WGS84 ellipsoid, read from a file in NOAA's GTX format, the one PROJ
/// ships its geoid grids in.
///
/// A GTX file is a 40-byte big-endian header (south latitude and west longitude of the
/// first node, the latitude and longitude spacing, all IEEE doubles in degrees; then the
/// row and column counts as 32-bit integers) followed by `rows × columns` big-endian
/// 32-bit floats in metres, row by row from the south, west to east within a row. Debian's
/// `proj-data` has EGM96 on a 15-minute grid as `/usr/share/proj/egm96_15.gtx`: 721 rows
/// from 90° S to 90° N, 1440 columns from 180° W, with no repeated column at 180° E.
///
/// The file is mapped, not read: a lookup touches the few pages around the position, so a
/// track costs kilobytes of memory, not the grid's 4 MB.
public final class GeoidGrid: @unchecked Sendable {
  // @unchecked: the only stored state is `let`s set once in `init`, and the mapping they
  // point to is private, read-only (PROT_READ) and unmapped only in `deinit`, when no
  // other reference can exist. Reading it from any number of threads is safe.

  /// The model's name, as output says where a separation came from (`EGM96`).
  public let name: String
  /// Where the grid was read from.
  public let path: String
  private let mapping: UnsafeRawPointer
  private let mappingLength: Int
  private let south: Double
  private let west: Double
  private let latitudeSpacing: Double
  private let longitudeSpacing: Double
  private let rows: Int
  private let columns: Int
  /// Whether the columns go round the globe, so that the last column's east neighbour is
  /// the first column.
  private let wrapsAround: Bool

  /// Where Debian's `proj-data` installs EGM96 on a 15-minute grid.
  public static let egm96DefaultPath = "/usr/share/proj/egm96_15.gtx"

  /// EGM96 from ``egm96DefaultPath``, mapped on first use, or why it could not be.
  public static let installedEGM96: Result<GeoidGrid, GeoidGridError> = Result {
    () throws(GeoidGridError) -> GeoidGrid in try GeoidGrid(gtxPath: egm96DefaultPath, name: "EGM96")
  }

  /// Maps the GTX file at `path`; `name` is what output calls the model.
  public init(gtxPath path: String, name: String) throws(GeoidGridError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw GeoidGridError(path: path, reason: .cannotOpen(errno: errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw GeoidGridError(path: path, reason: .cannotOpen(errno: errno))
    }
    let length = Int(status.st_size)
    guard length >= 40 else { throw GeoidGridError(path: path, reason: .notAGrid("shorter than a GTX header")) }
    guard let pointer = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), pointer != MAP_FAILED else {
      throw GeoidGridError(path: path, reason: .cannotOpen(errno: errno))
    }
    let mapped = UnsafeRawPointer(pointer)
    func double(at offset: Int) -> Double {
      Double(bitPattern: UInt64(bigEndian: mapped.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
    func integer(at offset: Int) -> Int {
      Int(Int32(bigEndian: mapped.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
    }
    let south = double(at: 0)
    var west = double(at: 8)
    let latitudeSpacing = double(at: 16)
    let longitudeSpacing = double(at: 24)
    let rows = integer(at: 32)
    let columns = integer(at: 36)
    let problem: String? =
      if !(latitudeSpacing > 0 && longitudeSpacing > 0) || rows < 2 || columns < 2 {
        "its header describes no grid"
      } else if !(south >= -90 && south + latitudeSpacing * Double(rows - 1) <= 90 + 1e-9) {
        "its rows reach beyond the poles"
      } else if length != 40 + 4 * rows * columns {
        "it has \(length) bytes where its header promises \(40 + 4 * rows * columns)"
      } else {
        nil
      }
    if let problem {
      munmap(pointer, length)
      throw GeoidGridError(path: path, reason: .notAGrid(problem))
    }
    if west >= 180 { west -= 360 }
    self.name = name
    self.path = path
    self.mapping = mapped
    self.mappingLength = length
    self.south = south
    self.west = west
    self.latitudeSpacing = latitudeSpacing
    self.longitudeSpacing = longitudeSpacing
    self.rows = rows
    self.columns = columns
    wrapsAround = abs(longitudeSpacing * Double(columns) - 360) < longitudeSpacing / 2
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: mapping), mappingLength) }

  /// The geoid's height above the WGS84 ellipsoid at a position, in metres (the `N` of
  /// `h = H + N`), interpolated bilinearly between the four surrounding nodes as PROJ
  /// does; `nil` outside the grid.
  public func separation(latitude: Double, longitude: Double) -> Double? {
    guard latitude.isFinite, longitude.isFinite else { return nil }
    let row = (latitude - south) / latitudeSpacing
    guard row >= 0, row <= Double(rows - 1) else { return nil }
    var column = (longitude - west) / longitudeSpacing
    if wrapsAround {
      column = column.truncatingRemainder(dividingBy: Double(columns))
      if column < 0 { column += Double(columns) }
    } else if column < 0 || column > Double(columns - 1) {
      return nil
    }
    let row0 = min(Int(row), rows - 2)
    let column0 = min(Int(column), columns - 1)
    let column1 = column0 + 1 == columns ? (wrapsAround ? 0 : column0) : column0 + 1
    let rowFraction = row - Double(row0)
    let columnFraction = column - Double(column0)
    let southWest = node(row0, column0)
    let southEast = node(row0, column1)
    let northWest = node(row0 + 1, column0)
    let northEast = node(row0 + 1, column1)
    let southern = southWest + (southEast - southWest) * columnFraction
    let northern = northWest + (northEast - northWest) * columnFraction
    return southern + (northern - southern) * rowFraction
  }

  private func node(_ row: Int, _ column: Int) -> Double {
    let offset = 40 + 4 * (row * columns + column)
    let bits = UInt32(bigEndian: mapping.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    return Double(Float(bitPattern: bits))
  }
}

/// Why a geoid grid could not be used.
public struct GeoidGridError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong with the file.
  public enum Reason: Sendable, Equatable {
    /// The file could not be opened, examined or mapped.
    case cannotOpen(errno: Int32)
    /// The file is not a GTX grid.
    case notAGrid(String)
  }

  /// The file.
  public var path: String
  /// What went wrong with it.
  public var reason: Reason

  public var description: String {
    switch reason {
    case .cannotOpen(let code): "cannot read the geoid grid \(path): \(String(cString: strerror(code)))"
    case .notAGrid(let problem): "\(path) is not a GTX geoid grid: \(problem)"
    }
  }
}
