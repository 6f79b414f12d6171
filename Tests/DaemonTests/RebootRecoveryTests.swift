// SPDX-License-Identifier: MIT
// After a reboot the monotonic clock starts again: the wall clock tells how long the power was
// off. A short gap resumes, a long one restores the workout paused where it was.

import Configuration
import HardwareKit
import JSONKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

@Suite(.serialized) struct RebootRecoveryTests {
  /// Runs a workout, kills the daemon, then rewrites the saved state as if the machine had
  /// rebooted `gap` seconds later (another boot id, a monotonic clock from another boot).
  private func rebootedDaemon(gapSeconds: Int64) throws -> (DaemonHarness, elapsedBefore: Double) {
    let daemon = try DaemonHarness(config: testConfig + "\ndaemon:\n  resume_within: 1m\n")
    let before = try crash(daemon, running: "amrap", forMilliseconds: 500) { state in
      state["boot_id"] = .string("00000000-0000-0000-0000-000000000000")
      state["saved_monotonic_ns"] = .integer(1)
      let savedWall = state["saved_wall_s"]?.intValue ?? 0
      state["saved_wall_s"] = .integer(savedWall - gapSeconds)
    }
    try daemon.start()
    return (daemon, before["elapsed_s"]?.doubleValue ?? 0)
  }

  @Test func aShortPowerCutResumesByTheWallClock() throws {
    let (daemon, before) = try rebootedDaemon(gapSeconds: 20)
    let status = try daemon.status()
    #expect(status["state"]?.stringValue == "running")
    #expect(status["preset"]?.stringValue == "amrap")
    // The workout ran on through the 20 s the power was off (plus the real restart time).
    let elapsed = status["elapsed_s"]?.doubleValue ?? 0
    #expect(elapsed >= before + 20 && elapsed < before + 25)
    #expect(daemon.log.contains("workout state restored how=\"resumed after a reboot\""))
  }

  @Test func aLongPowerCutRestoresTheWorkoutPaused() throws {
    let (daemon, _) = try rebootedDaemon(gapSeconds: 3_600)
    let status = try daemon.status()
    #expect(status["state"]?.stringValue == "paused")
    #expect(status["preset"]?.stringValue == "amrap")
    #expect(daemon.log.contains("workout state restored how=\"restored paused\""))
  }

  @Test func theDecisionFollowsTheClocks() throws {
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "amrap", mode: .amrap(AMRAPParameters(time: .minutes(20)))))
    _ = try engine.apply(.start, at: EngineInstant(nanoseconds: 0))
    func saved(boot: String, monotonic: Int64, wall: Int64) -> SavedState {
      SavedState(
        version: 1, bootID: boot, savedMonotonic: monotonic, savedEngineInstant: monotonic,
        savedWallSeconds: wall, savedWallNanoseconds: 0, preset: "amrap", startedWallSeconds: nil,
        engine: engine)
    }
    let limit = TimeSpan.minutes(10)
    let wallNow = WallClock.Instant(seconds: 10_000)
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: 5_000, wall: 9_990), bootID: "a", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .resumeByMonotonic(gap: 4_000))
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: 5_000, wall: 9_990), bootID: "b", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .resumeByWallClock(gap: 10_000_000_000))
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: 5_000, wall: 8_000), bootID: "b", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .restorePaused)
    // Readings no clock gives: never a trap, never a resume.
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: .min, wall: 9_990), bootID: "a", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .resumeByWallClock(gap: 10_000_000_000))
    for wall in [Int64.max, .min] {
      #expect(
        RestorePlan.decide(
          saved: saved(boot: "a", monotonic: 5_000, wall: wall), bootID: "b",
          monotonicNow: 9_000, wallNow: wallNow, resumeWithin: limit) == .restorePaused)
    }
    // A wall clock that went backwards (no RTC, no NTP yet) cannot be trusted for the gap.
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: 5_000, wall: 20_000), bootID: "b", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .restorePaused)
  }

  /// Values a damaged or crafted state file can hold where a number belongs.
  private static let extremes: [Int64] = [
    .max, .min, .max - 1, .min + 1, 1 << 62, -(1 << 62), StateLimits.time + 1, -1, 0, 1,
  ]

  @Test func extremeValuesInAnySavedFieldNeverTrapARestore() throws {
    let loaded = ConfigurationLoader.load(
      text: testConfig, file: "test.yaml", plugins: PluginCatalog.schemas)
    let configuration = try #require(loaded.configuration)
    let logger = Logger(minimumLevel: .error)
    logger.sink = { _, _ in }
    let timeBase = TimeBase(origin: MonotonicClock.now(), speed: 1)
    func host(_ store: StateStore?) throws -> EngineHost {
      try EngineHost(
        configuration: configuration, preset: try #require(configuration.presets.first),
        store: store, logger: logger, timeBase: timeBase)
    }
    func now() -> EngineInstant { timeBase.engineInstant(atMonotonic: MonotonicClock.now()) }

    // What the daemon saves: running with laps, paused, finished.
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "wodclock-test-")
    defer { _ = try? run("/bin/rm", ["-rf", directory]) }
    let store = StateStore(directory: directory)
    let saving = try host(store)
    var files: [JSONObject] = []
    func keep() throws {
      let text = try FileSystem.readTextFile(store.statePath)
      files.append(try #require(JSONValue.parse(text).objectValue))
    }
    try saving.load(presetNamed: "amrap", at: now())
    _ = try saving.perform(.start, at: now())
    _ = try saving.perform(.lap, at: now())
    try keep()
    _ = try saving.perform(.pause, at: now())
    try keep()
    _ = try saving.perform(.finish, at: now())
    try keep()

    let topFields = [
      "version", "saved_monotonic_ns", "saved_engine_ns", "saved_wall_s", "saved_wall_ns",
      "started_wall_s",
    ]
    let stateFields = [
      "origin", "frozenTime", "segmentIndex", "segmentStart", "cueCursor", "lastInstant",
      "workoutStart", "tensionTotal", "pass", "droppedCues",
    ]
    var restored = 0
    for file in files {
      let edits: [(String, (inout JSONObject) -> Void)] =
        topFields.flatMap { field in
          Self.extremes.map { value in ("\(field)=\(value)", { $0[field] = .integer(value) }) }
        }
        + stateFields.flatMap { field in
          Self.extremes.map { value in
            ("state.\(field)=\(value)", { editEngineState(&$0) { $0[field] = .integer(value) } })
          }
        }
      for (name, edit) in edits {
        var edited = file
        edit(&edited)
        guard let saved = try? StateStore.decode(JSONValue.object(edited).serialized()) else {
          continue
        }
        // Only a value the daemon could have written gets past the checks.
        let value = Int64(name.split(separator: "=").last ?? "") ?? 0
        #expect(abs(Double(value)) <= Double(StateLimits.time), "\(name) was taken")
        for bootID in [saved.bootID, "another boot"] {
          let restoring = try host(nil)
          let monotonic = MonotonicClock.now()
          guard
            restoring.restore(
              saved, bootID: bootID, monotonicNow: monotonic, wallNow: WallClock.now()) != nil
          else { continue }
          restored += 1
          // Everything the loop does with a restored engine.
          _ = restoring.advance(to: now())
          _ = restoring.snapshot(at: now())
          if let deadline = restoring.nextDeadline {
            _ = timeBase.monotonic(forEngine: deadline)
          }
          for action in WorkoutAction.allCases {
            _ = try? restoring.perform(action, at: now())
            _ = restoring.nextDeadline.map { timeBase.monotonic(forEngine: $0) }
          }
        }
      }
    }
    #expect(restored > 0)
  }
}
