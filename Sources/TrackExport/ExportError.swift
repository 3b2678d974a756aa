/// Why an export could not be written: the writers' temporary files, or the destination
/// their flush writes to. Always a failure of input or output; the message names the file
/// and the system's reason.
public struct ExportError: Error, CustomStringConvertible, Sendable {
  /// What failed, as a user should read it: `cannot write '/tmp/x.gpx': No space left on device`.
  public var message: String

  /// An error with its message.
  public init(message: String) { self.message = message }

  public var description: String { message }
}
