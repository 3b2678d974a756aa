/// A decoded NMEA sentence.
///
/// The typed cases are the sentences that carry position, time, motion, satellites or
/// accuracy. Anything else, proprietary (`$P…`) and AIS (`!AIVDM`) sentences included,
/// passes through as ``other(_:)`` so that a stream never stops at a sentence we do not
/// know.
public enum Sentence: Sendable, Equatable {
  case gga(GGA)
  case rmc(RMC)
  case gll(GLL)
  case gns(GNS)
  case vtg(VTG)
  case gsa(GSA)
  case gsv(GSV)
  case gst(GST)
  case zda(ZDA)
  case hdt(HDT)
  case txt(TXT)
  case dtm(DTM)
  case gbs(GBS)
  /// A well-framed sentence of a type not decoded here, by address.
  case other(SentenceAddress)

  /// The kinds of sentence this decoder understands, for counting.
  public enum Kind: Int, CaseIterable, Sendable, CustomStringConvertible {
    case gga, rmc, gll, gns, vtg, gsa, gsv, gst, zda, hdt, txt, dtm, gbs

    init?(type: UInt32) {
      switch type {
      case Self.pack("GGA"): self = .gga
      case Self.pack("RMC"): self = .rmc
      case Self.pack("GLL"): self = .gll
      case Self.pack("GNS"): self = .gns
      case Self.pack("VTG"): self = .vtg
      case Self.pack("GSA"): self = .gsa
      case Self.pack("GSV"): self = .gsv
      case Self.pack("GST"): self = .gst
      case Self.pack("ZDA"): self = .zda
      case Self.pack("HDT"): self = .hdt
      case Self.pack("TXT"): self = .txt
      case Self.pack("DTM"): self = .dtm
      case Self.pack("GBS"): self = .gbs
      default: return nil
      }
    }

    private static func pack(_ type: StaticString) -> UInt32 {
      type.withUTF8Buffer { UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2]) }
    }

    /// The three-letter type.
    public var description: String {
      switch self {
      case .gga: "GGA"
      case .rmc: "RMC"
      case .gll: "GLL"
      case .gns: "GNS"
      case .vtg: "VTG"
      case .gsa: "GSA"
      case .gsv: "GSV"
      case .gst: "GST"
      case .zda: "ZDA"
      case .hdt: "HDT"
      case .txt: "TXT"
      case .dtm: "DTM"
      case .gbs: "GBS"
      }
    }
  }

  /// Decodes a framed sentence. Throws when a sentence of a known type has a malformed or
  /// impossible field; unknown types never throw.
  public init(_ framed: FramedSentence) throws(FieldError) {
    self = try FieldReader.read(framed.bytes) { (fields) throws(FieldError) -> Sentence in
      try Sentence(framed, fields)
    }
  }

  private init(_ framed: FramedSentence, _ fields: FieldReader) throws(FieldError) {
    guard let (kind, talker) = Self.classify(framed, fields) else {
      self = .other(SentenceAddress(fields.address))
      return
    }
    switch kind {
    case .gga: self = .gga(try GGA(talker: talker, fields))
    case .rmc: self = .rmc(try RMC(talker: talker, fields))
    case .gll: self = .gll(try GLL(talker: talker, fields))
    case .gns: self = .gns(try GNS(talker: talker, fields))
    case .vtg: self = .vtg(try VTG(talker: talker, fields))
    case .gsa: self = .gsa(try GSA(talker: talker, fields))
    case .gsv: self = .gsv(try GSV(talker: talker, fields))
    case .gst: self = .gst(try GST(talker: talker, fields))
    case .zda: self = .zda(try ZDA(talker: talker, fields))
    case .hdt: self = .hdt(try HDT(talker: talker, fields))
    case .txt: self = .txt(try TXT(talker: talker, fields))
    case .dtm: self = .dtm(try DTM(talker: talker, fields))
    case .gbs: self = .gbs(try GBS(talker: talker, fields))
    }
  }

  /// The kind and talker of a sentence decoded here; `nil` for the others (proprietary,
  /// AIS, unknown types), which pass through as ``other(_:)``.
  @inline(__always)
  static func classify(_ framed: FramedSentence, _ fields: FieldReader) -> (Kind, Talker)? {
    let address = fields.address
    guard framed.bytes[0] == UInt8(ascii: "$"), address.count == 5,
      address[0] != UInt8(ascii: "P"),
      let kind = Kind(type: UInt32(address[2]) << 16 | UInt32(address[3]) << 8 | UInt32(address[4]))
    else { return nil }
    return (kind, Talker(address[0], address[1]))
  }

  /// Decodes one sentence from text such as `$GPGGA,...*hh` (checksum verified when present).
  public init(parsing text: String) throws(SentenceParseError) {
    var framer = SentenceFramer()
    var result: Result<Sentence, SentenceParseError> = .failure(.rejected(.truncated))
    framer.consume(Array(text.utf8) + [UInt8(ascii: "\n")]) { event in
      switch event {
      case .sentence(let framed):
        do throws(FieldError) { result = .success(try Sentence(framed)) } catch {
          result = .failure(.malformed(error))
        }
      case .rejected(let reason, _, _): result = .failure(.rejected(reason))
      case .comment: break
      }
    }
    self = try result.get()
  }

  /// The kind of a typed sentence; `nil` for ``other(_:)``.
  public var kind: Kind? {
    switch self {
    case .gga: .gga
    case .rmc: .rmc
    case .gll: .gll
    case .gns: .gns
    case .vtg: .vtg
    case .gsa: .gsa
    case .gsv: .gsv
    case .gst: .gst
    case .zda: .zda
    case .hdt: .hdt
    case .txt: .txt
    case .dtm: .dtm
    case .gbs: .gbs
    case .other: nil
    }
  }
}

/// Why ``Sentence/init(parsing:)`` failed.
public enum SentenceParseError: Error, Sendable, Equatable {
  case rejected(RejectionReason)
  case malformed(FieldError)
}
