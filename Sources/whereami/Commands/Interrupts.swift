import CEarlySignals
import Dispatch
import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C, Ctrl-\\ (SIGQUIT), SIGTERM and SIGHUP, caught from the program's first
/// instruction on (they are blocked before the runtime starts: CEarlySignals): each ends a
/// command promptly, once.
///
/// A dispatch signal source starts listening some time after it is resumed, on a thread of
/// dispatch's own, and a signal set to be ignored meanwhile is lost: under load,
/// `timeout -s INT 0.1 whereami print gpsd://...` went on forever. Here both signals are
/// blocked in every thread from the start, so that one arriving at any moment waits,
/// pending, until a single thread takes it with sigwait(2). That thread hands it to the
/// handler a command has set, or, while there is none, ends the program as the signal's
/// default action would have.
enum Interrupts {
  private static let numbers = [SIGINT, SIGTERM, SIGQUIT, SIGHUP]
  /// The handler a command has set (the queue it runs on, and the body), and the signals
  /// that came while a command was setting up to handle them.
  private struct State {
    var handler: (DispatchQueue, @Sendable (Int32) -> Void)?
    var holding = false
    var pending: [Int32] = []
  }
  private static let current = Locked(State())

  /// Blocks the signals in the calling thread, and so in every thread started later, and
  /// starts the thread that takes them. Call first thing, before anything starts a thread.
  ///
  /// With `holding` (a command that will handle the signals: one that follows a source),
  /// a signal that comes before the command's handler is set waits for it rather than
  /// ending the program, so that a `timeout` firing while the command sets up still gets
  /// its one summary and its recording completed.
  static func install(holding: Bool) {
    current.withLock { $0.holding = holding }
    var set = signalSet()
    // Blocked since before the runtime started, unless that initialiser did not run.
    if whereami_signals_blocked_early() == 0 { pthread_sigmask(SIG_BLOCK, &set, nil) }
    SystemThread.start(name: "whereami.interrupts") { waitForSignals() }
  }

  /// From now on, each of the signals calls `body` on `queue` with its number.
  static func handle(on queue: DispatchQueue, _ body: @escaping @Sendable (Int32) -> Void) {
    let pending = current.withLock { state in
      state.handler = (queue, body)
      state.holding = false
      defer { state.pending = [] }
      return state.pending
    }
    for number in pending { queue.async { body(number) } }
  }

  /// The next signal ends the program again; the handler (and what it holds) is released.
  static func reset() {
    current.withLock { $0 = State() }
  }

  private static func signalSet() -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in numbers { sigaddset(&set, number) }
    return set
  }

  private static func waitForSignals() {
    var set = signalSet()
    while true {
      var number: Int32 = 0
      guard sigwait(&set, &number) == 0 else { continue }
      // The handler's, kept for the handler to come, or nobody's.
      let (handler, held) = current.withLock { state in
        if state.handler == nil && state.holding { state.pending.append(number) }
        return (state.handler, state.holding)
      }
      if let (queue, body) = handler {
        let received = number
        queue.async { body(received) }
      } else if !held {
        // Nobody is listening. SIGQUIT's default is a core dump, which the Swift runtime
        // turns into a crash report that waits for a key: end as the shell expects instead.
        if number == SIGQUIT { _exit(128 + number) }
        // The others: the default action, in this thread, where it is unblocked.
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
      }
    }
  }
}
