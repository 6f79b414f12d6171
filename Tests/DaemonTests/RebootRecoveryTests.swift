// SPDX-License-Identifier: MIT
// After a reboot the monotonic clock starts again: the wall clock tells how long the power was
// off. A short gap resumes, a long one restores the workout paused where it was.

import HardwareKit
import JSONKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

@Suite(.serialized) struct RebootRecoveryTests {
  /// Runs a workout, stops the daemon, then rewrites the saved state as if the machine had
  /// rebooted `gap` seconds later (another boot id, a monotonic clock from another boot).
  private func rebootedDaemon(gapSeconds: Int64) throws -> (DaemonHarness, elapsedBefore: Double) {
    let daemon = try DaemonHarness(config: testConfig + "\ndaemon:\n  resume_within: 1m\n")
    try daemon.start()
    _ = try daemon.request(["cmd": "load", "preset": "amrap"])
    _ = try daemon.request(["cmd": "start"])
    pause(milliseconds: 500)
    let elapsed = try daemon.status()["elapsed_s"]?.doubleValue ?? 0
    try daemon.signal(.kill)
    try daemon.waitForExit()

    let path = daemon.stateDirectory + "/state.json"
    var state = try JSONValue.parse(FileSystem.readTextFile(path)).objectValue ?? JSONObject()
    state["boot_id"] = .string("00000000-0000-0000-0000-000000000000")
    state["saved_monotonic_ns"] = .integer(1)
    let savedWall = state["saved_wall_s"]?.intValue ?? 0
    state["saved_wall_s"] = .integer(savedWall - gapSeconds)
    try FileSystem.writeFileAtomically(path, text: JSONValue.object(state).serialized())
    try daemon.start()
    return (daemon, elapsed)
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
    _ = try engine.apply(.start, at: MonotonicInstant(nanoseconds: 0))
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
    // A wall clock that went backwards (no RTC, no NTP yet) cannot be trusted for the gap.
    #expect(
      RestorePlan.decide(
        saved: saved(boot: "a", monotonic: 5_000, wall: 20_000), bootID: "b", monotonicNow: 9_000,
        wallNow: wallNow, resumeWithin: limit) == .restorePaused)
  }
}
