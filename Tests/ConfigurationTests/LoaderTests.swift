// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import DisplayKit
import Testing
import WorkoutCore

/// Behaviour the fixtures cannot show on their own: rendered text, defaults filled in, plugin
/// settings and their locations, ordering of diagnostics.
@Suite("Configuration loader")
struct LoaderTests {
  static func rendered(_ text: String, file: String = "wodclock.yaml") -> String {
    let result = ConfigurationLoader.load(text: text, file: file, plugins: TestPlugins.all)
    return DiagnosticRenderer(file: file, source: text).render(result.diagnostics)
  }

  @Test("an unknown key renders as a compiler error with a did-you-mean")
  func renderedUnknownKey() {
    let text = """
      presets:
        fran:
          mode: for_time
          cap: 10m
          rouds: 5
      """
    #expect(
      Self.rendered(text) == """
        wodclock.yaml:5:5: error: unknown key 'rouds' in preset 'fran'
            rouds: 5
            ^~~~~
        hint: did you mean 'rounds'?

        """)
  }

  @Test("a preset written as notation: its plan, and its problems under the word in the string")
  func notationPreset() throws {
    let good = try #require(
      configuration("defaults:\n  count_in: 5s\npresets:\n  fran: \"21-15-9 for time cap 10\"\n"))
    let fran = try #require(good.preset(named: "fran")?.plan)
    #expect(
      fran.mode
        == .forTime(ForTimeParameters(cap: .minutes(10), rounds: 3, repScheme: [21, 15, 9])))
    #expect(fran.countIn == .seconds(5))
    #expect(fran.name == "fran")
    #expect(
      Self.rendered("presets:\n  fran: \"21-15-9 for tme cap 10\"\n") == """
        wodclock.yaml:2:22: error: expected 'time' after 'for', found 'tme'
          fran: "21-15-9 for tme cap 10"
                             ^~~
        hint: write e.g. '21-15-9 for time cap 10'

        """)
    // An escape makes the decoded text shorter than the file's: the problem is at the value.
    let escaped = load("presets:\n  e: \"\\u0061marp 12\"\n")
    #expect(escaped.diagnostics.map(\.location.column) == [6])
    #expect(escaped.diagnostics.first?.message.hasSuffix("(at column 1 of the workout)") == true)
  }

  @Test("a key of another mode names the mode it belongs to")
  func renderedOtherMode() {
    let text = "presets:\n  a:\n    mode: amrap\n    time: 12m\n    interval: 1:00\n"
    #expect(
      Self.rendered(text) == """
        wodclock.yaml:5:5: error: 'interval' is not a key of mode 'amrap'
            interval: 1:00
            ^~~~~~~~
        hint: 'interval' belongs to mode 'emom'; mode 'amrap' takes: mode, label, count_in, cues, whiteboard, media, time

        """)
  }

  @Test("a wrong type says what was expected and what was found")
  func renderedWrongType() {
    let text = "presets:\n  t:\n    mode: tabata\n    work: [20s, 30s]\n"
    #expect(
      Self.rendered(text) == """
        wodclock.yaml:4:11: error: expected a duration such as '20s' or '1:30', found a list
            work: [20s, 30s]
                  ^~~~~~~~~~

        """)
  }

  @Test("a resource claimed twice: error at the second, note at the first")
  func renderedClaim() {
    let text = """
      presets: {t: {mode: tabata}}
      inputs:
        - {type: test-button, id: start, line: GPIO17}
        - {type: test-button, id: lap, line: "17"}
      """
    #expect(
      Self.rendered(text) == """
        wodclock.yaml:4:40: error: input 'lap' claims GPIO line '17', already taken by 'start'
          - {type: test-button, id: lap, line: "17"}
                                               ^~~~
        hint: each GPIO line can serve one plugin; pick another or remove one entry
        wodclock.yaml:3:42: note: 'start' claims GPIO line '17' here
          - {type: test-button, id: start, line: GPIO17}
                                                 ^~~~~~

        """)
  }

  @Test("a missing presets section is an error with an example")
  func renderedMissingPresets() {
    #expect(
      Self.rendered("language: en\n") == """
        wodclock.yaml:1:1: error: no 'presets' section: at least one preset is required
        language: en
        ^
        hint: add a workout, for example:
        presets:
          tabata:
            mode: tabata

        """)
  }

  @Test("every problem is reported in one run, sorted by position")
  func allProblemsSorted() {
    let text = """
      presets:
        b:
          mode: emom
        a:
          mode: amrap
          time: 0s
      language: xx
      clock:
        format: 13h
      """
    let result = load(text)
    #expect(result.configuration == nil)
    #expect(result.diagnostics.map(\.location.line) == [2, 6, 7, 9])
    #expect(result.errors.count == 4 && result.warnings.isEmpty)
  }

  @Test("the defaults are merged into every preset's plan; a preset overrides them")
  func defaultsMerged() throws {
    let text = """
      defaults:
        count_in: 5s
        cues:
          halfway: false
          rounds_remaining: [3]
      presets:
        a:
          mode: amrap
          time: 10m
        b:
          mode: amrap
          time: 10m
          count_in: 0s
          cues:
            countdown: false
      """
    let config = try #require(configuration(text))
    let a = try #require(config.preset(named: "a")).plan
    let b = try #require(config.preset(named: "b")).plan
    #expect(a.countIn == .seconds(5))
    #expect(a.cues == CueOptions(halfway: false, roundsRemaining: [3]))
    #expect(b.countIn == .zero)
    #expect(b.cues == CueOptions(countdown: false, halfway: false, roundsRemaining: [3]))
    #expect(config.defaults.preset == "a")
  }

  @Test("absent sections take their defaults")
  func absentSections() throws {
    let config = try #require(configuration("presets:\n  c:\n    mode: clock\n    seconds: true\n"))
    #expect(config.clock == ClockSettings())
    #expect(config.daemon == DaemonSettings())
    #expect(config.language == .english && config.wordOverrides.isEmpty)
    #expect(config.tokens == DesignTokens.standard)
    #expect(config.controls == ControlBinding.standard)
    #expect(config.inputs.isEmpty && config.outputs.isEmpty)
    #expect(config.presets[0].plan.mode == .clock(ClockFace(showSeconds: true)))
  }

  @Test("mode defaults: emom interval, tabata 20s/10s/8, tempo sets and rests")
  func modeDefaults() throws {
    let text = """
      presets:
        e: {mode: emom, rounds: 4}
        t: {mode: tabata, rounds: 4}
        i: {mode: intervals, work: 40s, rounds: 3}
        s: {mode: tempo, tempo: "4010", reps: 6}
        f: {mode: for_time}
      """
    let config = try #require(configuration(text))
    #expect(config.preset(named: "e")?.plan.mode == .emom(EMOMParameters(rounds: 4)))
    #expect(
      config.preset(named: "t")?.plan.mode
        == .tabata(IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 4)))
    #expect(
      config.preset(named: "i")?.plan.mode
        == .intervals(IntervalParameters(work: .seconds(40), rest: .zero, rounds: 3)))
    #expect(
      config.preset(named: "s")?.plan.mode
        == .tempo(TempoParameters(tempo: Tempo(halfSeconds: [8, 0, 2, 0]), reps: 6)))
    #expect(config.preset(named: "f")?.plan.mode == .forTime(ForTimeParameters()))
  }

  @Test("a tempo's lift may be written X, explosive, and X elsewhere is refused at the value")
  func explosiveTempo() throws {
    let config = try #require(
      configuration("presets:\n  s: {mode: tempo, tempo: \"30X0\", reps: 6}\n"))
    #expect(
      config.preset(named: "s")?.plan.mode
        == .tempo(TempoParameters(tempo: Tempo(halfSeconds: [6, 0, 0, 0]), reps: 6)))
    let refused = load("presets:\n  s: {mode: tempo, tempo: \"X000\", reps: 6}\n")
    #expect(refused.configuration == nil)
    #expect(
      refused.diagnostics.map(\.message) == [
        "'X' (explosive) can only be the lift, the third value, found in 'X000'"
      ])
    #expect(refused.diagnostics.first?.location.column == 27)
  }

  @Test("plugin settings: defaults filled in, locations recorded, ids generated")
  func pluginSettings() throws {
    let text = """
      presets: {t: {mode: tabata}}
      inputs:
        - type: test-button
          line: GPIO5
          hold: 2s
        - {type: test-button, line: GPIO6}
      outputs:
        - {type: terminal, id: wall}
        - type: test-lamp
          color: amber
          cues: {finish: 1s}
      """
    let config = try #require(configuration(text))
    #expect(config.inputs.map(\.id) == ["test-button", "test-button-2"])
    let button = config.inputs[0]
    #expect(button.kind == "test-button")
    #expect(button.location.line == 3 && button.location.column == 5)
    #expect(button.settings.values.map(\.key) == ["line", "control", "debounce", "hold"])
    #expect(button.settings["line"] == .string("GPIO5"))
    #expect(button.settings["control"] == .string("start"))
    #expect(button.settings["debounce"] == .duration(.milliseconds(30)))
    #expect(button.settings["hold"] == .duration(.seconds(2)))
    #expect(button.settings.locations["hold"]?.start.line == 5)
    #expect(button.settings.locations["hold"]?.start.column == 11)
    // A default points at the entry.
    #expect(button.settings.locations["debounce"]?.start.line == 3)
    #expect(Set(button.settings.locations.keys) == ["line", "control", "debounce", "hold"])

    #expect(config.outputs.map(\.id) == ["wall", "test-lamp"])
    let lamp = config.outputs[1].settings
    let amber = try #require(DesignTokens.standard.palette["amber"])
    #expect(lamp["color"] == .color(RGBColor(red: amber.red, green: amber.green, blue: amber.blue)))
    #expect(lamp["cues"] == .map([KeyedSetting(key: "finish", value: .duration(.seconds(1)))]))
    #expect(
      lamp["serial"]
        == .map([
          KeyedSetting(key: "device", value: .string("/dev/ttyUSB0")),
          KeyedSetting(key: "baud", value: .integer(9600)),
        ]))
  }

  @Test("the cross check runs only when every key parsed")
  func crossCheckOnlyAfterKeys() {
    let text = """
      presets: {t: {mode: tabata}}
      inputs:
        - {type: test-button, line: GPIO4, debounce: 900ms, hold: 5ms}
      """
    let messages = load(text).diagnostics.map(\.message)
    #expect(messages == ["'hold' must be between 100ms and 10s, got 5ms"])
  }

  @Test("a load action naming a preset becomes a load binding")
  func loadAction() throws {
    let text = """
      controls:
        one: {press: load b, long_press: finish}
      presets: {a: {mode: tabata}, b: {mode: amrap, time: 5m}}
      """
    let config = try #require(configuration(text))
    #expect(
      config.control(named: "one")?.actions == [
        .press: .load(preset: "b"), .longPress: .engine(.finish),
      ])
    #expect(config.controls.count == 1)
  }

  @Test("lane actions name the lane, and are written back as they were read")
  func laneActions() throws {
    let text = """
      controls:
        lane1: {press: lane finish 1, long_press: lane undo 1}
        lane64: {press: lane tiebreak 64, long_press: lane   finish   007}
      presets: {a: {mode: tabata}}
      """
    let config = try #require(configuration(text))
    #expect(
      config.control(named: "lane1")?.actions == [
        .press: .lane(.finish, lane: 1), .longPress: .lane(.undo, lane: 1),
      ])
    let lane64 = try #require(config.control(named: "lane64"))
    #expect(
      lane64.actions == [.press: .lane(.tiebreak, lane: 64), .longPress: .lane(.finish, lane: 7)])
    #expect(lane64.actions[.press]?.description == "lane tiebreak 64")
    #expect(lane64.actions[.longPress]?.description == "lane finish 7")
    #expect(ControlAction.laneNumbers == 1...64)
    PrinterTests.checkRoundTrip(config)
  }

  @Test("a lane action's mistake in a quoted value is pointed at inside the quotes")
  func laneActionQuoted() {
    let text = """
      controls:
        lane1: {press: "lane finish 65"}
      presets: {a: {mode: tabata}}
      """
    let diagnostics = load(text).diagnostics
    #expect(diagnostics.map(\.message) == ["expected a lane number from 1 to 64, found '65'"])
    #expect(diagnostics.first?.location.line == 2)
    #expect(diagnostics.first?.location.column == 31)
    #expect(diagnostics.first?.length == 2)
  }

  @Test("a broken preset does not also break the references to it")
  func brokenPresetStillNamed() {
    let text = """
      defaults: {preset: a}
      controls: {x: {press: load a}}
      presets: {a: {mode: amrap}}
      """
    let messages = load(text).diagnostics.map(\.message)
    #expect(messages == ["missing key 'time' in preset 'a'"])
  }

  @Test("without plugin schemas every plugin type is unknown, and the hint says none exist")
  func noPlugins() {
    let result = ConfigurationLoader.load(
      text: "presets: {t: {mode: tabata}}\noutputs: [{type: log}]\n", file: "x.yaml", plugins: [])
    #expect(result.diagnostics.map(\.message) == ["unknown output type 'log'"])
    #expect(result.diagnostics.first?.hint == "no output plugins are available")
  }

  @Test("a bare number for a workout's length hints at minutes, for a segment at seconds")
  func bareNumbers() {
    for key in ["time: 20", "cap: 20", "interval: 20"] {
      let mode = key.hasPrefix("time") ? "amrap" : key.hasPrefix("cap") ? "for_time" : "emom"
      let text = "presets:\n  p:\n    mode: \(mode)\n    rounds: 3\n    \(key)\n"
        .replacing(mode == "amrap" ? "    rounds: 3\n" : "\u{0}", with: "")
      let result = load(text)
      #expect(result.diagnostics.map(\.message) == ["a duration needs a unit"], "\(key)")
      #expect(result.diagnostics.first?.hint == "write '20m' or '20:00'", "\(key)")
    }
    let rest = load("presets:\n  t:\n    mode: tabata\n    rest: 20\n")
    #expect(rest.diagnostics.first?.hint == "write '20s' or '0:20'")
    let loop = load(
      "presets:\n  s:\n    mode: sequence\n    steps:\n"
        + "      - {name: cindy, loop: true, duration: 20, steps: [{name: go, duration: 1m}]}\n")
    #expect(loop.diagnostics.first?.hint == "write '20m' or '20:00'")
    let minutes = configuration("presets:\n  a:\n    mode: amrap\n    time: 20 min\n")
    #expect(minutes?.presets.first?.plan.mode == .amrap(AMRAPParameters(time: .minutes(20))))
  }

  @Test("a For Time rep scheme sets the rounds; rounds beside it must agree")
  func repScheme() throws {
    let fran = configuration(
      "presets:\n  fran:\n    mode: for_time\n    cap: 10m\n    reps: [21, 15, 9]\n")
    #expect(
      fran?.presets.first?.plan.mode
        == .forTime(ForTimeParameters(cap: .minutes(10), rounds: 3, repScheme: [21, 15, 9])))
    let odds = "presets:\n  fran:\n    mode: for_time\n    rounds: 5\n    reps: [21, 15, 9]\n"
    #expect(
      Self.rendered(odds) == """
        wodclock.yaml:4:13: error: 'rounds' is 5, but 'reps' lists 3 rounds
            rounds: 5
                    ^
        hint: leave 'rounds' out: 'reps' sets it

        """)
    let zero = load("presets:\n  f:\n    mode: for_time\n    reps: [21, 0]\n")
    #expect(zero.diagnostics.map(\.message) == ["'reps' must be between 1 and 999, got 0"])
  }

  @Test("a sequence may skip its last rest")
  func sequenceSkipsItsLastRest() throws {
    let text = """
      presets:
        fgb:
          mode: sequence
          skip_last_rest: true
          steps:
            - {name: round, repeat: 3, steps: [{name: row, duration: 5m}, {name: rest, kind: rest, duration: 1m}]}
      """
    let plan = try #require(configuration(text)?.presets.first?.plan)
    #expect(try plan.compile().workoutLength == .minutes(17))
  }

  @Test("durations are written back in the config's own syntax")
  func durationText() {
    let cases: [(TimeSpan, String)] = [
      (.zero, "0s"), (.seconds(20), "20s"), (.seconds(60), "1m"), (.seconds(90), "90s"),
      (.seconds(99), "99s"), (.seconds(100), "1m40s"), (.minutes(25), "25m"), (.hours(24), "24h"),
      (.milliseconds(500), "500ms"), (.milliseconds(1500), "1s500ms"),
      (.seconds(5415), "1h30m15s"),
    ]
    for (span, text) in cases {
      #expect(DurationText.format(span) == text)
      let scalar = Scalar(
        text: text, style: .plain,
        range: SourceRange(at: ConfigFormat.SourceLocation(file: "", line: 1, column: 1)))
      if case .success(let duration) = ValueSyntax.duration(scalar) {
        #expect(TimeSpan(duration) == span)
      } else {
        Issue.record("\(text) does not read back")
      }
    }
  }
}
