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
    // passed between the two readings, which lies between the shortest and the longest span
    // the two exchanges allow, however long they took (the reply's decimal rounding is the
    // only slack).
    let grew = elapsedAfter - elapsedBefore
    #expect(grew >= Double(after1 - before2) / 1e9 - 1e-6, "\(grew) s")
    #expect(grew <= Double(after2 - before1) / 1e9 + 1e-6, "\(grew) s")
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

  /// Numbers a state file can hold that are valid JSON but no clock or engine ever wrote.
  enum StateTrick: String, CaseIterable, CustomStringConvertible {
    case monotonicReadingAtItsMinimum, wallClockAtItsMaximum, engineInstantAtItsMaximum
    case wallNanosecondsPastASecond, originAtItsMinimum, segmentStartAtItsMaximum
    case passAtItsMaximum, lapsOutOfOrder

    var description: String { rawValue }

    func apply(to file: inout JSONObject) {
      switch self {
      case .monotonicReadingAtItsMinimum: file["saved_monotonic_ns"] = .integer(.min)
      case .wallClockAtItsMaximum:
        // Another boot, so the wall clock is what tells the gap.
        file["boot_id"] = "00000000-0000-0000-0000-000000000000"
        file["saved_wall_s"] = .integer(.max)
      case .engineInstantAtItsMaximum: file["saved_engine_ns"] = .integer(.max)
      case .wallNanosecondsPastASecond: file["saved_wall_ns"] = .integer(Int64(Int32.max))
      case .originAtItsMinimum: editEngineState(&file) { $0["origin"] = .integer(.min) }
      case .segmentStartAtItsMaximum:
        editEngineState(&file) { $0["segmentStart"] = .integer(.max) }
      case .passAtItsMaximum: editEngineState(&file) { $0["pass"] = .integer(.max) }
      case .lapsOutOfOrder:
        editEngineState(&file) { $0["laps"] = [2_000_000_000, 1_000_000_000] }
      }
    }
  }

  @Test(arguments: StateTrick.allCases)
  func aStateFileWithImpossibleNumbersIsMovedAsideAndTheDaemonStartsIdle(_ trick: StateTrick)
    throws
  {
    let daemon = try DaemonHarness(config: testConfig)
    try crash(daemon, running: "emom") { trick.apply(to: &$0) }
    try daemon.start()
    #expect(try daemon.status()["state"]?.stringValue == "idle")
    #expect(daemon.log.contains("moved aside, starting idle"))
    let names = try FileSystem.directoryEntries(daemon.stateDirectory)
    #expect(names.contains { $0.hasPrefix("state.json.corrupt-") })
    // And it runs a workout as usual.
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)
    #expect(try daemon.request(["cmd": "reset"])["ok"]?.boolValue == true)
    #expect(try daemon.status()["state"]?.stringValue == "idle")
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

/// Starts `daemon`, runs `preset` for `milliseconds`, kills it with SIGKILL (the state file is
/// what it last saved) and hands that file to `edit`, as a reboot, a damaged disk or a crafted
/// file would change it. The caller starts the daemon again.
/// - Returns: the status just before the kill.
@discardableResult
func crash(
  _ daemon: DaemonHarness, running preset: String, forMilliseconds milliseconds: Int = 300,
  thenEditState edit: (inout JSONObject) throws -> Void
) throws -> JSONValue {
  try daemon.start()
  _ = try daemon.request(["cmd": "load", "preset": .string(preset)])
  _ = try daemon.request(["cmd": "start"])
  pause(milliseconds: milliseconds)
  let status = try daemon.status()
  try daemon.signal(.kill)
  try daemon.waitForExit()
  let path = daemon.stateDirectory + "/state.json"
  var file = try JSONValue.parse(FileSystem.readTextFile(path)).objectValue ?? JSONObject()
  try edit(&file)
  try FileSystem.writeFileAtomically(path, text: JSONValue.object(file).serialized())
  return status
}

/// Changes the engine's state inside a saved state file.
func editEngineState(_ file: inout JSONObject, _ edit: (inout JSONObject) -> Void) {
  var engine = file["engine"]?.objectValue ?? JSONObject()
  var state = engine["state"]?.objectValue ?? JSONObject()
  edit(&state)
  engine["state"] = .object(state)
  file["engine"] = .object(engine)
}
