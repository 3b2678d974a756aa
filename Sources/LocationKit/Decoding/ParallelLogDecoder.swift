import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes a log file on several cores and delivers exactly the events, in the same order,
/// that one ``/NMEA/NMEADecoder`` reading it from the start would: the same fixes, rejections,
/// line numbers and statistics.
///
/// The file is cut into chunks at line starts. Each worker decodes a chunk with a decoder
/// of its own, which first reads the ``warmUp`` bytes before the chunk (four times as many
/// when those hold not one sentence), its events thrown away, to learn what the log's
/// history teaches: the date, the open cycle, the previous fix, the receiver's cycle end
/// and fix mode, the satellites in view. The chunks are then
/// taken in order, and a chunk's events are used only when its decoder, after the warm-up,
/// is in the very state of the decoder that read everything before the chunk
/// (`NMEADecoder.continuesLike(_:)`: line numbers and cycle counts apart). When it is
/// not, that decoder reads the chunk again itself. So where the cuts fall changes only the
/// speed, never the output.
///
/// Two kinds of state are handed over rather than learned: the latest magnetic variation,
/// and the day of a log without dates of its own (dated by `--date` or a comment). Where
/// a heading in a chunk needed the variation before it, only the stretch up to the
/// worker's own first variation is decoded again (``chunksPartlyDecodedTwice``). A log
/// whose chunks mostly fail all the same (more than 256 kinds of unknown sentence) is
/// read in order after the first ``trialChunks`` (``givesUpSplitting``). A worker stops
/// where its chunk's events reach ``eventBytesPerChunkByte`` per byte, and the rest of the
/// chunk is decoded in order; a burst denser than that, and runs of bytes without a line
/// end, are decoded in order whole: memory stays bounded, whatever the file holds.
public struct ParallelLogDecoder: Sendable {
  /// Threads decoding at once.
  public var jobs: Int
  /// Bytes per chunk. Each chunk costs a warm-up of ``warmUp`` bytes decoded twice: 3 %
  /// of the work with 1 MB chunks, 1.5 % with 2 MB. Larger chunks would cost less, but
  /// the memory of the chunks in flight grows with them, and it should be the same for a
  /// log of 20 MB and one of 2 GB.
  public var chunkSize = 2 << 20
  /// Bytes read before each chunk to learn the log's state.
  public var warmUp = 32 << 10
  /// The decoders' options.
  public var options: NMEADecoder.Options
  /// How many chunks were decoded in order on the calling thread (their warm-up did not
  /// reach the state, or they were too long or had too many events to keep), after
  /// ``decode(_:size:isCancelled:progress:_:)``.
  public private(set) var chunksDecodedInOrder = 0
  /// How many chunks with bytes the file was cut into, after
  /// ``decode(_:size:isCancelled:progress:_:)``.
  public private(set) var chunks = 0
  /// Why chunks were decoded in order, with how many for each reason: all but
  /// ``ChunkInOrderReason/notDecodedAhead`` cost the chunk's decoding twice.
  public private(set) var chunksInOrderByReason: [ChunkInOrderReason: Int] = [:]
  /// How many chunks were decoded twice: by a worker, and again in order.
  public var chunksDecodedTwice: Int {
    chunksInOrderByReason.filter { $0.key != .notDecodedAhead }.values.reduce(0, +)
  }
  /// How many chunks were decoded twice in part, after
  /// ``decode(_:size:isCancelled:progress:_:)``: a heading sentence in each went without
  /// the magnetic variation the receiver had given before the chunk (further back than
  /// the warm-up), so the stretch from up to 64 KB before it to where the
  /// worker learned a variation of its own was decoded again in order, with it.
  public private(set) var chunksPartlyDecodedTwice = 0
  /// The bytes of those stretches (see ``chunksPartlyDecodedTwice``).
  public private(set) var bytesPartlyDecodedTwice = 0
  /// How many chunks of a log that states no date (dated from `--date` or a comment)
  /// had their dates moved by whole days at hand-over: their worker guessed the day
  /// wrong (the log's time went back, or more than a day passed between the merger's
  /// last chunk and theirs). Each costs a few copies of each of its fixes, not a
  /// decoding.
  package private(set) var chunksWithDatesMoved = 0
  /// How many chunks a worker decoded only in part, because their events reached the
  /// memory a chunk may keep (``eventBytesPerChunkByte``): the rest of each was decoded
  /// in order, once.
  public private(set) var chunksFinishedInOrder = 0
  /// Where the decoder stopped splitting the file and read the rest in order on the
  /// calling thread, because most chunks so far had to be decoded twice (see
  /// ``givesUpSplitting``); `nil` when it split the file to the end.
  public private(set) var readInOrderFrom: Int?
  /// Whether to stop splitting a file once more than half of its chunks, after the first
  /// ``trialChunks``, had to be decoded twice: on such a log (one dated only by `--date`
  /// whose headings need the day, a log with more than 256 kinds of unknown sentence)
  /// the workers' decoding would nearly all be wasted, a core's worth of it. At most the
  /// chunks decoded ahead by then are wasted: the window's `jobs + 1` past the trial's.
  /// Tests that check the hand-over on every chunk turn it off.
  public var givesUpSplitting = true
  /// The least memory a chunk's events may take whatever its size (see
  /// ``eventBytesPerChunkByte``): 3 MB, so that the small chunks tests cut logs into keep
  /// all their events; tests of the budget itself lower it.
  package var smallestEventBudget = 3 << 20
  /// How far back at most the merger resumes, when a heading in a chunk went without the
  /// variation the receiver gave before it (see ``chunksPartlyDecodedTwice``): 64 KB, a
  /// copy of the worker's decoder each time, while it has learned no variation.
  package var resumeInterval = 64 << 10
  /// How many chunks are taken before ``givesUpSplitting`` decides.
  public static let trialChunks = 4

  /// The most memory a chunk's events may take, per byte of the chunk (and at least
  /// 3 MB), so that memory stays bounded whatever the file holds. A worker decodes a
  /// chunk with more (a 10 Hz log of GGA alone, lines that are each rejected,
  /// `print --nmea`'s copy of every sentence) up to there, and the rest is decoded in
  /// order; a chunk with no line start for four chunks' length is decoded in order
  /// whole. A fix's event (240 bytes; 288 before its fields were packed) takes about a
  /// quarter of a byte per byte of a multi-GNSS log, 1.7 bytes per byte of a log of bare
  /// GGA and RMC (some 145 bytes a cycle), and 3.2 of a log of GGA alone at 10 Hz.
  ///
  /// The pipeline keeps the events of `jobs + 2` chunks at most (one per chunk decoded
  /// ahead, and the one the merger hands over), so with two jobs four buffers of 5 MB
  /// fit the 12 MB per job that peak memory allows beside one decoder's 12 MB (at 3,
  /// a log that fills every buffer took 37 MB).
  public static let eventBytesPerChunkByte = 2.5

  /// Files smaller than this are decoded by one decoder: threads would cost more than
  /// they gain.
  public static let smallestSplitFile = 8 << 20

  /// The smallest file ``splittableSize(of:)`` splits: ``smallestSplitFile``, or any
  /// size once a chunk size is given (tests cut small logs into many chunks).
  public var smallestSplit = ParallelLogDecoder.smallestSplitFile

  /// Creates a decoder for `jobs` threads, with chunks of `chunkSize` bytes (a small size,
  /// for tests, also shortens the warm-up to four chunks and the stretch a heading's
  /// variation may cost to an eighth of a chunk, at least 4 KB, and splits files of any
  /// size).
  public init(options: NMEADecoder.Options, jobs: Int, chunkSize: Int? = nil) {
    self.options = options
    self.jobs = max(1, jobs)
    if let chunkSize {
      self.chunkSize = max(1, chunkSize)
      warmUp = min(warmUp, 4 * max(1, chunkSize))
      resumeInterval = min(resumeInterval, max(4096, chunkSize / 8))
      smallestSplit = 1
    }
  }

  /// The size of the regular file open at `descriptor` when this decoder would split it
  /// (more than one job, a file of at least ``smallestSplit`` bytes); `nil` when one
  /// decoder reading it is the better way.
  public func splittableSize(of descriptor: Int32) -> Int? {
    guard jobs > 1, let size = SystemIO.regularFileSize(descriptor), size >= smallestSplit else { return nil }
    return size
  }

  /// The processors this process may run on: its affinity mask, as `taskset` sets it,
  /// read from `/proc/self/status` (Glibc's `sched_getaffinity` is not visible to Swift).
  public static var availableCores: Int {
    let fallback = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let key = Array("\nCpus_allowed:".utf8)
    guard let status = SystemIO.contents(ofSmallFile: "/proc/self/status"),
      let start = status.indices.first(where: { status[$0...].starts(with: key) })
    else { return fallback }
    let count = status[(start + key.count)...].prefix { $0 != UInt8(ascii: "\n") }.reduce(0) { count, byte in
      count + (Character(Unicode.Scalar(byte)).hexDigitValue?.nonzeroBitCount ?? 0)
    }
    return count > 0 ? count : fallback
  }

  /// Decodes the regular file open at `descriptor`, whose size was `size` when it was
  /// opened, and then whatever follows up to its end (a log still being written), and
  /// finishes the input: `handle` receives every event in order, on the calling thread.
  /// `progress` is called with the statistics so far after each chunk. Returns the
  /// statistics, or `nil` when `isCancelled` said so (checked between events).
  ///
  /// The file is read with `pread`, so the descriptor's position does not matter.
  public mutating func decode(
    _ descriptor: Int32, size: Int, isCancelled: () -> Bool = { false },
    progress: (DecoderStatistics) -> Void = { _ in }, _ handle: (consuming DecoderEvent) -> Void
  ) throws(SystemError) -> DecoderStatistics? {
    let plan = ChunkPlan(
      size: size, chunkSize: max(1, chunkSize), warmUp: max(0, warmUp), smallestEventBudget: smallestEventBudget,
      resumeInterval: max(1, resumeInterval))
    let queue = ChunkQueue<Result<DecodedChunk, SystemError>>(count: plan.count, window: jobs + 1)
    let reader = ChunkReader(descriptor: descriptor, plan: plan, options: options)
    // Event buffers handed back once delivered: a worker empties one (in parallel) and
    // fills it again, where a new one would cost megabytes of fresh pages per chunk.
    let spareEvents = Locked<[EventBuffer]>([])
    // For a log that states no date: the time this decoder dated last, which tells a
    // worker the day its chunk is on (see ``ChunkReader/decode(_:into:_:reached:until:)``);
    // until it has dated a chunk, the log's first cycle.
    let reached = Locked<Timestamp?>(plan.count > 1 ? try reader.firstDatedCycle() : nil)
    var workers: [pthread_t] = []
    for _ in 0..<min(jobs, plan.count) {
      queue.workerStarted()
      workers.append(
        SystemThread.startJoinable(name: "whereami.decode") {
          let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkReader.pieceSize, alignment: 16)
          defer { buffer.deallocate() }
          while let index = queue.nextChunk() {
            // Room for as many events as a chunk may keep, once: a new buffer would cost
            // a megabyte of fresh pages per chunk.
            let events = spareEvents.withLock { $0.popLast() } ?? EventBuffer(capacity: plan.maximumEvents)
            // (Emptied in parallel here, not by the merger: what the merger did not
            // take, after a cancellation or a stretch decoded again.)
            events.removeAll()
            let result: Result<DecodedChunk, SystemError>
            do throws(SystemError) {
              result = .success(
                try reader.decode(
                  index, into: events, buffer, reached: { reached.withLock { $0 } }, until: { queue.isCancelled }))
            } catch {
              result = .failure(error)
            }
            queue.store(result, for: index)
          }
          queue.workerEnded()
        })
    }
    defer {
      queue.cancelAndWait()
      // Gone, not just done: nothing their closures held outlives the decode.
      workers.forEach(SystemThread.join)
    }

    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkReader.pieceSize, alignment: 16)
    defer { buffer.deallocate() }
    var decoder = NMEADecoder(options: options)
    /// Decodes `range` here, in order; `false` when cancelled.
    func readInOrder(_ range: Range<Int>) throws(SystemError) -> Bool {
      var stopped = false
      try SystemIO.read(descriptor, range, through: buffer) { piece in
        decoder.decode(piece) { event in
          if !stopped && isCancelled() { stopped = true }
          if !stopped { handle(event) }
        }
        return !stopped
      }
      return !stopped
    }
    while let result = queue.take() {
      var chunk = try (consume result).get()
      defer { spareEvents.withLock { [events = chunk.events] in $0.append(events) } }
      guard chunk.range.lowerBound < chunk.range.upperBound else { continue }
      chunks += 1
      var inOrder: ChunkInOrderReason? = .notDecodedAhead
      var variationGap: VariationGap?
      var days = 0
      var dating: FixAssembler.Dating?
      var datesStated = false
      if var start = chunk.start, var end = chunk.end {
        datesStated = end.datesStated != start.datesStated
        // (Not with headings: their declinations depend on the day.)
        if start.difference(from: decoder) == .date, !chunk.hasHeadings {
          if start.isUndated && !decoder.isUndated {
            // The log states its date seldom (a ZDA once a minute), and the warm-up held
            // none: the worker's fixes went without a time until the chunk stated one.
            // They are given the times this decoder would have given them.
            start.adoptDating(of: decoder)
            dating = decoder.dating
          } else if !datesStated, let shift = start.wholeDays(to: decoder) {
            // A log without dates of its own, dated from `--date` or a comment: the
            // worker dated its chunk from the day it was given, not the day reached by
            // then. No date was stated in the chunk, so every date in it is off by the
            // same days.
            start.shiftDates(byDays: shift)
            end.shiftDates(byDays: shift)
            days = shift
            if shift != 0 { chunksWithDatesMoved += 1 }
          }
        }
        if let difference = start.difference(from: decoder) {
          inOrder = .state(difference)
        } else if !start.hasVariation && decoder.hasVariation && end.assumedNoVariation {
          // The worker had not learned the variation a heading in the chunk needed: the
          // stretch where it went without is decoded again, with it.
          variationGap = chunk.variationGap
          if variationGap == nil || days != 0 || dating != nil
            || !Self.mergesExactly(decoder.statistics, variationGap!.resume.statistics)
          {
            variationGap = nil
            inOrder = .state(.headingOrVariation)
          } else {
            inOrder = nil
          }
        } else if let learned = chunk.variationGap?.learned {
          // The worker's statistics restarted where it learned the variation.
          var statistics = decoder.statistics
          let exact = Self.mergesExactly(statistics, learned.statistics)
          statistics.merge(learned.statistics)
          inOrder = exact && Self.mergesExactly(statistics, end.statistics) ? nil : .unknownSentenceList
          if inOrder == nil {
            statistics = learned.statistics
            statistics.merge(end.statistics)
            end.statistics = statistics
          }
        } else {
          inOrder = Self.mergesExactly(decoder.statistics, end.statistics) ? nil : .unknownSentenceList
        }
        chunk.end = end
      }
      /// Hands over the worker's events in `range`, their lines moved by `shift`; `false`
      /// when cancelled.
      func deliver(_ range: Range<Int>, shift: Int) -> Bool {
        let lineEvents = chunk.lineEvents
        var nextLineEvent = lineEvents.firstIndex { $0 >= range.lowerBound } ?? lineEvents.count
        return chunk.events.take(range) { index, event in
          if isCancelled() { return false }
          let hasLine = nextLineEvent < lineEvents.count && lineEvents[nextLineEvent] == index
          if hasLine { nextLineEvent += 1 }
          if days == 0 && dating == nil && (shift == 0 || !hasLine) {
            // Straight from the buffer to the handler: each copy of a fix is 300 bytes.
            handle(event)
          } else {
            // One switch, each payload taken out and put back once: every test of an
            // event's case, and every rewrap, copies all of it.
            switch consume event {
            case .fix(var fix):
              if days != 0, let time = fix.time { fix.time = time.shifted(byDays: days) }
              if dating?.isOver == false { dating?.date(&fix) }
              handle(.fix(fix))
            case .heading(let reading): handle(.heading(reading))
            case .sentence(let sentence, let line): handle(.sentence(sentence, line: line + shift))
            case .accepted(let bytes, let line): handle(.accepted(bytes, line: line + shift))
            case .rejected(var rejection):
              rejection.line += shift
              handle(.rejected(rejection))
            }
          }
          return true
        }
      }
      /// Continues from a worker's decoder: its lines moved by `shift`, the statistics so
      /// far with `added` (the worker's since they last restarted), and the variation this
      /// decoder had if the worker learned none.
      func continueFrom(_ worker: NMEADecoder, shift: Int, adding added: DecoderStatistics) {
        var statistics = decoder.statistics
        statistics.merge(added)
        let before = decoder
        decoder = worker
        decoder.adoptVariation(of: before)
        decoder.shiftLines(by: shift)
        decoder.statistics = statistics
      }
      /// Decodes here the rest of a chunk whose worker stopped where its events filled the
      /// budget; `false` when cancelled.
      func finishInOrder() throws(SystemError) -> Bool {
        guard chunk.decodedEnd < chunk.range.upperBound else { return true }
        chunksFinishedInOrder += 1
        return try readInOrder(chunk.decodedEnd..<chunk.range.upperBound)
      }
      if let gap = variationGap, let start = chunk.start, let end = chunk.end {
        // The worker's events up to the stretch, then the stretch decoded here from the
        // worker's decoder at its start, with the variation this decoder had.
        chunksPartlyDecodedTwice += 1
        guard deliver(0..<gap.resumeEvents, shift: decoder.line - start.line) else { return nil }
        continueFrom(gap.resume, shift: decoder.line - start.line, adding: gap.resume.statistics)
        let stretchEnd = gap.learned?.offset ?? chunk.decodedEnd
        bytesPartlyDecodedTwice += stretchEnd - gap.resumeOffset
        guard try readInOrder(gap.resumeOffset..<stretchEnd) else { return nil }
        if let learned = gap.learned, learned.decoder.difference(from: decoder) == nil,
          Self.mergesExactly(decoder.statistics, end.statistics)
        {
          // The same state where the worker learned its variation: its events from there.
          let shift = decoder.line - learned.decoder.line
          guard deliver(learned.events..<chunk.events.count, shift: shift) else { return nil }
          continueFrom(end, shift: shift, adding: end.statistics)
          guard try finishInOrder() else { return nil }
        } else {
          // No variation learned in the chunk, or not the same state: the rest in order.
          bytesPartlyDecodedTwice += chunk.decodedEnd - stretchEnd
          guard try readInOrder(stretchEnd..<chunk.range.upperBound) else { return nil }
        }
      } else if let start = chunk.start, let end = chunk.end, inOrder == nil {
        let shift = decoder.line - start.line
        guard deliver(0..<chunk.events.count, shift: shift) else { return nil }
        continueFrom(end, shift: shift, adding: end.statistics)
        if let dating { decoder.adoptDating(dating, anchor: !datesStated && !dating.isOver) }
        guard try finishInOrder() else { return nil }
      } else {
        chunksDecodedInOrder += 1
        if let inOrder { chunksInOrderByReason[inOrder, default: 0] += 1 }
        guard try readInOrder(chunk.range) else { return nil }
      }
      if givesUpSplitting && chunks >= Self.trialChunks && 2 * chunksDecodedTwice > chunks {
        // Most chunks so far had to be decoded again: the workers' decoding is wasted on
        // this log. The rest is read here, in order, and the other cores are left alone.
        queue.cancelAndWait()
        readInOrderFrom = chunk.range.upperBound
        progress(decoder.statistics)
        break
      }
      reached.withLock { [anchor = decoder.datesStated == 0 ? decoder.dateAnchor : nil] in $0 = anchor }
      progress(decoder.statistics)
    }
    if let readInOrderFrom {
      guard try readInOrder(readInOrderFrom..<plan.size) else { return nil }
      progress(decoder.statistics)
    }
    // What was written after the size was taken, as a plain read would have seen it.
    try SystemIO.read(descriptor, plan.size..<Int.max, through: buffer) { piece in
      decoder.decode(piece, handle)
      return true
    }
    if isCancelled() { return nil }
    decoder.finish(handle)
    progress(decoder.statistics)
    return decoder.statistics
  }

  /// Whether adding `chunk`'s counts to `sofar`'s gives what one decoder would have
  /// counted: unknown sentence types are listed by address up to a cap, and which
  /// addresses make the list depends on the order they came in once it is full.
  static func mergesExactly(_ sofar: DecoderStatistics, _ chunk: DecoderStatistics) -> Bool {
    guard chunk.otherUnlisted == 0 else { return false }
    let new = chunk.otherByAddress.keys.filter { sofar.otherByAddress[$0] == nil }.count
    return sofar.otherByAddress.count + new <= DecoderStatistics.maximumAddresses
  }
}

/// Why ``ParallelLogDecoder`` decoded a chunk in order on the calling thread rather than
/// use a worker's decoding of it.
public enum ChunkInOrderReason: Hashable, Sendable, CustomStringConvertible {
  /// The worker's decoder, after its warm-up, still differed from the decoder that read
  /// everything before the chunk, in this part of its state.
  case state(DecoderStateDifference)
  /// The chunk's unknown sentence types would have been listed differently: the list of
  /// them by address is full, and which addresses it holds depends on their order.
  case unknownSentenceList
  /// No worker decoded it: it had no line start for four chunks' length, or more events
  /// than memory keeps (``ParallelLogDecoder/eventBytesPerChunkByte``). Decoded once.
  case notDecodedAhead

  /// A few words a user reads: `the sky view differed`.
  public var description: String {
    switch self {
    case .state(let difference): "the \(Self.words[difference] ?? difference.rawValue) differed"
    case .unknownSentenceList: "the list of unknown sentence types was full"
    case .notDecodedAhead: "too long or too many events to decode ahead"
    }
  }

  private static let words: [DecoderStateDifference: String] = [
    .halfReadLine: "half-read line", .openCycle: "open cycle", .date: "date", .previousFix: "previous fix",
    .pendingAccuracy: "pending accuracy", .fixMode: "fix mode", .headingOrVariation: "heading or variation",
    .completedFix: "completed fix", .cycleEnd: "cycle end", .skyView: "sky view",
  ]
}

/// Where the chunks of a file begin: nominally every `chunkSize` bytes, in fact at the
/// first line start within those bytes (a chunk with none is empty).
struct ChunkPlan: Sendable {
  let size: Int
  let chunkSize: Int
  let warmUp: Int
  var smallestEventBudget = 3 << 20
  /// How far back at most a worker keeps its decoder, while it has not learned a magnetic
  /// variation, for the merger to resume from should a heading go without one (see
  /// ``VariationGap``).
  var resumeInterval = 64 << 10
  /// The longest chunk a worker decodes; a longer one is left to be decoded in order.
  var maximumChunk: Int { 4 * chunkSize + SentenceFramer.maximumLength }

  var count: Int { max(1, (size + chunkSize - 1) / chunkSize) }

  /// The most memory a chunk's events may take (see
  /// ``ParallelLogDecoder/eventBytesPerChunkByte``).
  var eventBudget: Int {
    max(smallestEventBudget, Int(ParallelLogDecoder.eventBytesPerChunkByte * Double(chunkSize)))
  }

  /// The most events a chunk can keep within ``eventBudget``.
  var maximumEvents: Int { eventBudget / MemoryLayout<DecoderEvent>.stride }

  func nominalStart(_ index: Int) -> Int { min(size, index * chunkSize) }
}

/// One chunk, decoded by a worker.
struct DecodedChunk {
  /// The bytes it covers.
  var range: Range<Int>
  /// Its decoder after the warm-up (a fresh one for the first chunk), and after the chunk,
  /// with the statistics of the chunk alone; `nil` for an empty chunk, or one left to be
  /// decoded in order (too long, or too many events).
  var start: NMEADecoder?
  var end: NMEADecoder?
  /// Where the worker stopped: the chunk's end, or before it when the events reached
  /// the budget (the rest is decoded in order, from ``end``).
  var decodedEnd = 0
  var events: EventBuffer
  /// Whether a heading reading is among the events (its declination depends on the day).
  var hasHeadings = false
  /// The indices in ``events``, ascending, of the events that carry a line (sentences,
  /// rejections, accepted sentences): only their lines move at hand-over. Kept here
  /// because asking an event its case copies all of it.
  var lineEvents: [Int] = []
  /// Where a heading in the chunk went without a magnetic variation the worker had not
  /// learned; `nil` when none did.
  var variationGap: VariationGap?
}

/// The stretch of a chunk in which its headings went without a magnetic variation: from
/// up to ``ChunkPlan/resumeInterval`` before the first that did, to where the worker
/// learned one of its own. Only that stretch depends on the variation before the chunk, which the worker
/// cannot see (a receiver may give it once, megabytes back); the merger decodes it again
/// with that variation, and takes the worker's events on either side of it.
struct VariationGap {
  /// The worker's decoder where the stretch begins, with the statistics from the chunk's
  /// start; the byte offset there, and how many events came before.
  var resume: NMEADecoder
  var resumeOffset: Int
  var resumeEvents: Int
  /// Where the worker first had a variation of its own after the stretch began: its
  /// decoder there (its statistics restarted from there, so the chunk's end has those of
  /// the rest alone), the byte offset, the events before it, and the statistics of the
  /// chunk up to there. `nil` when the worker learned none in the chunk.
  var learned: (decoder: NMEADecoder, offset: Int, events: Int, statistics: DecoderStatistics)?
}

/// Reads and decodes chunks for the workers.
struct ChunkReader: Sendable {
  static let pieceSize = 256 * 1024
  let descriptor: Int32
  let plan: ChunkPlan
  let options: NMEADecoder.Options

  /// Decodes chunk `index`, reading through `buffer`: its events (appended to `events`,
  /// an empty buffer), and its decoder before and after. `reached` is the time the merger
  /// dated last in a log that states no date, if it has dated one.
  func decode(
    _ index: Int, into events: EventBuffer, _ buffer: UnsafeMutableRawBufferPointer,
    reached: () -> Timestamp? = { nil }, until cancelled: () -> Bool
  ) throws(SystemError) -> DecodedChunk {
    // A chunk begins at the first line start within its nominal bytes; one with none
    // (a long run without newlines) is empty, its bytes in the chunk before. So each byte
    // is scanned for a boundary at most twice, whatever the file.
    let nextStart = plan.nominalStart(index + 1)
    guard let start = try lineStart(atOrAfter: plan.nominalStart(index), before: nextStart, buffer) else {
      return DecodedChunk(range: nextStart..<nextStart, events: events)
    }
    let end = try lineStart(atOrAfter: nextStart, before: plan.size, buffer) ?? plan.size
    var chunk = DecodedChunk(range: start..<end, events: events)
    guard start < end, end - start <= plan.maximumChunk else { return chunk }
    var decoder = NMEADecoder(options: options)
    if start > 0 {
      // When the warm-up finds not one sentence, it fell in a burst of garbage (binary
      // bytes, a run without a line end) and learned nothing: four times as far back
      // reaches past a burst of up to three warm-ups, to the log before it.
      for reach in [plan.warmUp, 4 * plan.warmUp] {
        decoder = NMEADecoder(options: options)
        let warmUpStart = try lineStart(atOrAfter: max(0, start - reach), before: start, buffer) ?? start
        try read(warmUpStart..<start, buffer, cancelled) { decoder.decode($0) { _ in } }
        if decoder.statistics.sentences > 0 || warmUpStart == 0 { break }
      }
      decoder.statistics = DecoderStatistics()
      // A log that states no date, dated from a seed (`--date`, a comment): the warm-up
      // dated its cycles from the seed's day, not the day the log has reached here. The
      // day is guessed from the time the merger dated last, some chunks back: the first
      // at or after it with this time of day. A wrong guess costs what no guess does (the
      // merger moves the chunk's dates at hand-over), a right one saves that.
      if decoder.datesStated == 0, let own = decoder.dateAnchor, let reached = reached() {
        decoder.shiftDates(byDays: Self.days(from: own, toTheFirstAfter: reached))
      }
    }
    // From here on, a heading that went without a variation matters (see below).
    decoder.resetVariationAssumption()
    chunk.start = decoder
    var overflowed = false
    var abandoned = false
    var hasHeadings = false
    var lineEvents: [Int] = []
    var budget = plan.eventBudget
    // Events that hold memory of their own (a rejection's text, a sentence, its bytes):
    // each is looked at for its cost as it comes.
    let eventsHoldMore = options.detailsRejections || options.passesThrough || options.reportsSentences
    var decodedEnd = start
    // While the decoder has no variation and no heading has gone without one, the
    // decoder as it was at most ``ChunkPlan/resumeInterval`` bytes back, where the
    // merger would resume if the next heading goes without.
    var resume: (decoder: NMEADecoder, offset: Int, events: Int)?
    var variationGap: VariationGap?
    try read(start..<end, buffer, { overflowed || abandoned || cancelled() }) { bytes in
      var offset = 0
      while offset < bytes.count && !overflowed && !abandoned {
        let position = decodedEnd + offset
        let watchesVariation = variationGap == nil && !decoder.hasVariation
        if watchesVariation && position - (resume?.offset ?? -plan.resumeInterval) >= plan.resumeInterval {
          // (A copy every 64 KB; the arrays it shares are copied once on write.)
          resume = (decoder, position, events.count)
        }
        // Whole pieces while the events so far say the budget has room for twice their
        // density; then slices that cannot take more than the budget left, however
        // dense their events. When it runs out, the decoder stops at a slice's end: the
        // merger takes the events so far and decodes the rest of the chunk from there.
        let remaining = bytes.count - offset
        let decoded = decodedEnd + offset - start
        let density = Double(plan.eventBudget - budget) / Double(max(1, decoded))
        // (Never whole before the first slice: nothing yet tells the density.)
        let whole = decoded > 0 && Double(budget) > 2 * density * Double(remaining) + Double(Self.reserve)
        let slice = max(Self.smallestSlice, budget / Self.mostEventBytesPerByte)
        var length = whole ? remaining : min(remaining, slice)
        if watchesVariation {
          length = min(length, plan.resumeInterval - (position - resume!.offset))
        } else if let gap = variationGap, gap.learned == nil {
          // Short slices until the worker learns a variation: the merger decodes the
          // stretch up to there again.
          length = min(length, Self.variationSlice)
        }
        let piece = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        if eventsHoldMore {
          decoder.decode(piece) { event in
            switch event {
            case .fix: budget -= MemoryLayout<DecoderEvent>.stride
            case .heading:
              budget -= MemoryLayout<DecoderEvent>.stride
              hasHeadings = true
            default:
              budget -= Self.memory(of: event) + MemoryLayout<Int>.stride
              lineEvents.append(events.count)
            }
            // Denser than the whole piece had room for (a burst of rejections): the
            // chunk is left to be decoded in order.
            guard budget >= 0 else {
              abandoned = true
              return
            }
            events.append(event)
          }
        } else {
          // Every event takes its place in the buffer and nothing more, so the budget
          // needs no look at what an event is: a look copies all of it (a fix is 240
          // bytes). Only a piece that gave more events than fixes is looked through
          // afterwards, for its rejections' lines and its headings.
          let (eventsBefore, fixesBefore) = (events.count, decoder.statistics.cycles)
          decoder.decode(piece) { event in
            budget -= MemoryLayout<DecoderEvent>.stride
            guard budget >= 0 else {
              abandoned = true
              return
            }
            events.append(event)
          }
          if !abandoned && events.count - eventsBefore != decoder.statistics.cycles - fixesBefore {
            for index in eventsBefore..<events.count {
              switch events.kind(at: index) {
              case .fix: break
              case .heading: hasHeadings = true
              case .carriesLine:
                budget -= MemoryLayout<Int>.stride
                lineEvents.append(index)
              }
            }
            if budget < 0 { abandoned = true }
          }
        }
        offset += length
        if watchesVariation, decoder.assumedNoVariation, let resume {
          variationGap = VariationGap(resume: resume.decoder, resumeOffset: resume.offset, resumeEvents: resume.events)
        }
        if !watchesVariation { resume = nil }
        if variationGap != nil, variationGap?.learned == nil, decoder.hasVariation {
          variationGap?.learned = (decoder, decodedEnd + offset, events.count, decoder.statistics)
          decoder.statistics = DecoderStatistics()
        }
        if budget < Self.reserve { overflowed = true }
      }
      decodedEnd += offset
    }
    chunk.hasHeadings = hasHeadings
    chunk.lineEvents = lineEvents
    chunk.variationGap = variationGap
    if abandoned {
      // No decoder to continue from.
      chunk.start = nil
      return chunk
    }
    chunk.end = decoder
    chunk.decodedEnd = decodedEnd
    return chunk
  }

  /// The whole days from `time` to the first time at or after `reached` with its time of
  /// day.
  static func days(from time: Timestamp, toTheFirstAfter reached: Timestamp) -> Int {
    var guess = reached.onSameDay(at: time.timeOfDay)
    if guess < reached { guess = guess.shifted(byDays: 1) }
    return Int((guess.microsecondsSinceEpoch - time.microsecondsSinceEpoch) / TimeOfDay.microsecondsPerDay)
  }

  /// The time of the log's first cycle, when it states no date before it and a seed dates
  /// it (`--date`, a `# Date:` comment); `nil` otherwise. Read from the first bytes, a
  /// few at a time: the first cycle is usually in the first lines, and the look stops at
  /// ``firstCycleReach``.
  func firstDatedCycle() throws(SystemError) -> Timestamp? {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    defer { buffer.deallocate() }
    var decoder = NMEADecoder(options: options)
    var first: Fix?
    try read(0..<min(plan.size, Self.firstCycleReach), buffer, { first != nil }) { piece in
      decoder.decode(piece) { event in
        if first == nil, case .fix(let fix) = event { first = fix }
      }
    }
    guard decoder.datesStated == 0 else { return nil }
    return first?.time
  }

  /// How far into a log ``firstDatedCycle()`` looks, bytes.
  static let firstCycleReach = 64 * 1024

  /// The most memory the events of one byte of input can take: a rejection (with its
  /// text) for every byte, as a run of `$` gives.
  static let mostEventBytesPerByte = MemoryLayout<DecoderEvent>.stride + 64 + RejectionDetail.longestText

  /// The shortest slice a chunk is decoded in near the end of its event budget, bytes.
  static let smallestSlice = 64

  /// The slices a chunk is decoded in while its headings go without a variation, bytes:
  /// the merger decodes again up to the end of the slice in which the worker learns one.
  static let variationSlice = 4096

  /// The budget left when a worker stops: what the densest slice could take.
  static let reserve = smallestSlice * mostEventBytesPerByte

  /// About the memory `event` takes once stored: its place in the array, and what it
  /// holds on the heap (a rejection's text for `-v`, a sentence's bytes for `--nmea`).
  static func memory(of event: DecoderEvent) -> Int {
    let stored = MemoryLayout<DecoderEvent>.stride
    switch event {
    case .rejected(let rejection): return stored + (rejection.detail == nil ? 0 : 64 + RejectionDetail.longestText)
    case .accepted(let bytes, _): return stored + 32 + bytes.count
    case .sentence: return stored + 128
    case .fix, .heading: return stored
    }
  }

  /// Feeds the bytes of `range` to `body` a piece at a time, until `cancelled`.
  private func read(
    _ range: Range<Int>, _ buffer: UnsafeMutableRawBufferPointer, _ cancelled: () -> Bool,
    _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(SystemError) {
    guard !cancelled() else { return }
    try SystemIO.read(descriptor, range, through: buffer) { piece in
      body(piece)
      return !cancelled()
    }
  }

  /// The first offset at or after `position` and before `limit` that begins a line (0,
  /// or follows a `\n`, or a `\r` that no `\n` follows: logs whose lines end in CR
  /// alone split as well); `nil` when there is none. A cut never falls between the CR
  /// and LF of one line end, so the framer counts lines as it would reading on.
  func lineStart(atOrAfter position: Int, before limit: Int, _ buffer: UnsafeMutableRawBufferPointer)
    throws(SystemError) -> Int?
  {
    guard position > 0 else { return limit > 0 ? 0 : nil }
    // A line starts at q when the byte at q − 1 ends a line: look from position − 1.
    var offset = position - 1
    // A line is usually found in the first bytes; a long run without one is read in
    // growing pieces.
    var piece = 4096
    while offset < limit - 1 {
      // The bytes examined, and one more: whether a CR ends a line depends on the next.
      let examined = min(piece, buffer.count - 1, limit - 1 - offset)
      let count = try SystemIO.read(
        descriptor, at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(examined + 1)]))
      if count == 0 { break }
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
      for index in 0..<min(count, examined) {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n")
          || (byte == UInt8(ascii: "\r") && (index + 1 == count || bytes[index + 1] != UInt8(ascii: "\n")))
        {
          return offset + index + 1
        }
      }
      offset += min(count, examined)
      piece = buffer.count
    }
    return nil
  }
}
