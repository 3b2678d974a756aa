/// A typed sentence that the decoder builds straight from its fields and hands to the
/// ``FixAssembler`` as it is.
///
/// Wrapping every sentence in a ``Sentence`` and unwrapping it again copies a payload of
/// a few hundred bytes several times per sentence, which cost more than decoding it; the
/// enum is only built for callers that asked for sentence events.
protocol DecodedSentence {
  static var kind: Sentence.Kind { get }
  /// The three-letter type, as in the address (`GGA`).
  static var name: StaticString { get }
  init(talker: Talker, _ fields: FieldReader) throws(FieldError)
  /// The sentence as the public enum, for `.sentence` events.
  var wrapped: Sentence { get }
  /// Adds the sentence to a cycle; `true` when it started a new one, completing the
  /// previous cycle.
  func apply(to assembler: inout FixAssembler) -> Bool
}

extension GGA: DecodedSentence {
  static var kind: Sentence.Kind { .gga }
  static var name: StaticString { "GGA" }
  var wrapped: Sentence { .gga(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension RMC: DecodedSentence {
  static var kind: Sentence.Kind { .rmc }
  static var name: StaticString { "RMC" }
  var wrapped: Sentence { .rmc(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GLL: DecodedSentence {
  static var kind: Sentence.Kind { .gll }
  static var name: StaticString { "GLL" }
  var wrapped: Sentence { .gll(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GNS: DecodedSentence {
  static var kind: Sentence.Kind { .gns }
  static var name: StaticString { "GNS" }
  var wrapped: Sentence { .gns(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension VTG: DecodedSentence {
  static var kind: Sentence.Kind { .vtg }
  static var name: StaticString { "VTG" }
  var wrapped: Sentence { .vtg(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GSA: DecodedSentence {
  static var kind: Sentence.Kind { .gsa }
  static var name: StaticString { "GSA" }
  var wrapped: Sentence { .gsa(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GSV: DecodedSentence {
  static var kind: Sentence.Kind { .gsv }
  static var name: StaticString { "GSV" }
  var wrapped: Sentence { .gsv(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GST: DecodedSentence {
  static var kind: Sentence.Kind { .gst }
  static var name: StaticString { "GST" }
  var wrapped: Sentence { .gst(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension ZDA: DecodedSentence {
  static var kind: Sentence.Kind { .zda }
  static var name: StaticString { "ZDA" }
  var wrapped: Sentence { .zda(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension HDT: DecodedSentence {
  static var kind: Sentence.Kind { .hdt }
  static var name: StaticString { "HDT" }
  var wrapped: Sentence { .hdt(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

// Text, datum and RAIM sentences add nothing to a fix.

extension TXT: DecodedSentence {
  static var kind: Sentence.Kind { .txt }
  static var name: StaticString { "TXT" }
  var wrapped: Sentence { .txt(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}

extension DTM: DecodedSentence {
  static var kind: Sentence.Kind { .dtm }
  static var name: StaticString { "DTM" }
  var wrapped: Sentence { .dtm(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}

extension GBS: DecodedSentence {
  static var kind: Sentence.Kind { .gbs }
  static var name: StaticString { "GBS" }
  var wrapped: Sentence { .gbs(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}

/// Something done with a sentence whose type is known only at run time, by kind; see
/// ``Sentence/Kind/visit(_:)``.
protocol SentenceVisitor {
  associatedtype Result
  mutating func visit<Decoded: DecodedSentence>(_ type: Decoded.Type) throws(FieldError) -> Result
}

/// Something done with the typed payload of a ``Sentence``; see ``Sentence/visitPayload(_:)``.
protocol PayloadVisitor {
  associatedtype Result
  mutating func visit<Decoded: DecodedSentence>(_ sentence: Decoded) -> Result
}

extension Sentence {
  /// The typed payload if it is a `T` (`sentence.payload(as: GGA.self)`).
  func payload<T: DecodedSentence>(as type: T.Type) -> T? {
    var cast = PayloadCast<T>()
    return visitPayload(&cast) ?? nil
  }
}

/// The payload of a ``Sentence`` as a given type.
private struct PayloadCast<T: DecodedSentence>: PayloadVisitor {
  func visit<Decoded: DecodedSentence>(_ sentence: Decoded) -> T? { sentence as? T }
}

extension PGRME: DecodedSentence {
  static var kind: Sentence.Kind { .pgrme }
  static var name: StaticString { "PGRME" }
  var wrapped: Sentence { .pgrme(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PGRMZ: DecodedSentence {
  static var kind: Sentence.Kind { .pgrmz }
  static var name: StaticString { "PGRMZ" }
  var wrapped: Sentence { .pgrmz(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PSRFEPE: DecodedSentence {
  static var kind: Sentence.Kind { .psrfepe }
  static var name: StaticString { "PSRFEPE" }
  var wrapped: Sentence { .psrfepe(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PUBX00: DecodedSentence {
  static var kind: Sentence.Kind { .pubx00 }
  static var name: StaticString { "PUBX,00" }
  var wrapped: Sentence { .pubx00(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PASHRPOS: DecodedSentence {
  static var kind: Sentence.Kind { .pashrPOS }
  static var name: StaticString { "PASHR,POS" }
  var wrapped: Sentence { .pashrPOS(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension HDG: DecodedSentence {
  static var kind: Sentence.Kind { .hdg }
  static var name: StaticString { "HDG" }
  var wrapped: Sentence { .hdg(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension HDM: DecodedSentence {
  static var kind: Sentence.Kind { .hdm }
  static var name: StaticString { "HDM" }
  var wrapped: Sentence { .hdm(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension THS: DecodedSentence {
  static var kind: Sentence.Kind { .ths }
  static var name: StaticString { "THS" }
  var wrapped: Sentence { .ths(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension ROT: DecodedSentence {
  static var kind: Sentence.Kind { .rot }
  static var name: StaticString { "ROT" }
  var wrapped: Sentence { .rot(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension XDR: DecodedSentence {
  static var kind: Sentence.Kind { .xdr }
  static var name: StaticString { "XDR" }
  var wrapped: Sentence { .xdr(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PASHRAttitude: DecodedSentence {
  static var kind: Sentence.Kind { .pashrAttitude }
  static var name: StaticString { "PASHR" }
  var wrapped: Sentence { .pashrAttitude(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PSTI036: DecodedSentence {
  static var kind: Sentence.Kind { .psti036 }
  static var name: StaticString { "PSTI,036" }
  var wrapped: Sentence { .psti036(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension PTNTHTM: DecodedSentence {
  static var kind: Sentence.Kind { .ptnthtm }
  static var name: StaticString { "PTNTHTM" }
  var wrapped: Sentence { .ptnthtm(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}
