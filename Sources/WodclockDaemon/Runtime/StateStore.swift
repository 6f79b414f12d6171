// SPDX-License-Identifier: MIT
// What survives a crash or a power cut: the engine's state, written atomically on every action,
// and the history of finished and abandoned workouts.

import HardwareKit
import JSONKit
import WorkoutCore

/// The saved state file, `state.json` in the state directory.
struct SavedState: Codable {
  static let currentVersion = 1
  var version: Int
  /// `/proc/sys/kernel/random/boot_id` at save time: the monotonic clock is only comparable
  /// within one boot.
  var bootID: String
  var savedMonotonic: Int64
  var savedEngineInstant: Int64
  var savedWallSeconds: Int64
  var savedWallNanoseconds: Int32
  var preset: String
  var startedWallSeconds: Int64?
  var engine: WorkoutEngine

  enum CodingKeys: String, CodingKey {
    case version
    case bootID = "boot_id"
    case savedMonotonic = "saved_monotonic_ns"
    case savedEngineInstant = "saved_engine_ns"
    case savedWallSeconds = "saved_wall_s"
    case savedWallNanoseconds = "saved_wall_ns"
    case preset
    case startedWallSeconds = "started_wall_s"
    case engine
  }

  /// The wall-clock seconds a saved reading may hold: from 1970 (a Pi without a real-time clock
  /// boots there) to the end of year 9999.
  static let wallSeconds: ClosedRange<Int64> = 0...253_402_300_799

  /// What is wrong with the saved clock readings, or nil when they can be computed with. The
  /// engine inside was checked when it was decoded; this checks the rest of the file the same
  /// way, so that no reading from it can make the restore overflow.
  var problem: String? {
    guard version == Self.currentVersion else { return "unsupported state version \(version)" }
    let times = 0...StateLimits.time
    guard times.contains(savedMonotonic), times.contains(savedEngineInstant) else {
      return "saved clock reading out of range"
    }
    guard Self.wallSeconds.contains(savedWallSeconds),
      (0..<1_000_000_000).contains(savedWallNanoseconds),
      startedWallSeconds.map(Self.wallSeconds.contains) ?? true
    else { return "saved wall-clock time out of range" }
    // The engine is saved after it was last given an instant, never before.
    guard (engine.latestInstant?.nanoseconds ?? savedEngineInstant) <= savedEngineInstant else {
      return "the engine's last instant is after the save"
    }
    return nil
  }
}

/// How a saved state is brought back, decided from the clocks alone (pure, so it is tested
/// without rebooting anything).
enum RestorePlan: Equatable {
  /// Same boot: the monotonic clock still counts from the same origin.
  case resumeByMonotonic(gap: Int64)
  /// After a reboot with a short gap: the wall clock tells how long the power was off.
  case resumeByWallClock(gap: Int64)
  /// After a long or unknowable gap: bring the workout back paused where it was.
  case restorePaused

  static func decide(
    saved: SavedState, bootID: String, monotonicNow: Int64, wallNow: WallClock.Instant,
    resumeWithin: TimeSpan
  ) -> RestorePlan {
    // Every difference is checked: the saved readings come from a file, and a clock reading
    // that cannot be subtracted tells nothing about the gap.
    if saved.bootID == bootID && monotonicNow >= saved.savedMonotonic {
      let (gap, overflow) = monotonicNow.subtractingReportingOverflow(saved.savedMonotonic)
      if !overflow { return .resumeByMonotonic(gap: gap) }
    }
    let (seconds, secondsOverflow) = wallNow.seconds.subtractingReportingOverflow(
      saved.savedWallSeconds)
    let (whole, wholeOverflow) = seconds.multipliedReportingOverflow(
      by: TimeSpan.nanosecondsPerSecond)
    let (gap, gapOverflow) = whole.addingReportingOverflow(
      Int64(wallNow.nanoseconds) - Int64(saved.savedWallNanoseconds))
    if !secondsOverflow && !wholeOverflow && !gapOverflow && gap >= 0
      && gap <= resumeWithin.nanoseconds
    {
      return .resumeByWallClock(gap: gap)
    }
    return .restorePaused
  }
}

/// One finished or abandoned workout, a line of `history.jsonl`.
struct HistoryEntry: Codable, Equatable {
  var preset: String
  /// The notation of a workout loaded as written (`amrap 14`); nil for a preset. Optional, so
  /// lines written before it existed still read.
  var workout: String?
  var mode: String
  var startedWallSeconds: Int64?
  var endedWallSeconds: Int64
  var activeSeconds: Double
  var outcome: String
  var rounds: Int?
  var laps: Int
  var timeUnderTensionSeconds: Double?

  enum CodingKeys: String, CodingKey {
    case preset, workout, mode, outcome, rounds, laps
    case startedWallSeconds = "started_at"
    case endedWallSeconds = "ended_at"
    case activeSeconds = "active_s"
    case timeUnderTensionSeconds = "time_under_tension_s"
  }

  /// Whether every number is one a recorded workout can have. A line read back with another
  /// (an edited or damaged file) is skipped like a torn one, so that no client is handed a
  /// number it cannot compute with (`Int(1e300)` traps).
  var isPlausible: Bool {
    let wall = SavedState.wallSeconds
    let seconds = 0...Double(StateLimits.time / TimeSpan.nanosecondsPerSecond)
    let counts = 0...StateLimits.count
    return wall.contains(endedWallSeconds) && (startedWallSeconds.map(wall.contains) ?? true)
      && seconds.contains(activeSeconds)
      && (timeUnderTensionSeconds.map(seconds.contains) ?? true) && counts.contains(laps)
      && (rounds.map(counts.contains) ?? true)
  }
}

/// The files in the state directory.
struct StateStore {
  let directory: String
  var statePath: String { directory + "/state.json" }
  var historyPath: String { directory + "/history.jsonl" }

  /// The store in `directory`, made ready; nil (and a warning) when the directory cannot be
  /// used: the clock still runs, but a crash then loses the running workout.
  static func usable(directory: String, logger: Logger) -> StateStore? {
    let store = StateStore(directory: directory)
    do {
      try store.prepare()
      return store
    } catch {
      logger.warning(
        "cannot use the state directory; a crash will lose the running workout",
        [("path", directory), ("error", "\(error)")])
      return nil
    }
  }

  func prepare() throws(SystemError) {
    try FileSystem.makeDirectories(directory, mode: 0o750)
  }

  /// Temporary file, fsync, rename, fsync of the directory: after a power cut the file is
  /// either the old state or the new one, never half of each.
  func save(_ state: SavedState) throws {
    let text = try JSONValueEncoder().encodeToString(state)
    try FileSystem.writeFileAtomically(statePath, text: text + "\n", mode: 0o640)
  }

  /// A saved state is far smaller (a full lap tally adds about 12 KB); the bound keeps a huge
  /// file from filling the memory at start.
  static let maximumStateSize = 16 << 20

  enum LoadResult {
    case none
    case loaded(SavedState)
    /// The file could not be read back; it was moved to `movedTo`.
    case corrupt(reason: String, movedTo: String)
  }

  /// Reads the saved state back. The file is the daemon's own: a symbolic link or anything but
  /// a regular file in its place is not followed but moved aside, like a file that does not
  /// decode or holds numbers out of range.
  func load() -> LoadResult {
    do {
      let text = try FileSystem.readTextFile(
        statePath, maximumCount: Self.maximumStateSize, ownFile: true)
      return .loaded(try Self.decode(text))
    } catch let error as SystemError where error.errno == .noSuchFile {
      return .none
    } catch {
      return .corrupt(reason: "\(error)", movedTo: setAside())
    }
  }

  /// Reads a saved state from the text of its file and checks it (see `SavedState.problem`).
  static func decode(_ text: String) throws -> SavedState {
    let state = try JSONValueDecoder().decode(SavedState.self, from: text)
    if let problem = state.problem { throw EngineStateError(problem) }
    return state
  }

  /// Moves the state file out of the way (see `FileSystem.moveAside`); returns where it went.
  func setAside() -> String {
    (try? FileSystem.moveAside(statePath)) ?? statePath
  }

  func clear() {
    _ = discard()
  }

  /// Removes the state file, so that none is restored; false when one may still be there.
  func discard() -> Bool {
    (try? FileSystem.removeFileDurably(statePath)) != nil
  }

  func appendHistory(_ entry: HistoryEntry) throws {
    let line = try JSONValueEncoder().encodeToString(entry)
    try FileSystem.appendLine(line, to: historyPath, mode: 0o640, ownFile: true)
  }

  /// The last `limit` entries, oldest first. Unreadable lines are skipped (a torn last line
  /// after a power cut must not hide the rest), and so are lines with implausible numbers.
  func history(limit: Int) -> [HistoryEntry] {
    guard let text = try? FileSystem.readTextFile(historyPath, ownFile: true) else { return [] }
    let decoder = JSONValueDecoder()
    let entries = text.split(separator: "\n").compactMap { line -> HistoryEntry? in
      guard let entry = try? decoder.decode(HistoryEntry.self, from: String(line)),
        entry.isPlausible
      else { return nil }
      return entry
    }
    return Array(entries.suffix(limit))
  }
}
