// SPDX-License-Identifier: MIT
// The real daemon driven through wodclockctl and the socket; what the log and status say.

import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct DaemonControlTests {
  @Test func statusActionsAndTheLogOutput() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start(arguments: ["--speed", "10"])

    let idle = try daemon.ctl(["status", "--json"])
    #expect(idle.status == 0)
    let status = try JSONValue.parse(idle.output)["status"]
    #expect(status?["state"]?.stringValue == "idle")
    #expect(status?["preset"]?.stringValue == "emom")
    #expect(status?["mode"]?.stringValue == "emom")
    #expect(status?["elapsed_s"]?.doubleValue == 0)
    #expect(status?["remaining_s"]?.doubleValue == 60)
    #expect(status?["round"]?.intValue == 1)
    #expect(status?["rounds"]?.intValue == 6)

    #expect(try daemon.ctl(["start"]).status == 0)
    #expect(try eventually { try daemon.status()["round"]?.intValue == 2 })
    let running = try daemon.status()
    #expect(running["state"]?.stringValue == "running")
    #expect((running["elapsed_s"]?.doubleValue ?? 0) >= 10)

    let paused = try daemon.ctl(["pause"])
    #expect(paused.status == 0)
    #expect(paused.output.hasPrefix("paused  emom"))
    let frozen = try daemon.status()["elapsed_s"]?.doubleValue
    pause(milliseconds: 300)
    #expect(try daemon.status()["elapsed_s"]?.doubleValue == frozen)

    // A refused action: exit status 1 and the reason on stderr.
    let refused = try daemon.ctl(["pause"])
    #expect(refused.status == 1)
    #expect(refused.error.contains("cannot pause: the workout is paused"))

    #expect(try daemon.ctl(["resume"]).status == 0)
    #expect(try daemon.ctl(["finish"]).status == 0)
    #expect(try daemon.status()["state"]?.stringValue == "finished")

    let load = try daemon.ctl(["load", "amrap"])
    #expect(load.status == 0)
    #expect(try daemon.status()["remaining_s"]?.doubleValue == 1200)
    let unknown = try daemon.ctl(["load", "amrapp"])
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("no preset named 'amrapp'"))
    #expect(unknown.error.contains("wodclockctl run"), "the way to a workout as written")

    let presets = try daemon.ctl(["presets"])
    #expect(presets.output.contains("* amrap"))
    #expect(presets.output.contains("  emom"))

    let history = try daemon.ctl(["history", "--json"])
    let entries = try JSONValue.parse(history.output)["history"]?.arrayValue ?? []
    #expect(entries.count == 1)
    #expect(entries.first?["preset"]?.stringValue == "emom")
    #expect(entries.first?["outcome"]?.stringValue == "stopped")

    try daemon.signal(.terminate)
    #expect(try daemon.waitForExit() == .exited(0))
    let log = daemon.log
    #expect(log.contains("state state=running preset=emom mode=emom segment=work round=1/6"))
    #expect(log.contains("cue cue=round_start round=2/6"))
    #expect(log.contains("action action=pause preset=emom"))
    #expect(log.contains("workout recorded preset=emom outcome=stopped"))
    #expect(log.contains("stopping signal=SIGTERM"))
  }

  @Test func aLoadOverARunningWorkoutIsBusyUntilItSaysReplace() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    #expect(try daemon.ctl(["start"]).status == 0)

    let busy = try daemon.request(["cmd": "load", "preset": "amrap"])
    #expect(busy["error"]?["code"]?.stringValue == "busy")
    let refused = try daemon.ctl(["load", "amrap"])
    #expect(refused.status == 1)
    #expect(refused.error.contains("'emom' is running"))
    #expect(refused.error.contains("--replace"))
    #expect(try daemon.status()["preset"]?.stringValue == "emom")

    let replaced = try daemon.ctl(["load", "amrap", "--replace"])
    #expect(replaced.status == 0)
    #expect(try daemon.status()["preset"]?.stringValue == "amrap")
    #expect(try daemon.status()["state"]?.stringValue == "idle")
    #expect(try daemon.ctl(["load", "--help"]).output.contains("--replace"))
  }

  @Test func clientErrorsHaveUsefulExitCodes() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let missing = try daemon.ctl(["status"])
    #expect(missing.status == 69)
    #expect(missing.error.contains("not running"))
    let usage = try daemon.ctl(["stauts"])
    #expect(usage.status == 64)
    #expect(usage.error.contains("did you mean 'status'?"))
    let help = try daemon.ctl(["load", "--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("usage: wodclockctl load PRESET"))
  }

  @Test func muteTogglesAndSetsTheSounders() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    // A freshly started clock is never silent.
    #expect(try daemon.status()["muted"] == false)

    let toggled = try daemon.ctl(["mute"])
    #expect(toggled.status == 0)
    #expect(toggled.output.hasPrefix("sound off\n"))
    #expect(toggled.output.contains("  muted"))
    #expect(try daemon.status()["muted"] == true)

    // `on` sets rather than toggles, so saying it twice keeps the clock silent.
    #expect(try daemon.ctl(["mute", "on"]).status == 0)
    #expect(try daemon.status()["muted"] == true)
    let off = try daemon.ctl(["mute", "off", "--json"])
    #expect(off.status == 0)
    #expect(try JSONValue.parse(off.output)["status"]?["muted"] == false)
    #expect(try daemon.ctl(["mute"]).output.hasPrefix("sound off"))
    #expect(try daemon.ctl(["mute"]).output.hasPrefix("sound on"))
    #expect(try daemon.status()["muted"] == false)

    // The protocol directly: "on" must be a boolean.
    let reply = try daemon.request(["cmd": "mute", "on": true])
    #expect(reply["status"]?["muted"] == true)
    let bad = try daemon.request(["cmd": "mute", "on": "yes"])
    #expect(bad["ok"] == false)
    #expect(bad["error"]?["code"]?.stringValue == "bad_request")
    #expect(try daemon.ctl(["mute", "loud"]).status == 64)

    try daemon.signal(.terminate)
    #expect(try daemon.waitForExit() == .exited(0))
    #expect(daemon.log.contains("action action=mute muted=yes"))
    #expect(daemon.log.contains("action action=mute muted=no"))
  }

  @Test func watchFollowsTheClock() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start(arguments: ["--speed", "20"])
    var client = try UnixClient.connect(path: daemon.socketPath, timeoutMilliseconds: 2_000)
    defer { try? client.close() }
    try client.send("{\"cmd\":\"subscribe\"}\n", timeoutMilliseconds: 1_000)
    #expect(try JSONValue.parse(client.readLine(timeoutMilliseconds: 2_000) ?? "")["ok"] == true)
    let started = MonotonicClock.now()
    _ = try daemon.request(["cmd": "start"])
    var cues: [String] = []
    var dues: [Double] = []
    var states: [String] = []
    while cues.count < 6 {
      guard let line = try client.readLine(timeoutMilliseconds: 5_000) else { break }
      let event = try JSONValue.parse(line)
      if let name = event["cue"]?["name"]?.stringValue {
        cues.append(name)
        // When it was due, on the same monotonic clock: after the start was asked for, not
        // after it arrived, and never before the cue ahead of it (at --speed 20, real time).
        let due = try #require(event["due_ms"]?.doubleValue)
        #expect(due >= Double(started / 1_000) / 1_000)
        #expect(due <= Double(MonotonicClock.now() / 1_000) / 1_000)
        #expect(due >= dues.last ?? 0)
        dues.append(due)
      }
      if let state = event["status"]?["state"]?.stringValue { states.append(state) }
    }
    #expect(Array(cues.prefix(3)) == ["start", "round_start", "segment_start"])
    #expect(cues.contains("countdown"))
    #expect(states.contains("running"))
  }
}
