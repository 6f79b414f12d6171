// SPDX-License-Identifier: MIT
// The daemon's shell on manual time: supervision and backoff, cue replay after a failed output,
// reload with a running workout, the watchdog's pings, and the stale-cue rule after a stall.
// Every figure is exact: the clock moves only when the test moves it.

import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

/// A Tabata with a 10 s count-in and a recording output: work 10–30 s, rest 30–40 s, ...
private func tabataConfig(_ extra: String = "") -> String {
  """
  defaults:
    preset: tabata
  presets:
    tabata:
      mode: tabata
    amrap:
      mode: amrap
      time: 14m
  outputs:
    - {type: test-output, id: probe}
  \(extra)
  """
}

@Suite struct ShellTests {
  /// A speaker writes its samples ahead of the instant they mark: the frame's look ahead gives
  /// the cues due until a later instant, with the instants the frames then deliver them at.
  @Test func framesForeseeTheCuesThatTheLaterFramesDeliver() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 6.5)
    // At 6.5 s into the 10 s count-in: 3-2-1 at 7, 8, 9 s, then the Tabata starts at 10 s.
    let frame = try #require(record.frames.last)
    let ahead = try #require(frame.preview).cues(until: frame.monotonicNow + 4_000_000_000)
    let seconds = ahead.map { Double($0.due - ManualTime.origin) / 1e9 }
    #expect(ahead.prefix(3).map(\.kind.name) == ["countdown", "countdown", "countdown"])
    #expect(seconds.prefix(3) == [7, 8, 9])
    #expect(ahead.contains { $0.kind == .start } && seconds.allSatisfy { $0 > 6.5 && $0 <= 10.5 })
    // Nothing is taken from the engine itself: the frames deliver every foreseen cue, at its
    // instant.
    let delivered = record.cues.count
    clock.run(for: 4)
    let deliveredLater = record.cues.dropFirst(delivered)
    #expect(deliveredLater.map(\.kind) == ahead.map(\.kind))
    #expect(deliveredLater.map(\.due) == seconds)
    // A pause takes them back: the next frame's look ahead is empty.
    _ = try clock.request(#"{"cmd": "pause"}"#)
    clock.run(for: 0.1)
    let paused = try #require(record.frames.last)
    #expect(try #require(paused.preview).cues(until: paused.monotonicNow + 4_000_000_000).isEmpty)
    // And a look ahead to the frame's own instant or before it has nothing.
    #expect(try #require(frame.preview).cues(until: frame.monotonicNow).isEmpty)
  }

  @Test func aFailingOutputIsRetriedWithGrowingWaitsAndLoggedOnce() throws {
    let record = OutputRecord()
    record.failingStarts = 4
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    clock.run(for: 40)
    // Tried at once, then after 1, 2, 4 and 8 s: the fifth start works.
    #expect(record.startAttempts == [0, 1, 3, 7, 15])
    #expect(clock.logLines(containing: "output cannot start").count == 1)
    #expect(clock.logLines(containing: "output started plugin=probe").count == 1)
    #expect(record.stops == 4)
    // From its start on, it gets a frame at every second of the idle clock.
    #expect(record.frames.first.map { Int($0.monotonicNow - ManualTime.origin) } == 15_000_000_000)
  }

  @Test func theWaitBetweenRetriesStopsGrowingAtThirtySeconds() throws {
    let record = OutputRecord()
    record.failingStarts = 1_000
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    clock.run(for: 200)
    let waits = zip(record.startAttempts.dropFirst(), record.startAttempts).map { $0 - $1 }
    #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30, 30, 30])
    #expect(clock.logLines(containing: "output cannot start").count == 1)
  }

  @Test func anOutputBackWithinTheStaleLimitGetsTheCuesItMissed() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: tabataConfig().replacingFirst(
        "  preset: tabata\n", with: "  preset: tabata\n  stale_cues_after: 3s\n"),
      kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 9.5)
    // The frame of the count-in's end at 10 s (start, round 1, work) fails; the output is back
    // at 11 s.
    record.failNextRender = true
    clock.run(for: 3)
    let replayed = record.cues.filter { $0.renderedAt == 11 }.map(\.kind)
    #expect(
      replayed == [.start, .roundStart(Counter(1, of: 8)), .segmentStart(.work)],
      "the frame after the retry carries the cues of the failed one")
    #expect(record.cues.filter { $0.kind == .start }.count == 1)
    #expect(clock.logLines(containing: "output failed plugin=probe").count == 1)
  }

  @Test func anOutputBackAfterTheStaleLimitDoesNotGetABurstOfOldCues() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 6.5)
    // The count-in's 3-2-1 (7, 8, 9 s) and the start (10 s) happen while the output is down:
    // its first retry (after 1 s) fails too, the second comes 2 s later, at 9.5 s.
    record.failNextRender = true
    record.failingStarts = 1
    clock.run(for: 5)
    let after = record.cues.filter { $0.renderedAt >= 9.5 }.map(\.kind)
    // Due within a second of its return: countdown 1 (9 s) and the start (10 s); not the 3 and 2.
    #expect(!after.contains(.countdown(secondsLeft: 3, ending: .countIn)))
    #expect(!after.contains(.countdown(secondsLeft: 2, ending: .countIn)))
    #expect(after.contains(.countdown(secondsLeft: 1, ending: .countIn)))
    #expect(after.contains(.start))
  }

  @Test func aStallDropsTheCuesItSleptThroughAndAnnouncesThePresentInterval() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 25)
    let before = record.cues.count
    // Stopped from 25 s to 34 s: the work's 3-2-1 (27-29 s) is long over; the rest began at 30 s.
    clock.stall(for: 9)
    clock.run(for: 0)
    let resumed = record.cues[before...]
    #expect(resumed.map(\.kind) == [.segmentStart(.rest)])
    #expect(resumed.first?.due == 34, "a late announcement is stamped when it sounds")
    let stats = try clock.request(#"{"cmd": "stats"}"#)
    #expect(stats["dropped_cues"]?.intValue == 3)
    // And the clock itself was exact: 6 s of rest left.
    #expect(try clock.status()["segment_remaining_s"]?.doubleValue == 6)
  }

  @Test func aReloadKeepsTheRunningWorkoutAndRestartsChangedOutputs() throws {
    let record = OutputRecord()
    let config = tabataConfig()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 70)
    let remaining = try clock.status()["remaining_s"]?.doubleValue
    // The AMRAP becomes 10 minutes and the output gets another id: a running workout keeps its
    // plan; the outputs are made again.
    try clock.writeConfig(
      config.replacingFirst("time: 14m", with: "time: 10m").replacingFirst(
        "id: probe", with: "id: probe2"))
    clock.signal(.hangup)
    #expect(try clock.status()["remaining_s"]?.doubleValue == remaining)
    #expect(try clock.status()["state"]?.stringValue == "running")
    #expect(record.stops == 1)
    #expect(record.startAttempts == [0, 70])
    #expect(clock.logLines(containing: "reloaded presets=2").count == 1)
    // Once the workout is over and reset, the preset's new definition is what loads.
    clock.run(for: 14 * 60)
    _ = try clock.request(#"{"cmd": "reset"}"#)
    let presets = try clock.request(#"{"cmd": "presets"}"#)["presets"]?.arrayValue ?? []
    let amrap = presets.first { $0["name"]?.stringValue == "amrap" }
    #expect(amrap?["length_s"]?.doubleValue == 600)
  }

  @Test func aReloadThatOnlyMovesTheOutputsKeepsThemRunning() throws {
    let record = OutputRecord()
    let config = tabataConfig()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.run(for: 5)
    // A comment above everything moves every entry a line down: nothing a plugin is made from.
    try clock.writeConfig("# the front wall\n" + config)
    clock.signal(.hangup)
    #expect(clock.logLines(containing: "reloaded").count == 1)
    #expect(record.stops == 0)
    #expect(record.startAttempts == [0])
    // A changed setting still makes the output again.
    try clock.writeConfig(config.replacingFirst("id: probe", with: "id: probe2"))
    clock.signal(.hangup)
    #expect(record.stops == 1)
    #expect(record.startAttempts == [0, 5])
  }

  @Test func aBrokenReloadKeepsEverythingAndSaysSo() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 12)
    try clock.writeConfig("presets:\n  tabata:\n    mode: tabta\n")
    let reply = try clock.request(#"{"cmd": "reload"}"#)
    #expect(reply["error"]?["code"]?.stringValue == "config_invalid")
    #expect(record.stops == 0)
    #expect(try clock.status()["state"]?.stringValue == "running")
    #expect(record.frames.last?.message?.hasPrefix("reload failed:") == true)
    #expect(clock.notified.last?.hasPrefix("READY=1\nSTATUS=running tabata") == true)
    #expect(clock.notified.last?.hasSuffix("; reload failed, running the previous config") == true)
  }

  @Test func theWatchdogIsPingedEveryIntervalAndTheStatusFollowsTheClock() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: tabataConfig(), kinds: [.recordingOutput(record)], watchdogInterval: 5_000_000_000)
    clock.start()
    clock.run(for: 20)
    // At the first turn and every 5 s after: 0, 5, 10, 15, 20.
    #expect(clock.notified.filter { $0 == "WATCHDOG=1" }.count == 5)
    #expect(clock.notified.first == "READY=1\nSTATUS=idle tabata 0:20")
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 1)
    #expect(clock.notified.contains("STATUS=countin tabata 0:09"))
    clock.signal(.terminate)
    #expect(clock.daemon.stopping)
  }

  @Test func aPluginActsOnTheClockThroughTheCommandVocabulary() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: tabataConfig(), kinds: [.recordingOutput(record)])
    clock.start()
    let context = try #require(record.context)
    guard
      case .success(let start) = CommandProtocol.parse(Array(#"{"id": 7, "cmd": "start"}"#.utf8))
    else { throw HarnessError("the request does not parse") }
    // The context a plugin is given answers as the socket does, and what it did is on the
    // next frame.
    let reply = context.command(start)
    #expect(reply["ok"]?.boolValue == true)
    #expect(reply["id"]?.intValue == 7)
    #expect(reply["status"]?["state"]?.stringValue == "countin")
    clock.run(for: 1)
    #expect(record.frames.last?.snapshot.runState == .countIn)
  }
}
