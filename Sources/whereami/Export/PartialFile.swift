import Dispatch
import LocationKit

#if canImport(Glibc)
  import Glibc
#endif

/// The partial file an export writes before renaming it to FILE, shared between the export
/// and the signal handlers: an interruption removes it (or, for a live recording, keeps it
/// under its own name), unless the rename that completes the export came first. The two
/// never overlap, so FILE is either complete or as it was.
final class PartialFile: @unchecked Sendable {
  // @unchecked Sendable: all its state is in `state`, under a lock.
  private struct State {
    var path: String?
    var completed = false
    var removed = false
    var kept = false
    var interruption: Int32?
  }
  private let state = Locked(State())

  /// What an interruption found.
  enum Removal {
    /// The partial file was removed (or was about to be created, and now will not matter).
    case removed
    /// The export had been completed already: the interruption came too late to matter.
    case completed
    /// The export writes no partial file (standard output, a device, a FIFO).
    case none
    /// The partial file was left in place, under this path, and will not be renamed.
    case kept(String)
  }

  /// Names the partial file before it is created, so that an interruption from then on
  /// removes it.
  func prepare(_ path: String) {
    state.withLock { $0.path = path }
  }

  /// What completing the export found.
  enum Completion {
    case renamed
    /// `rename` failed with this errno.
    case failed(Int32)
    /// A signal removed the partial file first; the process is ending with it.
    case interrupted(signal: Int32)
  }

  /// Completes the export by `rename` (the partial file's path to FILE; returns an errno,
  /// 0 for success), unless the partial file was removed first.
  func complete(_ rename: (String) -> Int32) -> Completion {
    state.withLock { state in
      if let interruption = state.interruption { return .interrupted(signal: interruption) }
      guard let path = state.path, !state.removed, !state.kept else { return .failed(ENOENT) }
      let failure = rename(path)
      state.completed = failure == 0
      return state.completed ? .renamed : .failed(failure)
    }
  }

  /// Removes the partial file unless the export was completed (any thread); `signal` is the
  /// interruption's, if one removes it.
  func removeUnlessCompleted(signal: Int32? = nil) -> Removal {
    state.withLock { state in
      guard let path = state.path else { return .none }
      if state.completed { return .completed }
      if state.kept { return .kept(path) }
      state.removed = true
      if state.interruption == nil { state.interruption = signal }
      unlink(path)
      return .removed
    }
  }

  /// Leaves the partial file where it is, never to be renamed, unless the export was
  /// completed (any thread): what a live recording had written is kept when it is given
  /// up before its document could be completed.
  func keepUnlessCompleted(signal: Int32) -> Removal {
    state.withLock { state in
      guard let path = state.path else { return .none }
      if state.completed { return .completed }
      if state.removed { return .removed }
      state.kept = true
      if state.interruption == nil { state.interruption = signal }
      return .kept(path)
    }
  }
}
