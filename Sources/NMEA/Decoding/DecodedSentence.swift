/// A typed sentence that the decoder builds straight from its fields and hands to the
/// ``FixAssembler`` as it is.
///
/// Wrapping every sentence in a ``Sentence`` and unwrapping it again copies a payload of
/// a few hundred bytes several times per sentence, which cost more than decoding it; the
/// enum is only built for callers that asked for sentence events.
protocol DecodedSentence {
  static var kind: Sentence.Kind { get }
  init(talker: Talker, _ fields: FieldReader) throws(FieldError)
  /// The sentence as the public enum, for `.sentence` events.
  var wrapped: Sentence { get }
  /// Adds the sentence to a cycle; `true` when it started a new one, completing the
  /// previous cycle.
  func apply(to assembler: inout FixAssembler) -> Bool
}

extension GGA: DecodedSentence {
  static var kind: Sentence.Kind { .gga }
  var wrapped: Sentence { .gga(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension RMC: DecodedSentence {
  static var kind: Sentence.Kind { .rmc }
  var wrapped: Sentence { .rmc(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GLL: DecodedSentence {
  static var kind: Sentence.Kind { .gll }
  var wrapped: Sentence { .gll(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GNS: DecodedSentence {
  static var kind: Sentence.Kind { .gns }
  var wrapped: Sentence { .gns(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension VTG: DecodedSentence {
  static var kind: Sentence.Kind { .vtg }
  var wrapped: Sentence { .vtg(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GSA: DecodedSentence {
  static var kind: Sentence.Kind { .gsa }
  var wrapped: Sentence { .gsa(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GSV: DecodedSentence {
  static var kind: Sentence.Kind { .gsv }
  var wrapped: Sentence { .gsv(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension GST: DecodedSentence {
  static var kind: Sentence.Kind { .gst }
  var wrapped: Sentence { .gst(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension ZDA: DecodedSentence {
  static var kind: Sentence.Kind { .zda }
  var wrapped: Sentence { .zda(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

extension HDT: DecodedSentence {
  static var kind: Sentence.Kind { .hdt }
  var wrapped: Sentence { .hdt(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { assembler.apply(self) }
}

// Text, datum and RAIM sentences add nothing to a fix.

extension TXT: DecodedSentence {
  static var kind: Sentence.Kind { .txt }
  var wrapped: Sentence { .txt(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}

extension DTM: DecodedSentence {
  static var kind: Sentence.Kind { .dtm }
  var wrapped: Sentence { .dtm(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}

extension GBS: DecodedSentence {
  static var kind: Sentence.Kind { .gbs }
  var wrapped: Sentence { .gbs(self) }
  func apply(to assembler: inout FixAssembler) -> Bool { false }
}
