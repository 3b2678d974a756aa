/// A decoded NMEA sentence.
///
/// The typed cases are the sentences that carry position, time, motion, satellites or
/// accuracy. Anything else, proprietary (`$P…`) and AIS (`!AIVDM`) sentences included,
/// passes through as ``other(_:)`` so that a stream never stops at a sentence we do not
/// know.
public enum Sentence: Sendable, Equatable {
  /// `$--GGA`: time, position, altitude and fix quality.
  case gga(GGA)
  /// `$--RMC`: time, date, position, speed and course.
  case rmc(RMC)
  /// `$--GLL`: latitude, longitude and time.
  case gll(GLL)
  /// `$--GNS`: fix data with a mode letter per constellation.
  case gns(GNS)
  /// `$--VTG`: course and speed over ground.
  case vtg(VTG)
  /// `$--GSA`: DOPs and the satellites used in the fix.
  case gsa(GSA)
  /// `$--GSV`: satellites in view.
  case gsv(GSV)
  /// `$--GST`: pseudorange error statistics.
  case gst(GST)
  /// `$--ZDA`: UTC date and time, and the local zone.
  case zda(ZDA)
  /// `$--HDT`: true heading.
  case hdt(HDT)
  /// `$--TXT`: a text message.
  case txt(TXT)
  /// `$--DTM`: the datum and its offset from WGS84.
  case dtm(DTM)
  /// `$--GBS`: satellite fault detection (RAIM).
  case gbs(GBS)
  /// `$PGRME`: Garmin's estimated position errors.
  case pgrme(PGRME)
  /// `$PGRMZ`: Garmin's altitude in feet and fix dimension.
  case pgrmz(PGRMZ)
  /// `$PSRFEPE`: SiRF's estimated position and velocity errors.
  case psrfepe(PSRFEPE)
  /// `$PUBX,00`: u-blox position, velocity and accuracy estimates.
  case pubx00(PUBX00)
  /// `$PASHR,POS`: Ashtech position, velocity and DOPs.
  case pashrPOS(PASHRPOS)
  /// `$--HDG`: magnetic sensor heading, deviation and variation.
  case hdg(HDG)
  /// `$--HDM`: magnetic heading.
  case hdm(HDM)
  /// `$--THS`: true heading with its mode.
  case ths(THS)
  /// `$--ROT`: rate of turn.
  case rot(ROT)
  /// `$--XDR`: transducer measurements (pitch, roll, magnetic field).
  case xdr(XDR)
  /// `$PASHR` attitude: heading, roll, pitch and heave.
  case pashrAttitude(PASHRAttitude)
  /// `$PSTI,036`: SkyTraq dual-antenna heading, pitch and roll.
  case psti036(PSTI036)
  /// `$PTNTHTM`: True North Technologies compass heading, pitch, roll and dip.
  case ptnthtm(PTNTHTM)
  /// A well-framed sentence of a type not decoded here, by address.
  case other(SentenceAddress)

  /// The kinds of sentence this decoder understands, for counting.
  public enum Kind: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// `$--GGA`: time, position, altitude and fix quality.
    case gga
    /// `$--RMC`: time, date, position, speed and course.
    case rmc
    /// `$--GLL`: latitude, longitude and time.
    case gll
    /// `$--GNS`: fix data with a mode letter per constellation.
    case gns
    /// `$--VTG`: course and speed over ground.
    case vtg
    /// `$--GSA`: DOPs and the satellites used in the fix.
    case gsa
    /// `$--GSV`: satellites in view.
    case gsv
    /// `$--GST`: pseudorange error statistics.
    case gst
    /// `$--ZDA`: UTC date and time, and the local zone.
    case zda
    /// `$--HDT`: true heading.
    case hdt
    /// `$--TXT`: a text message.
    case txt
    /// `$--DTM`: the datum and its offset from WGS84.
    case dtm
    /// `$--GBS`: satellite fault detection (RAIM).
    case gbs
    /// `$PGRME`: Garmin's estimated position errors.
    case pgrme
    /// `$PGRMZ`: Garmin's altitude in feet and fix dimension.
    case pgrmz
    /// `$PSRFEPE`: SiRF's estimated position and velocity errors.
    case psrfepe
    /// `$PUBX,00`: u-blox position, velocity and accuracy estimates.
    case pubx00
    /// `$PASHR,POS`: Ashtech position, velocity and DOPs.
    case pashrPOS
    /// `$--HDG`: magnetic sensor heading, deviation and variation.
    case hdg
    /// `$--HDM`: magnetic heading.
    case hdm
    /// `$--THS`: true heading with its mode.
    case ths
    /// `$--ROT`: rate of turn.
    case rot
    /// `$--XDR`: transducer measurements (pitch, roll, magnetic field).
    case xdr
    /// `$PASHR` attitude: heading, roll, pitch and heave.
    case pashrAttitude
    /// `$PSTI,036`: SkyTraq dual-antenna heading, pitch and roll.
    case psti036
    /// `$PTNTHTM`: True North Technologies compass heading, pitch, roll and dip.
    case ptnthtm

    /// The kind of a three-letter type packed as `UInt32` (`"GGA"` → 0x474741).
    @inline(__always)
    init?(type: UInt32) {
      // A linear scan of two dozen integers: cheaper than hashing, and the list of kinds
      // stays in one place (``visit(_:)``).
      let index = Self.packedTypes.withUnsafeBufferPointer { types in
        var index = 0
        while index < types.count && types[index] != type { index += 1 }
        return index
      }
      self.init(rawValue: index)
    }

    /// Whether the kind reports a heading or attitude, at the sensor's own rate rather
    /// than as part of the receiver's cycle.
    public var isHeading: Bool {
      switch self {
      case .hdt, .hdg, .hdm, .ths, .rot, .xdr, .pashrAttitude, .psti036, .ptnthtm: true
      default: false
      }
    }

    /// Every kind's packed type, in the order of the raw values; 0, which no type packs
    /// to, for the proprietary kinds, which ``init(proprietary:_:)`` finds.
    private static let packedTypes: [UInt32] = allCases.map { kind in
      let name = Array(kind.description.utf8)
      guard name.count == 3 else { return 0 }
      return UInt32(name[0]) << 16 | UInt32(name[1]) << 8 | UInt32(name[2])
    }

    /// The kind of a proprietary sentence (`$P…`) decoded here, by its address and, for
    /// the vendors that put the message type in the first field, that field; `nil` for
    /// the others.
    init?(proprietary address: UnsafeBufferPointer<UInt8>, _ fields: FieldReader) {
      func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { $0.elementsEqual(bytes) }
      }
      if equals(address, "PGRME") {
        self = .pgrme
      } else if equals(address, "PGRMZ") {
        self = .pgrmz
      } else if equals(address, "PSRFEPE") {
        self = .psrfepe
      } else if equals(address, "PUBX"), equals(fields.raw(0), "00") {
        self = .pubx00
      } else if equals(address, "PASHR"), equals(fields.raw(0), "POS") {
        self = .pashrPOS
      } else if equals(address, "PASHR"), equals(fields.raw(2), "T") {
        self = .pashrAttitude
      } else if equals(address, "PSTI"), equals(fields.raw(0), "036") {
        self = .psti036
      } else if equals(address, "PTNTHTM") {
        self = .ptnthtm
      } else {
        return nil
      }
    }

    /// The three-letter type.
    public var description: String {
      var name = Name()
      return try! visit(&name)
    }

    /// The one place where a kind becomes its type: every path that decodes (``Sentence``,
    /// the decoder's fast path) and everything known of a kind's type goes through it, so a
    /// new sentence type costs its file, an enum case here and in ``Sentence``, and one line
    /// below.
    @inline(__always)
    func visit<Visitor: SentenceVisitor>(_ visitor: inout Visitor) throws(FieldError) -> Visitor.Result {
      switch self {
      case .gga: try visitor.visit(GGA.self)
      case .rmc: try visitor.visit(RMC.self)
      case .gll: try visitor.visit(GLL.self)
      case .gns: try visitor.visit(GNS.self)
      case .vtg: try visitor.visit(VTG.self)
      case .gsa: try visitor.visit(GSA.self)
      case .gsv: try visitor.visit(GSV.self)
      case .gst: try visitor.visit(GST.self)
      case .zda: try visitor.visit(ZDA.self)
      case .hdt: try visitor.visit(HDT.self)
      case .txt: try visitor.visit(TXT.self)
      case .dtm: try visitor.visit(DTM.self)
      case .gbs: try visitor.visit(GBS.self)
      case .pgrme: try visitor.visit(PGRME.self)
      case .pgrmz: try visitor.visit(PGRMZ.self)
      case .psrfepe: try visitor.visit(PSRFEPE.self)
      case .pubx00: try visitor.visit(PUBX00.self)
      case .pashrPOS: try visitor.visit(PASHRPOS.self)
      case .hdg: try visitor.visit(HDG.self)
      case .hdm: try visitor.visit(HDM.self)
      case .ths: try visitor.visit(THS.self)
      case .rot: try visitor.visit(ROT.self)
      case .xdr: try visitor.visit(XDR.self)
      case .pashrAttitude: try visitor.visit(PASHRAttitude.self)
      case .psti036: try visitor.visit(PSTI036.self)
      case .ptnthtm: try visitor.visit(PTNTHTM.self)
      }
    }

    /// A kind's type name.
    private struct Name: SentenceVisitor {
      func visit<Decoded: DecodedSentence>(_ type: Decoded.Type) -> String { Decoded.name.description }
    }
  }

  /// Decodes a framed sentence. Throws when a sentence of a known type has a malformed or
  /// impossible field; unknown types never throw.
  public init(_ framed: FramedSentence) throws(FieldError) {
    self = try FieldReader.read(framed) { (fields) throws(FieldError) -> Sentence in
      try Sentence(framed, fields)
    }
  }

  private init(_ framed: FramedSentence, _ fields: FieldReader) throws(FieldError) {
    guard let (kind, talker) = Self.classify(framed, fields) else {
      self = .other(SentenceAddress(fields.address))
      return
    }
    // Longer than a sentence of a decoded type can be: its fields past 255 would go unread.
    if framed.bytes.count > SentenceFramer.maximumSplitLength {
      throw FieldError(index: fields.count, name: "sentence length", problem: .outOfRange)
    }
    var wrapping = Wrapping(talker: talker, fields: fields)
    self = try kind.visit(&wrapping)
  }

  /// Decodes a sentence of a known type into its case.
  private struct Wrapping: SentenceVisitor {
    let talker: Talker
    let fields: FieldReader

    func visit<Decoded: DecodedSentence>(_ type: Decoded.Type) throws(FieldError) -> Sentence {
      try Decoded(talker: talker, fields).wrapped
    }
  }

  /// The kind and talker of a sentence decoded here; `nil` for the others (AIS, unknown
  /// types and vendors), which pass through as ``other(_:)``. A proprietary sentence's
  /// talker is `P` and its vendor's first letter.
  @inline(__always)
  static func classify(_ framed: FramedSentence, _ fields: FieldReader) -> (Kind, Talker)? {
    let address = fields.address
    guard framed.bytes[0] == UInt8(ascii: "$"), address.count >= 4 else { return nil }
    if address[0] == UInt8(ascii: "P") {
      guard let kind = Kind(proprietary: address, fields) else { return nil }
      return (kind, Talker(address[0], address[1]))
    }
    guard address.count == 5,
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
    struct KindOf: PayloadVisitor {
      func visit<Decoded: DecodedSentence>(_ sentence: Decoded) -> Kind { Decoded.kind }
    }
    var kindOf = KindOf()
    return visitPayload(&kindOf)
  }

  /// The typed payload handed to `visitor`: the one `switch` from a case to its type;
  /// `nil` for ``other(_:)``.
  func visitPayload<Visitor: PayloadVisitor>(_ visitor: inout Visitor) -> Visitor.Result? {
    switch self {
    case .gga(let sentence): visitor.visit(sentence)
    case .rmc(let sentence): visitor.visit(sentence)
    case .gll(let sentence): visitor.visit(sentence)
    case .gns(let sentence): visitor.visit(sentence)
    case .vtg(let sentence): visitor.visit(sentence)
    case .gsa(let sentence): visitor.visit(sentence)
    case .gsv(let sentence): visitor.visit(sentence)
    case .gst(let sentence): visitor.visit(sentence)
    case .zda(let sentence): visitor.visit(sentence)
    case .hdt(let sentence): visitor.visit(sentence)
    case .txt(let sentence): visitor.visit(sentence)
    case .dtm(let sentence): visitor.visit(sentence)
    case .gbs(let sentence): visitor.visit(sentence)
    case .pgrme(let sentence): visitor.visit(sentence)
    case .pgrmz(let sentence): visitor.visit(sentence)
    case .psrfepe(let sentence): visitor.visit(sentence)
    case .pubx00(let sentence): visitor.visit(sentence)
    case .pashrPOS(let sentence): visitor.visit(sentence)
    case .hdg(let sentence): visitor.visit(sentence)
    case .hdm(let sentence): visitor.visit(sentence)
    case .ths(let sentence): visitor.visit(sentence)
    case .rot(let sentence): visitor.visit(sentence)
    case .xdr(let sentence): visitor.visit(sentence)
    case .pashrAttitude(let sentence): visitor.visit(sentence)
    case .psti036(let sentence): visitor.visit(sentence)
    case .ptnthtm(let sentence): visitor.visit(sentence)
    case .other: nil
    }
  }
}

/// Why ``Sentence/init(parsing:)`` failed.
public enum SentenceParseError: Error, Sendable, Equatable {
  /// The text could not be framed as a sentence, for the reason given.
  case rejected(RejectionReason)
  /// The sentence was framed, but a field was malformed or impossible.
  case malformed(FieldError)
}
