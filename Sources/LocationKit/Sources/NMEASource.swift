import NMEA

#if canImport(Glibc)
  import Glibc
#endif

/// A source that decodes NMEA 0183 from a log file, standard input, a serial receiver or
/// a TCP stream.
///
/// Log files are read as fast as possible, or paced by the log's own timestamps at a speed
/// factor. Streams (serial, TCP, and a pipe, terminal or socket on standard input or named
/// as a file) are live: a reporting cycle is delivered once its last sentence (learned
/// from the stream) has arrived and nothing more is waiting to be read, or else after
/// ``Options/idleCompletion`` seconds of silence. When a serial device or a TCP peer goes
/// away the source reports ``LocationError/Code/locationUnknown`` and reconnects with
/// capped exponential backoff; the end of any other input is the end of the source.
public final class NMEASource: LocationSource, @unchecked Sendable {
  // @unchecked Sendable: the configuration is immutable; what other threads read is in
  // `shared`, under a lock; the thread's state is in `reader` (itself safe); the decoder
  // lives on the reading thread alone.

  /// Where the bytes come from.
  public enum Transport: Sendable, Equatable {
    /// A log file (or a FIFO named as a file), read to its end.
    case file(path: String)
    /// Standard input: live when it is a pipe, terminal or socket.
    case standardInput
    /// A serial receiver at `baud` (raw mode), reopened when it goes away.
    case serial(path: String, baud: Int)
    /// An NMEA stream over TCP, reconnected with backoff.
    case tcp(host: String, port: UInt16)
    /// Datagrams sent to `port`: on every interface with no `host`, else to that address
    /// or multicast group (see ``SourceAddress/udp(host:port:)``).
    case udp(host: String?, port: UInt16)
  }

  /// How the source reads.
  public struct Options: Sendable {
    /// How the decoder reads the bytes (a date for dateless logs, strict checksums, ...).
    public var decoder = NMEADecoder.Options()
    /// For log files: replay at this multiple of the log's own pace (1 is real time);
    /// `nil` reads as fast as possible.
    public var replaySpeed: Double?
    /// For live sources: deliver a pending cycle after this many seconds without bytes.
    public var idleCompletion = 0.25
    /// The first delay before a serial or TCP source reconnects, seconds; it doubles with
    /// each failure.
    public var initialBackoff = 0.25
    /// The longest delay between reconnection attempts, seconds.
    public var maximumBackoff = 8.0
    /// For a serial receiver: a device that does not exist when the source starts is
    /// waited for (``LocationError/Code/locationUnknown``, retried with backoff as one
    /// unplugged later is) instead of ending the source with
    /// ``LocationError/Code/sourceNotFound``: a receiver plugged in after the program
    /// starts.
    public var waitsForDevice = false
    /// Called on the reading thread for every rejected line (for `--verbose`).
    public var onRejection: (@Sendable (Rejection) -> Void)?
    /// Called on the reading thread with every accepted sentence as it came (checksum and
    /// CRLF included), when the decoder ``/NMEA/NMEADecoder/Options/passesThrough``.
    public var onSentence: (@Sendable ([UInt8]) -> Void)?
    /// Called on the reading thread with every accepted sentence decoded, and its line as
    /// ``onSentence`` gets it, when the decoder also
    /// ``/NMEA/NMEADecoder/Options/reportsSentences`` (`print --nmea --json`).
    public var onDecodedSentence: (@Sendable (Sentence, [UInt8]) -> Void)?

    /// For log files read as fast as possible: how many threads decode a file of at least
    /// ``ParallelLogDecoder/smallestSplitFile`` bytes (see ``ParallelLogDecoder``; the
    /// events are the same).
    public var jobs = 1
    /// The chunk size of parallel decoding; `nil` for ``ParallelLogDecoder``'s (a size
    /// given splits files of any size: for tests).
    public var chunkSize: Int?

    /// Creates options.
    public init(decoder: NMEADecoder.Options = NMEADecoder.Options(), replaySpeed: Double? = nil) {
      self.decoder = decoder
      self.replaySpeed = replaySpeed
    }
  }

  /// Where the bytes come from.
  public let transport: Transport
  /// How the source reads them.
  public let options: Options
  public let name: String

  private let reader = SourceThread()
  /// What the reading thread tells other threads: its statistics, the first bytes, and
  /// for UDP the datagrams the kernel dropped and the socket's receive buffer.
  private let shared = Locked(
    (statistics: DecoderStatistics(), firstBytes: [UInt8](), droppedDatagrams: 0, receiveBuffer: Int?.none))

  /// Creates a source; nothing is opened until ``start(_:)``.
  public init(_ transport: Transport, options: Options = Options()) {
    self.transport = transport
    self.options = options
    switch transport {
    case .file(let path): name = path
    case .standardInput: name = "standard input"
    case .serial(let path, _): name = path
    case .tcp(let host, let port): name = SourceAddress.tcp(host: host, port: port).description
    case .udp(let host, let port): name = SourceAddress.udp(host: host, port: port).description
    }
  }

  /// What the decoder has counted so far (bytes, sentences, rejections by reason).
  public var statistics: DecoderStatistics { shared.withLock { $0.statistics } }

  public var receivedBytes: Int { shared.withLock { $0.statistics.bytes } }

  /// The first bytes read (up to 4), to tell what an input that is not NMEA is instead
  /// (gzip, UTF-16 text).
  public var leadingBytes: [UInt8] { shared.withLock { $0.firstBytes } }

  /// For UDP: the datagrams the kernel dropped because they came faster than they were
  /// read (its receive buffer was full), as the kernel counts them; 0 for other inputs.
  public var droppedDatagrams: Int { shared.withLock { $0.droppedDatagrams } }

  /// For UDP: the receive buffer the kernel gave the socket, bytes (twice the 4 MiB asked
  /// for where allowed; the kernel doubles what it is asked for); `nil` before it is open
  /// and for other inputs.
  public var receiveBufferBytes: Int? { shared.withLock { $0.receiveBuffer } }

  /// Whether losing the input is transient: a device unplugged, a peer gone.
  private var reconnects: Bool {
    switch transport {
    case .serial, .tcp, .udp: true
    case .file, .standardInput: false
    }
  }

  /// Whether the opened input delivers bytes as they are produced, rather than all at
  /// once like a regular file: then cycles are completed when the receiver pauses.
  private func isStream(_ descriptor: FileDescriptor) -> Bool {
    if reconnects { return true }
    var info = stat()
    return fstat(descriptor.rawValue, &info) == 0 && SourceAddress.isStream(info.st_mode)
  }

  public func start(_ sink: @escaping @Sendable (SourceEvent) -> Void) {
    reader.start(name: "whereami.nmea-source") { [self] signal in run(signal, sink) }
  }

  public func stop() { reader.stop() }

  private func emit(_ event: SourceEvent, _ sink: @Sendable (SourceEvent) -> Void) {
    reader.emit(event, sink)
  }

  // MARK: Reading

  private func run(_ stop: StopSignal, _ sink: @escaping @Sendable (SourceEvent) -> Void) {
    var decoder = NMEADecoder(options: options.decoder)
    var backoff = Backoff(initial: options.initialBackoff, maximum: options.maximumBackoff)
    var pacer = Pacer(speed: options.replaySpeed)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    defer { buffer.deallocate() }
    var firstAttempt = true
    var stopped = false
    // For UDP: the sender whose datagrams are being decoded, named as the fixes' device.
    var device: String?
    var senders = DatagramSenders()
    // A decoded sentence, until its accepted line comes (right after it).
    var decoded: Sentence?

    let handle: (consuming DecoderEvent) -> Void = { [self] event in
      switch consume event {
      case .fix(let fix):
        guard !stopped else { return }
        if !pacer.wait(for: fix, stop) {
          stopped = true
          return
        }
        if var location = Location(fix) {
          location.device = device
          emit(.location(location), sink)
        } else {
          var sky = SkyView(
            timestamp: fix.time,
            timeOfDay: fix.time == nil && fix.timeOfDay.microseconds == 0 ? nil : fix.timeOfDay,
            satellites: fix.satellites, satellitesUsed: fix.satellitesUsed)
          sky.device = device
          emit(.noFix(sky), sink)
        }
      case .rejected(let rejection):
        // Nothing after stop: the rest of the buffer is not reported either.
        if reader.isRunning { options.onRejection?(rejection) }
      case .heading(let reading):
        guard !stopped else { return }
        // A dated heading is paced like the fixes (a 10 Hz compass replays at 10 Hz).
        if let time = reading.time, !pacer.wait(forLogTime: time.secondsSinceEpoch, stop) {
          stopped = true
          return
        }
        var heading = Heading(reading)
        heading.device = device
        emit(.heading(heading), sink)
      case .accepted(let bytes, _):
        if reader.isRunning {
          options.onSentence?(bytes)
          if let sentence = decoded { options.onDecodedSentence?(sentence, bytes) }
        }
        decoded = nil
      case .sentence(let sentence, _):
        if options.onDecodedSentence != nil { decoded = sentence }
      }
    }

    /// Receives datagrams on `socket`, each sender's into a decoder of its own, until
    /// stopped (`false`) or the socket fails (`true`: it is opened again).
    func receiveDatagrams(_ socket: FileDescriptor) -> Bool {
      var receivedData = false
      // The kernel counts a socket's drops from 0: earlier sockets' drops come first.
      let droppedBefore = shared.withLock { shared in
        shared.receiveBuffer = UDPSocket.receiveBuffer(of: socket)
        return shared.droppedDatagrams
      }
      var dropped: UInt32 = 0
      // With several senders the counts are merged from each one's: at most every 10 ms,
      // and whenever the port falls quiet.
      var lastMerged = 0.0
      while true {
        let now = SystemClock.monotonic()
        let timeout = senders.anyJustRead ? 0 : senders.soonestSilence(after: options.idleCompletion).map { $0 - now }
        switch stop.wait(for: socket.rawValue, timeout: timeout.map { max(0, $0) }) {
        case .stopped:
          socket.close()
          return false
        case .timedOut:
          // Caught up: a sender's burst is over if it ended with the sentence that ends
          // every cycle; otherwise its cycle waits for a moment of its silence.
          let now = SystemClock.monotonic()
          senders.updateAll { sender in
            device = sender.name
            switch sender.pending {
            case .nothing: break
            case .justRead:
              sender.pending = sender.decoder.completeCycleIfEnded(handle) ? .nothing : .waitingForSilence
            case .waitingForSilence where now - sender.lastHeard >= options.idleCompletion:
              sender.decoder.completeCycle(handle)
              sender.pending = .nothing
            case .waitingForSilence: break
            }
          }
          if senders.senders.count > 1 { publish(senders.statistics) }
          continue
        case .readable:
          break
        }
        var from = sockaddr_storage()
        let count: Int
        do {
          let droppedEarlier = dropped
          count = try socket.receive(into: buffer, from: &from, dropped: &dropped)
          if dropped != droppedEarlier {
            shared.withLock { $0.droppedDatagrams = droppedBefore + Int(dropped) }
          }
        } catch {
          if error.errno == EAGAIN || error.errno == EWOULDBLOCK { continue }
          socket.close()
          senders.updateAll { sender in
            device = sender.name
            sender.decoder.completeCycle(handle)
            sender.pending = .nothing
          }
          emit(.error(LocationError(.locationUnknown, "lost \(name): \(error.reason); reconnecting")), sink)
          return true
        }
        // An empty datagram: nothing to decode, and no end either.
        guard count > 0, let address = SenderAddress(from) else { continue }
        if !receivedData {
          receivedData = true
          backoff.reset()
          if senders.senders.isEmpty {
            let leading = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<min(count, 4)]))
            shared.withLock { $0.firstBytes = leading }
          }
        }
        let heard = SystemClock.monotonic()
        let key = senders.sender(at: address, now: heard, options: options.decoder) { oldest in
          device = oldest.name
          oldest.decoder.completeCycle(handle)
        }
        let statistics = senders.update(key) { sender in
          device = sender.name
          sender.decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), handle)
          sender.lastHeard = heard
          sender.pending = .justRead
          return sender.decoder.statistics
        }
        if senders.senders.count == 1 {
          publish(statistics)
        } else if heard - lastMerged >= 0.01 {
          publish(senders.statistics)
          lastMerged = heard
        }
      }
    }

    while !stop.isFired && !stopped {
      let descriptor: FileDescriptor
      switch openTransport(stop, reconnecting: !firstAttempt) {
      case .success(let opened):
        descriptor = opened
      case .failure(let error):
        emit(.error(error), sink)
        if error.isFinal || !reconnects { return }
        firstAttempt = false
        if !stop.sleep(backoff.delay()) { return }
        continue
      }
      firstAttempt = false
      if case .udp = transport {
        guard receiveDatagrams(descriptor) else { return }
        if !stop.sleep(backoff.delay()) { return }
        continue
      }
      let live = isStream(descriptor)
      if !live, case .file = transport, options.replaySpeed == nil,
        let size = parallelDecoder.splittableSize(of: descriptor.rawValue)
      {
        decodeInParallel(descriptor, size: size, stop, sink) { event in
          handle(event)
          return !stopped
        }
        return
      }
      // For a live input, what has been decoded since its cycle was last completed.
      var pending = Pending.nothing
      var receivedData = false
      reading: while true {
        let timeout: Double? =
          switch pending {
          case .nothing: nil
          case .justRead: 0
          case .waitingForSilence: options.idleCompletion
          }
        switch stop.wait(for: descriptor.rawValue, timeout: timeout) {
        case .stopped:
          descriptor.close()
          return
        case .timedOut where pending == .justRead:
          // Caught up with the receiver: its burst is over if it ended with the sentence
          // that ends every cycle; otherwise the cycle waits for a moment's silence.
          pending = decoder.completeCycleIfEnded(handle) ? .nothing : .waitingForSilence
          continue reading
        case .timedOut:
          decoder.completeCycle(handle)
          pending = .nothing
          continue reading
        case .readable:
          break
        }
        let count: Int
        do {
          count = try descriptor.read(into: buffer)
        } catch {
          if error.errno == EAGAIN || error.errno == EWOULDBLOCK { continue reading }
          descriptor.close()
          if reconnects {
            decoder.completeCycle(handle)
            emit(.error(LocationError(.locationUnknown, "lost \(name): \(error.reason); reconnecting")), sink)
            break reading
          }
          decoder.finish(handle)
          publish(decoder.statistics)
          emit(.error(LocationError(.readError, "cannot read \(name): \(error.reason)", final: true)), sink)
          return
        }
        if count == 0 {
          descriptor.close()
          if reconnects {
            decoder.completeCycle(handle)
            publish(decoder.statistics)
            emit(.error(LocationError(.locationUnknown, "\(name) closed the connection; reconnecting")), sink)
            break reading
          }
          decoder.finish(handle)
          publish(decoder.statistics)
          emit(.error(LocationError(.sourceEnded, "end of \(name)")), sink)
          return
        }
        if !receivedData {
          receivedData = true
          backoff.reset()
        }
        if decoder.statistics.bytes == 0 {
          let leading = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<min(count, 4)]))
          shared.withLock { $0.firstBytes = leading }
        }
        decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), handle)
        publish(decoder.statistics)
        if live { pending = .justRead }
        if stopped {
          descriptor.close()
          return
        }
      }
      if !stop.sleep(backoff.delay()) { return }
    }

  }

  /// The decoder of a log file read as fast as possible, on ``Options/jobs`` threads.
  private var parallelDecoder: ParallelLogDecoder {
    ParallelLogDecoder(options: options.decoder, jobs: options.jobs, chunkSize: options.chunkSize)
  }

  /// Decodes a whole regular file with a ``ParallelLogDecoder``, then reports its end;
  /// `handle` says whether to go on.
  private func decodeInParallel(
    _ descriptor: FileDescriptor, size: Int, _ stop: StopSignal, _ sink: @escaping @Sendable (SourceEvent) -> Void,
    _ handle: (DecoderEvent) -> Bool
  ) {
    defer { descriptor.close() }
    var decoder = parallelDecoder
    var leading = [UInt8](repeating: 0, count: 4)
    let count = leading.withUnsafeMutableBytes { (try? SystemIO.read(descriptor.rawValue, at: 0, into: $0)) ?? 0 }
    shared.withLock { $0.firstBytes = Array(leading.prefix(count)) }
    var goesOn = true
    do {
      let statistics = try decoder.decode(
        descriptor.rawValue, size: size, isCancelled: { !goesOn || stop.isFired },
        progress: { publish($0) }
      ) { event in
        if goesOn { goesOn = handle(event) }
      }
      guard statistics != nil else { return }
      emit(.error(LocationError(.sourceEnded, "end of \(name)")), sink)
    } catch {
      emit(.error(LocationError(.readError, "cannot read \(name): \(error.reason)", final: true)), sink)
    }
  }

  private enum Pending {
    case nothing
    /// Bytes were just decoded: see whether more are waiting.
    case justRead
    /// The cycle is not known to be over: complete it after a silence.
    case waitingForSilence
  }

  private func publish(_ statistics: DecoderStatistics) {
    shared.withLock { $0.statistics = statistics }
  }

  private func openTransport(_ stop: StopSignal, reconnecting: Bool) -> Result<FileDescriptor, LocationError> {
    switch transport {
    case .standardInput:
      return .success(FileDescriptor(dup(STDIN_FILENO)))
    case .file(let path):
      do throws(SystemError) {
        // Non-blocking, so that a FIFO nobody writes to yet does not hold the open (and
        // with it Ctrl-C): the reading loop waits for its first bytes, stoppably.
        return .success(try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK))
      } catch {
        if error.isPermissionDenied {
          return .failure(LocationError(.denied, "cannot open \(path): \(error.reason)"))
        }
        if error.isNotFound {
          return .failure(LocationError(.sourceNotFound, "cannot open \(path): \(error.reason)"))
        }
        return .failure(LocationError(.readError, "cannot open \(path): \(error.reason)", final: true))
      }
    case .serial(let path, let baud):
      do throws(SystemError) {
        return .success(try SerialPort.open(path, baud: baud))
      } catch {
        if error.isPermissionDenied {
          return .failure(
            LocationError(
              .denied,
              "cannot open \(path): \(error.reason). Serial devices belong to the 'dialout' group: "
                + "run 'sudo usermod -aG dialout $USER', then log out and in again"))
        }
        if error.isNotFound {
          // Unplugged, or not plugged in yet and waited for.
          if reconnecting || options.waitsForDevice {
            return .failure(
              LocationError(.locationUnknown, "cannot open \(path): \(error.reason); waiting for it to be plugged in"))
          }
          return .failure(LocationError(.sourceNotFound, "cannot open \(path): \(error.reason)"))
        }
        return .failure(LocationError(.readError, "cannot open \(path): \(error.reason)", final: !reconnecting))
      }
    case .udp(let host, let port):
      do throws(SystemError) {
        return .success(try UDPSocket.listen(host: host, port: port))
      } catch {
        let message = "cannot listen on \(name): \(error.reason)"
        if error.isPermissionDenied { return .failure(LocationError(.denied, message)) }
        if error.errno == EADDRNOTAVAIL || error.errno == EAFNOSUPPORT {
          return .failure(LocationError(.sourceNotFound, message + " (no interface has that address)"))
        }
        if error.errno == ENODEV {
          return .failure(LocationError(.sourceNotFound, message + " (no interface of that name)"))
        }
        return .failure(LocationError(.readError, message, final: !reconnecting))
      }
    case .tcp(let host, let port):
      do throws(TCPConnection.Failure) {
        return .success(try TCPConnection.connect(host: host, port: port, timeout: 5, stop: stop))
      } catch {
        switch error {
        case .unknownHost(let host):
          return .failure(LocationError(.cannotConnect, "cannot connect to \(name): unknown host '\(host)'; retrying"))
        case .unreachable(let failure):
          return .failure(LocationError(.cannotConnect, "cannot connect to \(name): \(failure.reason); retrying"))
        }
      }
    }
  }
}

/// Paces a replay by the log's own timestamps.
package struct Pacer {
  package let speed: Double?
  private var origin: (log: Double, wall: Double)?
  private var lastLogTime: Double?

  package init(speed: Double?) { self.speed = speed }

  /// Sleeps until `fix` is due; `false` when stopped meanwhile.
  mutating func wait(for fix: Fix, _ stop: StopSignal) -> Bool {
    wait(forLogTime: fix.time?.secondsSinceEpoch ?? fix.timeOfDay.seconds, stop)
  }

  /// Sleeps until a report of the log's time `logTime` (seconds) is due.
  package mutating func wait(forLogTime logTime: Double, _ stop: StopSignal) -> Bool {
    guard let speed, speed > 0 else { return true }
    let now = SystemClock.monotonic()
    if let last = lastLogTime, logTime < last || logTime - last > 3600 {
      origin = nil  // time went backwards or jumped: start pacing afresh
    }
    lastLogTime = logTime
    guard let origin else {
      self.origin = (logTime, now)
      return !stop.isFired
    }
    let due = origin.wall + (logTime - origin.log) / speed
    return stop.sleep(due - now)
  }
}
