// SPDX-License-Identifier: MIT
// A running workout is never replaced by one keystroke: a load at the wall over a count-in, a
// running or a paused workout needs a second press within 5 s, and the socket answers `busy`
// unless the request says `"replace": true`. On manual time, exactly.

import Configuration
import ControlProtocol
import JSONKit
import Testing

@testable import WodclockDaemon

private let config = """
  defaults:
    preset: tabata
  presets:
    tabata:
      mode: tabata
    amrap:
      mode: amrap
      time: 14m
  controls:
    start:
      press: toggle
    fran:
      press: load amrap
  outputs:
    - {type: test-output, id: probe}
  """

@Suite struct ReplaceConfirmationTests {
  private func runningTabata() throws -> (InProcessDaemon, OutputRecord) {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 15)
    return (clock, record)
  }

  @Test func aSocketLoadOverARunningWorkoutIsBusyUnlessItSaysReplace() throws {
    let (clock, _) = try runningTabata()
    let refused = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    #expect(refused["ok"] == false)
    #expect(refused["error"]?["code"]?.stringValue == "busy")
    let message = refused["error"]?["message"]?.stringValue ?? ""
    #expect(message.contains("'tabata' is running"))
    #expect(message.contains("\"replace\": true"))
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
    #expect(try clock.status()["state"]?.stringValue == "running")

    let replaced = try clock.request(#"{"cmd": "load", "preset": "amrap", "replace": true}"#)
    #expect(replaced["ok"] == true)
    #expect(try clock.status()["preset"]?.stringValue == "amrap")
    #expect(try clock.status()["state"]?.stringValue == "idle")
  }

  @Test func aPausedWorkoutAndACountInAreBusyToo() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 2)
    #expect(try clock.status()["state"]?.stringValue == "countin")
    let inCountIn = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    #expect(inCountIn["error"]?["code"]?.stringValue == "busy")
    clock.run(for: 10)
    _ = try clock.request(#"{"cmd": "pause"}"#)
    let paused = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    #expect(paused["error"]?["code"]?.stringValue == "busy")
    #expect(paused["error"]?["message"]?.stringValue?.contains("'tabata' is paused") == true)
  }

  @Test func idleAndFinishedWorkoutsLoadAtOnce() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    #expect(try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)["ok"] == true)
    _ = try clock.request(#"{"cmd": "start"}"#)
    _ = try clock.request(#"{"cmd": "finish"}"#)
    #expect(try clock.status()["state"]?.stringValue == "finished")
    #expect(try clock.request(#"{"cmd": "load", "preset": "tabata"}"#)["ok"] == true)
    clock.input(.loadPresetNumber(2))
    #expect(try clock.status()["preset"]?.stringValue == "amrap")
  }

  @Test func aBadReplaceIsABadRequest() throws {
    let (clock, _) = try runningTabata()
    #expect(throws: HarnessError.self) {
      try clock.request(#"{"cmd": "load", "preset": "amrap", "replace": "yes"}"#)
    }
    guard
      case .failure(let rejection) = CommandProtocol.parse(
        Array(#"{"cmd": "load", "preset": "amrap", "replace": "yes"}"#.utf8))
    else {
      Issue.record("a string replace was taken")
      return
    }
    #expect(rejection.failure.code == "bad_request")
  }

  @Test func aDigitKeyOverARunningWorkoutNeedsASecondPressWithinFiveSeconds() throws {
    let (clock, record) = try runningTabata()
    clock.input(.loadPresetNumber(2))
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
    #expect(try clock.status()["state"]?.stringValue == "running")
    #expect(record.frames.last?.message == "press again to replace")

    // The words go with the wait: 5 s later the first press is forgotten.
    clock.run(for: 5)
    #expect(record.frames.last?.message == nil)
    clock.input(.loadPresetNumber(2))
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
    clock.run(for: 4.9)
    clock.input(.loadPresetNumber(2))
    #expect(try clock.status()["preset"]?.stringValue == "amrap")
    #expect(try clock.status()["state"]?.stringValue == "idle")
    #expect(record.frames.last?.message == nil)
    #expect(
      clock.logLines(containing: "workout recorded preset=tabata outcome=abandoned").count == 1)
  }

  @Test func anotherKeyDoesNotConfirmTheFirst() throws {
    let (clock, _) = try runningTabata()
    clock.input(.loadPresetNumber(2))
    clock.input(.control("fran", .press, pressedAt: nil))
    // The control loads amrap too, and the digit did: the same load twice confirms.
    #expect(try clock.status()["preset"]?.stringValue == "amrap")

    _ = try clock.request(#"{"cmd": "load", "preset": "tabata"}"#)
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 15)
    clock.input(.loadPresetNumber(2))
    clock.input(.loadPresetNumber(1))
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
    #expect(try clock.status()["state"]?.stringValue == "running")
  }
}
