// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import Testing
import WorkoutCore

/// The annotated default config is the schema's specification: it must load cleanly, with the
/// values it spells out.
@Suite("Shipped wodclock.yaml")
struct ShippedConfigTests {
  static func shipped() throws -> WodclockConfiguration? {
    configuration(try FileSystem.readTextFile(shippedConfigPath()), file: "wodclock.yaml")
  }

  @Test("loads without a single diagnostic, with 17 presets in file order")
  func loadsCleanly() throws {
    let text = try FileSystem.readTextFile(shippedConfigPath())
    let result = load(text, file: "wodclock.yaml")
    #expect(result.diagnostics.isEmpty)
    let config = try #require(result.configuration)
    #expect(config.presets.count == 17)
    #expect(config.presets.prefix(3).map(\.name) == ["tabata", "emom-10", "emom-12"])
    #expect(config.preset(named: "clock")?.location.line == 188)
    // The last is written as notation.
    let fran = try #require(config.preset(named: "fran")?.plan)
    #expect(
      fran.mode
        == .forTime(ForTimeParameters(cap: .minutes(10), rounds: 3, repScheme: [21, 15, 9])))
    #expect(fran.name == "fran")
    #expect(fran.notation == "21-15-9 for time cap 10")
  }

  @Test("the commented-out schedule loads as it is written once its comment marks go")
  func scheduleExample() throws {
    let text = try FileSystem.readTextFile(shippedConfigPath())
    var inExample = false
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line == "# schedule:" { inExample = true }
      if inExample, line.hasPrefix("# ") { return String(line.dropFirst(2)) }
      inExample = false
      return String(line)
    }
    let config = try #require(
      configuration(lines.joined(separator: "\n"), file: "wodclock.yaml"))
    #expect(config.schedule.lead == .minutes(5))
    #expect(config.schedule.classes.map(\.name) == ["6 AM WOD", "Open Gym", "6 AM WOD"])
    #expect(
      config.schedule.classes.map(\.workout) == [
        .preset("class"), .preset("amrap-20"), .notation("cindy"),
      ])
    #expect(config.schedule.classes[2].dates == [LocalDate(year: 2026, month: 12, day: 7)])
  }

  @Test("the commented-out web section loads as it is written once its comment marks go")
  func webExample() throws {
    let text = try FileSystem.readTextFile(shippedConfigPath())
    var inExample = false
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line == "# web:" { inExample = true }
      if inExample, line.hasPrefix("# ") { return String(line.dropFirst(2)) }
      inExample = false
      return String(line)
    }
    let config = try #require(
      configuration(lines.joined(separator: "\n"), file: "wodclock.yaml"))
    #expect(config.web == WebSettings(listen: .standard, pin: "482193", hosts: ["clock.gym.lan"]))
    #expect(try Self.shipped()?.web == nil)
  }

  @Test("the commented-out mqtt section loads as it is written once its comment marks go")
  func mqttExample() throws {
    let text = try FileSystem.readTextFile(shippedConfigPath())
    var inExample = false
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      if line == "# mqtt:" { inExample = true }
      if inExample, line.hasPrefix("# ") { return String(line.dropFirst(2)) }
      inExample = false
      return String(line)
    }
    let config = try #require(
      configuration(lines.joined(separator: "\n"), file: "/etc/wodclock/wodclock.yaml"))
    #expect(
      config.mqtt
        == MQTTSettings(
          broker: MQTTBroker(host: .name("mqtt.local"), port: 1883, hostText: "mqtt.local"),
          username: "front-clock",
          passwordFile: ConfigFileReference(
            setting: "mqtt-password", path: "/etc/wodclock/mqtt-password"),
          homeAssistant: true))
    #expect(try Self.shipped()?.mqtt == nil)
  }

  @Test("top sections: clock, defaults, daemon, language, words, controls, plugins")
  func sections() throws {
    let config = try #require(try Self.shipped())
    #expect(config.clock.face == ClockFace(twentyFourHour: true, showSeconds: false))
    #expect(config.clock.idle == .clock)
    #expect(config.defaults.preset == "tabata")
    #expect(config.defaults.countIn == .seconds(10))
    #expect(config.defaults.staleCuesAfter == .seconds(1))
    #expect(config.defaults.cues == CueOptions())
    #expect(config.daemon.socketGroup == "wodclock")
    #expect(config.daemon.resumeWithin == .minutes(10))
    #expect(config.language == .english)
    #expect(config.wordOverrides == [.getReady: "GET READY"])
    #expect(config.words[.work] == "WORK")
    #expect(config.controls.map(\.name) == ["start", "next", "lap"])
    #expect(
      config.control(named: "start")?.actions == [
        .press: .engine(.toggle), .longPress: .engine(.reset),
      ])
    #expect(config.inputs.isEmpty)
    #expect(config.outputs.map(\.id) == ["log"])
    #expect(config.outputs[0].settings["cues"] == .boolean(true))
  }

  @Test("tokens: the shipped file spells out exactly the built-in tokens")
  func tokens() throws {
    // An absent key and the shipped file must mean the same thing, so an owner who deletes a
    // line gets what the comment next to it said.
    let tokens = try #require(try Self.shipped()).tokens
    #expect(tokens == DesignTokens.standard)
    #expect(tokens.palette.names == DesignTokens.standard.palette.names)
    #expect(tokens.color(for: .work) == RGB(hex: "#22e05a"))
  }

  @Test("presets come out as plans the daemon can run, defaults merged in")
  func presets() throws {
    let config = try #require(try Self.shipped())
    let tabata = try #require(config.preset(named: "tabata")).plan
    #expect(tabata.mode == .tabata(.tabata))
    #expect(tabata.label == "Tabata")
    #expect(tabata.countIn == .seconds(10))
    #expect(tabata.cues == CueOptions())

    let emom20 = try #require(config.preset(named: "emom-20")).plan
    #expect(
      emom20.mode == .emom(EMOMParameters(rounds: 20, labels: ["burpees", "wall balls"])))

    let burpees = try #require(config.preset(named: "death-by-burpees")).plan
    #expect(burpees.mode == .emom(EMOMParameters(rounds: 30, ladder: Ladder(start: 1, step: 1))))
    #expect(burpees.label == "burpees")

    let squat = try #require(config.preset(named: "squat-5x5")).plan
    guard case .tempo(let tempo) = squat.mode else {
      Issue.record("squat-5x5 is not a tempo preset")
      return
    }
    #expect(tempo.tempo.halfSeconds == [6, 2, 2, 0])
    #expect(tempo.reps == 5 && tempo.sets == 5 && tempo.setRest == .minutes(2))
    #expect(tempo.startPhase == .eccentric && !tempo.unilateral)

    let fight = try #require(config.preset(named: "fight-gone-bad")).plan
    guard case .sequence(let sequence) = fight.mode else {
      Issue.record("fight-gone-bad is not a sequence")
      return
    }
    #expect(sequence.steps.count == 1)
    #expect(sequence.steps[0].name == "round" && sequence.steps[0].repetitions == 3)
    #expect(sequence.steps[0].steps.count == 6)
    #expect(sequence.steps[0].steps[4].name == "row (calories)")
    #expect(sequence.steps[0].steps[5].kind == .rest)
    #expect(sequence.steps[0].steps.allSatisfy { $0.duration == .minutes(1) })
    // Fight Gone Bad is three rounds of 5 + 1 minutes, the last rest skipped: 17:00.
    #expect(sequence.skipLastRest)
    #expect(try fight.compile().workoutLength == .minutes(17))

    let intervals = try #require(config.preset(named: "intervals-30-30")).plan
    #expect(
      intervals.mode
        == .intervals(
          IntervalParameters(
            work: .seconds(30), rest: .seconds(30), rounds: 10, sets: 2, setRest: .minutes(2))))
    #expect(
      config.preset(named: "rounds-for-time")?.plan.mode
        == .forTime(ForTimeParameters(cap: .minutes(25), rounds: 5)))
    #expect(
      config.preset(named: "amrap-12")?.plan.mode == .amrap(AMRAPParameters(time: .minutes(12))))
    #expect(
      config.preset(named: "e2mom")?.plan.mode
        == .emom(EMOMParameters(interval: .minutes(2), rounds: 8)))
    #expect(config.preset(named: "clock")?.plan.mode == .clock(ClockFace()))

    let classPlan = try #require(config.preset(named: "class")).plan
    guard case .sequence(let steps) = classPlan.mode else {
      Issue.record("class is not a sequence")
      return
    }
    #expect(steps.steps.map(\.duration) == [.minutes(10), nil, .minutes(12), .minutes(5)])
    #expect(steps.steps.map(\.skippable) == [true, true, false, true])
    for preset in config.presets {
      #expect(preset.plan.validationErrors().isEmpty, "\(preset.name)")
      #expect(throws: Never.self) { try preset.plan.compile() }
    }
  }
}
