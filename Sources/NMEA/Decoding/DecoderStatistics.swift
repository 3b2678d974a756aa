/// What a decoder has seen: every line accounted for, by what became of it.
public struct DecoderStatistics: Sendable, Equatable {
  /// Bytes consumed.
  public var bytes = 0
  /// Lines seen (the last one counts even without a line end).
  public var lines = 0
  /// `#` comment lines.
  public var comments = 0
  /// Sentences accepted by the framer (good or absent checksum).
  public var sentences = 0
  /// Accepted sentences that carried no checksum (allowed outside strict mode).
  public var uncheckedSentences = 0
  /// Fields of accepted sentences left out for a value unknown to an informational field
  /// (an RMC navigational status `X`): the field is ignored, the sentence kept. Each
  /// sentence type lists its informational fields.
  public var ignoredFields = 0
  /// Decoded sentences by kind.
  public private(set) var decodedByKind: [Int] = Array(repeating: 0, count: Sentence.Kind.allCases.count)
  /// Well-framed sentences of other types (proprietary, AIS, ...), passed through, by address.
  /// At most ``maximumAddresses`` addresses are told apart; sentences of further ones
  /// (only hostile or random input has that many) are counted in ``otherUnlisted``.
  public private(set) var otherByAddress: [SentenceAddress: Int] = [:]
  /// Sentences of other types whose address was not listed, the list being full.
  public private(set) var otherUnlisted = 0
  /// How many distinct addresses ``otherByAddress`` keeps.
  public static let maximumAddresses = 256
  /// Skipped input by reason.
  public private(set) var rejectedByReason: [Int] = Array(repeating: 0, count: RejectionReason.allCases.count)
  /// Cycles merged into fixes, and those of them with a position.
  public var cycles = 0
  /// Fixes delivered with a usable position (``Fix/hasPosition``).
  public var fixesWithPosition = 0

  /// Creates empty statistics.
  public init() {}

  /// How many sentences of `kind` were decoded.
  public func decoded(_ kind: Sentence.Kind) -> Int { decodedByKind[kind.rawValue] }
  /// How many pieces of input were rejected for `reason`.
  public func rejected(_ reason: RejectionReason) -> Int { rejectedByReason[reason.rawValue] }
  /// All rejections.
  public var totalRejected: Int { rejectedByReason.reduce(0, +) }
  /// All sentences of other types.
  public var totalOther: Int { otherByAddress.values.reduce(0, +) + otherUnlisted }

  /// Counts a sentence of another type, keeping memory bounded whatever the input.
  mutating func countOther(_ address: SentenceAddress) {
    if let count = otherByAddress[address] {
      otherByAddress[address] = count + 1
    } else if otherByAddress.count < Self.maximumAddresses {
      otherByAddress[address] = 1
    } else {
      otherUnlisted += 1
    }
  }

  mutating func count(_ kind: Sentence.Kind) { decodedByKind[kind.rawValue] += 1 }
  mutating func count(_ reason: RejectionReason) { rejectedByReason[reason.rawValue] += 1 }

  /// Adds another decoder's counts (for a summary over several files).
  public mutating func merge(_ other: DecoderStatistics) {
    bytes += other.bytes
    lines += other.lines
    comments += other.comments
    sentences += other.sentences
    uncheckedSentences += other.uncheckedSentences
    ignoredFields += other.ignoredFields
    for index in decodedByKind.indices { decodedByKind[index] += other.decodedByKind[index] }
    for index in rejectedByReason.indices { rejectedByReason[index] += other.rejectedByReason[index] }
    for (address, count) in other.otherByAddress {
      if otherByAddress[address] != nil || otherByAddress.count < Self.maximumAddresses {
        otherByAddress[address, default: 0] += count
      } else {
        otherUnlisted += count
      }
    }
    otherUnlisted += other.otherUnlisted
    cycles += other.cycles
    fixesWithPosition += other.fixesWithPosition
  }
}
