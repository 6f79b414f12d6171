// SPDX-License-Identifier: MIT
// Composing a workout on a keypad at the wall, through the daemon on manual time: the keys
// the keypad profile sends, what every output is given while composing, the load on Enter,
// the timeout, and the replace confirmation for a composed workout.

import ButtonKit
import Configuration
import DisplayKit
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

private let config = """
  defaults:
    preset: tabata
    count_in: 5s
  presets:
    tabata:
      mode: tabata
    amrap:
      mode: amrap
      time: 20m
  outputs:
    - {type: test-output, id: probe}
  """

private func key(_ key: ComposerKey, else otherwise: InputEvent? = nil) -> InputEvent {
  .compose(key, otherwise: otherwise)
}

private let enter = key(.confirm, else: .control("start", .press, pressedAt: nil))

@Suite struct KeypadCompositionTests {
  @Test func fourteenThenAMRAPThenEnterLoadsAMRAPFourteen() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(key(.digit(1)), key(.digit(4)))
    #expect(record.frames.last?.overlay?.text == "14")
    clock.input(key(.mode(.amrap)))
    #expect(
      record.frames.last?.overlay
        == DisplayOverlay(text: "A 14", narrow: "A 14", caption: "ENTER loads"))
    clock.input(enter)
    let status = try clock.status()
    #expect(status["preset"]?.stringValue == "amrap 14")
    #expect(status["workout"]?.stringValue == "amrap 14")
    #expect(status["mode"]?.stringValue == "amrap")
    #expect(status["remaining_s"]?.doubleValue == 840)
    #expect(status["state"]?.stringValue == "idle")
    #expect(record.frames.last?.overlay == nil)
    #expect(clock.logLines(containing: #"workout loaded preset="amrap 14""#).count == 1)
    // Enter again starts it, with the config's count-in.
    clock.input(enter)
    #expect(try clock.status()["state"]?.stringValue == "countin")
  }

  @Test func tenTimesOneThenEMOMShowsOnEveryDisplayKind() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(key(.digit(1)), key(.digit(0)), key(.times), key(.digit(1)), key(.mode(.emom)))
    #expect(record.frames.last?.overlay?.text == "E 10×1")
    #expect(record.frames.last?.overlay?.narrow == "E 10.1")
    clock.input(enter)
    #expect(try clock.status()["rounds"]?.intValue == 10)
    #expect(try clock.status()["workout"]?.stringValue == "emom 10")
  }

  @Test func oneDigitThenEnterLoadsThatPreset() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(key(.digit(2)), enter)
    #expect(try clock.status()["preset"]?.stringValue == "amrap")
    // Past the presets and the workouts known by name, nothing.
    clock.input(key(.digit(9)), key(.digit(9)), enter)
    #expect(record.frames.last?.overlay?.caption == "no preset 99")
    #expect(try clock.status()["preset"]?.stringValue == "amrap")
  }

  /// The workouts known by name, the gym's own (the `workouts:` file) first, are numbered after
  /// the presets.
  @Test func theNamedWorkoutsAreNumberedAfterThePresets() throws {
    let scratch = try ScratchDirectory(prefix: "wodclock-keypad-")
    defer { scratch.remove() }
    let workouts = scratch.file("workouts.yaml")
    try FileSystem.writeFileAtomically(
      workouts, text: "filthy fifty: [\"for time cap 30\", 50 box jumps 24/20 in]\n")
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: config + "\nworkouts: \(workouts)\n", kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(key(.digit(3)), enter)
    let status = try clock.status()
    #expect(status["preset"]?.stringValue == "filthy fifty", "\(status)")
    #expect(status["whiteboard"] == ["50 box jumps 24/20 in"])
    // Then the benchmark workouts, as the presets reply lists them.
    let library = try clock.request(#"{"cmd": "presets"}"#)["library"]?.arrayValue ?? []
    let fourth = try #require(library.dropFirst().first?["name"]?.stringValue)
    clock.input(key(.digit(4)), enter)
    #expect(try clock.status()["preset"]?.stringValue == fourth)
    clock.input(key(.digit(9)), key(.digit(9)), enter)
    #expect(record.frames.last?.overlay?.caption == "no preset 99")
  }

  @Test func keysThatStartNothingDoTheirWorkoutActionWhileNothingIsComposed() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(enter)
    #expect(try clock.status()["state"]?.stringValue == "countin")
    clock.input(key(.mode(.emom), else: .action(.engine(.pause))))
    #expect(try clock.status()["state"]?.stringValue == "paused")
    #expect(record.frames.last?.overlay == nil)
  }

  @Test func anUnfinishedCompositionGoesFifteenSecondsAfterTheLastKey() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(key(.digit(1)), key(.digit(4)))
    clock.run(for: 14.9)
    #expect(record.frames.last?.overlay?.text == "14")
    clock.run(for: 0.1)
    #expect(record.frames.last?.overlay == nil)
    // Enter now starts the loaded Tabata: nothing is composed any more.
    clock.input(enter)
    #expect(try clock.status()["state"]?.stringValue == "countin")
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
  }

  @Test func aComposedWorkoutOverARunningOneNeedsEnterTwice() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: config, kinds: [.recordingOutput(record)])
    clock.start()
    clock.input(enter)
    clock.run(for: 20)
    clock.input(key(.digit(1)), key(.digit(4)), key(.mode(.amrap)), enter)
    #expect(try clock.status()["preset"]?.stringValue == "tabata")
    #expect(try clock.status()["state"]?.stringValue == "running")
    #expect(
      record.frames.last?.overlay
        == DisplayOverlay(text: "A 14", narrow: "SurE", caption: "press again to replace"))
    clock.run(for: 3)
    clock.input(enter)
    #expect(try clock.status()["preset"]?.stringValue == "amrap 14")
    #expect(try clock.status()["state"]?.stringValue == "idle")
    #expect(record.frames.last?.overlay == nil)
  }
}
