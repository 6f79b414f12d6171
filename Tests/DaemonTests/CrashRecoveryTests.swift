// SPDX-License-Identifier: MIT
// Nothing lost: kill -9 mid-workout and the clock comes back at the right time.

import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct CrashRecoveryTests {
  @Test func killNineMidEMOMResumesAtTheRightTimeAndRound() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    _ = try daemon.request(["cmd": "start"])
    pause(milliseconds: 1_500)

    // Elapsed before the crash, bracketed by the monotonic clock around the request.
    let before1 = MonotonicClock.now()
    let first = try daemon.status()
    let before2 = MonotonicClock.now()
    try daemon.signal(.kill)
    #expect(try daemon.waitForExit() == .signaled(.kill))

    try daemon.start()
    let after1 = MonotonicClock.now()
    let second = try daemon.status()
    let after2 = MonotonicClock.now()

    #expect(second["state"]?.stringValue == "running")
    #expect(second["round"]?.intValue == first["round"]?.intValue)
    let elapsedBefore = first["elapsed_s"]?.doubleValue ?? -1
    let elapsedAfter = second["elapsed_s"]?.doubleValue ?? -1
    // The clock ran on while the daemon was dead: the elapsed time grew by the real time that
    // passed between the two readings, within 50 ms plus how long the readings took.
    let realGap = Double((after1 + after2) / 2 - (before1 + before2) / 2) / 1e9
    let slack = 0.050 + Double((before2 - before1) + (after2 - after1)) / 2e9
    #expect(abs((elapsedAfter - elapsedBefore) - realGap) <= slack)
    #expect(daemon.log.contains("workout state restored how=resumed preset=emom state=running"))
  }

  @Test func aCorruptStateFileIsMovedAsideAndTheDaemonStartsIdle() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try FileSystem.makeDirectories(daemon.stateDirectory)
    try FileSystem.writeFileAtomically(
      daemon.stateDirectory + "/state.json", text: "{\"version\": 1, tor")
    try daemon.start()
    #expect(try daemon.status()["state"]?.stringValue == "idle")
    #expect(
      daemon.log.contains("the saved workout state was unreadable; moved aside, starting idle"))
    let names = try FileSystem.directoryEntries(daemon.stateDirectory)
    #expect(names.contains { $0.hasPrefix("state.json.corrupt-") })
  }

  @Test func pausedWorkoutsComeBackPausedAndTheLoadedPresetIsKept() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start(arguments: ["--speed", "10"])
    _ = try daemon.request(["cmd": "load", "preset": "amrap"])
    _ = try daemon.request(["cmd": "start"])
    pause(milliseconds: 300)
    _ = try daemon.request(["cmd": "pause"])
    let elapsed = try daemon.status()["elapsed_s"]?.doubleValue
    try daemon.signal(.terminate)
    try daemon.waitForExit()
    try daemon.start(arguments: ["--speed", "10"])
    let status = try daemon.status()
    #expect(status["preset"]?.stringValue == "amrap")
    #expect(status["state"]?.stringValue == "paused")
    #expect(status["elapsed_s"]?.doubleValue == elapsed)
  }
}
