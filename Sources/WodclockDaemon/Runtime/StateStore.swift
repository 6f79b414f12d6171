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
    if saved.bootID == bootID && monotonicNow >= saved.savedMonotonic {
      return .resumeByMonotonic(gap: monotonicNow - saved.savedMonotonic)
    }
    let savedWall =
      saved.savedWallSeconds * 1_000_000_000 + Int64(saved.savedWallNanoseconds)
    let now = wallNow.seconds * 1_000_000_000 + Int64(wallNow.nanoseconds)
    let gap = now - savedWall
    if gap >= 0 && gap <= resumeWithin.nanoseconds {
      return .resumeByWallClock(gap: gap)
    }
    return .restorePaused
  }
}

/// One finished or abandoned workout, a line of `history.jsonl`.
struct HistoryEntry: Codable, Equatable {
  var preset: String
  var mode: String
  var startedWallSeconds: Int64?
  var endedWallSeconds: Int64
  var activeSeconds: Double
  var outcome: String
  var rounds: Int?
  var laps: Int
  var timeUnderTensionSeconds: Double?

  enum CodingKeys: String, CodingKey {
    case preset, mode, outcome, rounds, laps
    case startedWallSeconds = "started_at"
    case endedWallSeconds = "ended_at"
    case activeSeconds = "active_s"
    case timeUnderTensionSeconds = "time_under_tension_s"
  }
}

/// The files in the state directory.
struct StateStore {
  let directory: String
  var statePath: String { directory + "/state.json" }
  var historyPath: String { directory + "/history.jsonl" }

  func prepare() throws(SystemError) {
    try FileSystem.makeDirectories(directory, mode: 0o750)
  }

  /// Temporary file, fsync, rename, fsync of the directory: after a power cut the file is
  /// either the old state or the new one, never half of each.
  func save(_ state: SavedState) throws {
    let text = try JSONValueEncoder().encodeToString(state)
    try FileSystem.writeFileAtomically(statePath, text: text + "\n", mode: 0o640)
  }

  enum LoadResult {
    case none
    case loaded(SavedState)
    /// The file could not be read back; it was moved to `movedTo`.
    case corrupt(reason: String, movedTo: String)
  }

  func load() -> LoadResult {
    guard FileSystem.fileExists(statePath) else { return .none }
    do {
      let text = try FileSystem.readTextFile(statePath)
      let state = try JSONValueDecoder().decode(SavedState.self, from: text)
      guard state.version == SavedState.currentVersion else {
        throw PluginError("unsupported state version \(state.version)")
      }
      return .loaded(state)
    } catch {
      let moved = (try? FileSystem.moveAside(statePath)) ?? statePath
      return .corrupt(reason: "\(error)", movedTo: moved)
    }
  }

  func clear() {
    _ = try? FileSystem.removeFile(statePath)
  }

  func appendHistory(_ entry: HistoryEntry) throws {
    let line = try JSONValueEncoder().encodeToString(entry)
    try FileSystem.appendLine(line, to: historyPath, mode: 0o640)
  }

  /// The last `limit` entries, oldest first. Unreadable lines are skipped (a torn last line
  /// after a power cut must not hide the rest).
  func history(limit: Int) -> [HistoryEntry] {
    guard let text = try? FileSystem.readTextFile(historyPath) else { return [] }
    let decoder = JSONValueDecoder()
    let entries = text.split(separator: "\n").compactMap {
      try? decoder.decode(HistoryEntry.self, from: String($0))
    }
    return Array(entries.suffix(limit))
  }
}
