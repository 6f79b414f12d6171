// SPDX-License-Identifier: MIT
// Workouts as a coach writes them, through the real daemon and wodclockctl: `run`, the socket's
// `load` with `workout`, `again` and `recent`, and a written workout brought back after kill -9.

import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct WrittenWorkoutTests {
  @Test func runLoadsAWorkoutAsWrittenAndTheStatusCarriesTheText() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    let run = try daemon.ctl(["run", "AMRAP", "14:00"])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasPrefix("idle  amrap 14  14:00"), "\(run.output)")
    let status = try daemon.status()
    #expect(status["preset"]?.stringValue == "amrap 14")
    #expect(status["workout"]?.stringValue == "amrap 14")
    #expect(status["mode"]?.stringValue == "amrap")
    #expect(status["remaining_s"]?.doubleValue == 840)
    // A preset keeps no text of its own.
    #expect(try daemon.ctl(["load", "emom"]).status == 0)
    #expect(try daemon.status()["workout"]?.isNull == true)

    // The socket takes the same words; a preset's name is the gym's preset.
    let loaded = try daemon.request(["cmd": "load", "workout": "e2mom 16", "start": true])
    #expect(loaded["ok"]?.boolValue == true, "\(loaded)")
    #expect(loaded["status"]?["state"]?.stringValue == "running")
    #expect(loaded["status"]?["rounds"]?.intValue == 8)
    let busy = try daemon.request(["cmd": "load", "workout": "amrap"])
    #expect(busy["error"]?["code"]?.stringValue == "busy")
    let preset = try daemon.request(["cmd": "load", "workout": "amrap", "replace": true])
    #expect(preset["status"]?["remaining_s"]?.doubleValue == 1200, "the preset's 20 minutes")
  }

  @Test func aTextThatIsNoWorkoutIsAnErrorWithItsCaret() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    let refused = try daemon.ctl(["run", "amarp", "12"])
    #expect(refused.status == 1)
    #expect(
      refused.error
        == """
        wodclockctl: workout:1:1: error: unknown word 'amarp': expected a workout
        amarp 12
        ^~~~~
        hint: did you mean 'amrap'?


        """)
    let reply = try daemon.request(["cmd": "load", "workout": "amrap 14 7"])
    #expect(reply["error"]?["code"]?.stringValue == "bad_workout")
    let both = try daemon.request(["cmd": "load", "workout": "amrap 14", "preset": "emom"])
    #expect(both["error"]?["code"]?.stringValue == "bad_request")
    #expect(try daemon.ctl(["run"]).status == 64)
    #expect(try daemon.status()["preset"]?.stringValue == "emom", "nothing was loaded")
  }

  @Test func againRunsTheLastWorkoutAndRecentListsTheLastDistinctOnes() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start(arguments: ["--speed", "100"])
    let none = try daemon.ctl(["again"])
    #expect(none.status == 1)
    #expect(none.error.contains("no workout has been run yet"))
    #expect(try daemon.ctl(["recent"]).output == "no workouts recorded yet\n")

    for text in ["amrap 1", "emom 2 x 0:30", "amrap 1"] {
      #expect(try daemon.ctl(["run", text, "--start", "--replace"]).status == 0)
      #expect(try eventually { try daemon.status()["state"]?.stringValue == "finished" })
    }
    // The last one is long enough (12 s at this speed) to be seen running, and ended by hand.
    #expect(try daemon.ctl(["run", "amrap 20", "--start", "--replace"]).status == 0)
    #expect(try daemon.ctl(["finish"]).status == 0)
    #expect(try daemon.ctl(["load", "amrap"]).status == 0)
    let again = try daemon.ctl(["again", "--start"])
    #expect(again.status == 0, "\(again.error)")
    let status = try daemon.status()
    #expect(status["workout"]?.stringValue == "amrap 20")
    #expect(status["state"]?.stringValue == "running")
    #expect(try daemon.ctl(["again"]).status == 1, "busy over the running workout")

    let recent = try JSONValue.parse(try daemon.ctl(["recent", "--json"]).output)
    let written = (recent["recent"]?.arrayValue ?? []).map { $0["workout"]?.stringValue }
    #expect(written == ["amrap 20", "amrap 1", "every 0:30 x 2"], "newest first, each once")
    let history = try daemon.request(["cmd": "history"])
    let texts = (history["history"]?.arrayValue ?? []).map { $0["workout"]?.stringValue }
    #expect(texts == ["amrap 1", "every 0:30 x 2", "amrap 1", "amrap 20"])
  }

  @Test func aWrittenWorkoutIsBroughtBackAfterKillNine() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    #expect(try daemon.ctl(["run", "tabata", "x", "2", "--start"]).status == 0)
    try daemon.signal(.kill)
    _ = try daemon.waitForExit()
    try daemon.start()
    let status = try daemon.status()
    #expect(status["workout"]?.stringValue == "tabata x 2", "\(status)")
    #expect(status["state"]?.stringValue == "running")
    #expect(daemon.log.contains("resumed"), "\(daemon.log)")
  }
}
