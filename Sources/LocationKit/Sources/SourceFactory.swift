import NMEA

extension SourceAddress {
  /// Settings for making a source from an address.
  public struct SourceOptions: Sendable {
    /// For NMEA sources: decoder settings, replay pace, rejection reporting.
    public var nmea = NMEASource.Options()
    /// For serial receivers.
    public var baud = 9600

    /// Creates options.
    public init(nmea: NMEASource.Options = NMEASource.Options(), baud: Int = 9600) {
      self.nmea = nmea
      self.baud = baud
    }
  }

  /// The source this address names.
  public func makeSource(_ options: SourceOptions = SourceOptions()) throws(LocationError) -> any LocationSource {
    switch self {
    case .standardInput:
      return NMEASource(.standardInput, options: options.nmea)
    case .file(let path):
      return NMEASource(.file(path: path), options: options.nmea)
    case .serial(let path):
      guard SerialPort.baudRates[options.baud] != nil else {
        let rates = SerialPort.baudRates.keys.sorted().map(String.init).joined(separator: ", ")
        throw LocationError(.invalidSource, "unsupported baud rate \(options.baud) (use one of \(rates))")
      }
      return NMEASource(.serial(path: path, baud: options.baud), options: options.nmea)
    case .tcp(let host, let port):
      return NMEASource(.tcp(host: host, port: port), options: options.nmea)
    case .udp(let host, let port):
      return NMEASource(.udp(host: host, port: port), options: options.nmea)
    case .gpsd(let host, let port, let device):
      return GPSDSource(host: host, port: port, device: device)
    }
  }
}
