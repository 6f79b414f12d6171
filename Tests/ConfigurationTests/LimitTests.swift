// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WodclockTestSupport
import WorkoutCore

/// "file:line:col: message" of each diagnostic, for compact comparisons.
private func located(_ result: ConfigurationLoadResult) -> [String] {
  result.diagnostics.map {
    "\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message)"
  }
}

@Suite("A syntax error hides no schema problem")
struct RecoveryTests {
  @Test("a tab on one line and a misspelt mode two lines later are reported together")
  func syntaxAndSchemaTogether() {
    let result = load(
      """
      presets:
        a:
        \tmode: amrap
        b:
          mode: amarp
      """)
    #expect(result.configuration == nil)
    #expect(
      located(result) == [
        "3:3: error: tabs are not allowed in indentation",
        "5:11: error: unknown mode 'amarp' in preset 'b'",
      ])
  }

  @Test("what a broken line may have held is not reported missing; the rest is checked")
  func nothingInventedAroundTheBreak() {
    let result = load(
      """
      defaults:
        preset: lost
      presets:
        a:
          mode: intervals
        \twork: 30s
          rounds: 5
        \tlost:
          mode: amrap
        b:
          mode: tabata
          rounds: 0
          label: [x]
      controls:
        start:
          press: load nowhere
        \tstop: {press: reset}
      inputs:
        - type: test-button
          control: stop
        \tline: GPIO17
        - type: test-button
          line: GPIO18
          hold: 1h
      """)
    #expect(
      located(result) == [
        "6:3: error: tabs are not allowed in indentation",
        "8:3: error: tabs are not allowed in indentation",
        "12:13: error: 'rounds' must be between 1 and 999, got 0",
        "13:12: error: expected text, found a list",
        "17:3: error: tabs are not allowed in indentation",
        "21:3: error: tabs are not allowed in indentation",
        "24:11: error: 'hold' must be between 100ms and 10s, got 1h",
      ])
  }

  @Test("a duplicate preset is still named as one next to other errors")
  func duplicatePreset() {
    let result = load("presets:\n  a:\n    mode: amrap\n    time: 1m\n  a:\n    mode: amrp\n")
    #expect(
      located(result) == [
        "5:3: error: duplicate preset 'a'", "6:11: error: unknown mode 'amrp' in preset 'a'",
      ])
  }
}

@Suite("Text from the file: printable, and not too long")
struct TextLimitTests {
  @Test(
    "a control character in any text is refused by its code point",
    arguments: [
      ("label: \"\\e[2J\"", "'label' contains the control character U+001B"),
      ("label: \"a\\0b\"", "'label' contains the control character U+0000"),
      ("label: \"two\\nlines\"", "'label' contains the control character U+000A"),
      ("label: \"tab\\tstop\"", "'label' contains the control character U+0009"),
      ("label: \"\\x9B31m\"", "'label' contains the control character U+009B"),
      ("label: \"a\\Lb\"", "'label' contains the control character U+2028"),
    ])
  func controlCharacters(_ line: String, _ message: String) {
    let result = load("presets:\n  a:\n    mode: amrap\n    time: 10m\n    \(line)\n")
    #expect(located(result) == ["5:12: error: \(message)"])
    #expect(result.diagnostics.first?.hint?.hasPrefix("remove it") == true)
  }

  @Test("steps, round labels, words, plugin settings and palette names are checked too")
  func everyText() {
    let result = load(
      """
      words:
        work: "GO\\e[5m"
      tokens:
        palette:
          "red\\a": "#ff0000"
      presets:
        s:
          mode: sequence
          steps:
            - {name: "row\\u0007", duration: 1m}
        e:
          mode: emom
          rounds: 2
          labels: [ok, "b\\x1b"]
      outputs:
        - type: test-lamp
          serial: {device: "/dev/tty\\e"}
      """)
    #expect(
      located(result) == [
        "2:9: error: 'work' contains the control character U+001B",
        "5:5: error: palette name contains the control character U+0007",
        "10:16: error: 'name' contains the control character U+0007",
        "14:18: error: 'labels' contains the control character U+001B",
        "17:22: error: 'device' contains the control character U+001B",
      ])
  }

  @Test("names, labels and words have a documented length limit")
  func lengths() {
    let name = String(repeating: "n", count: TextLimits.name)
    let label = String(repeating: "l", count: TextLimits.label)
    let word = String(repeating: "W", count: TextLimits.word)
    let fits = load(
      """
      words: {work: \(word)}
      presets:
        \(name):
          mode: amrap
          time: 10m
          label: \(label)
      """)
    #expect(fits.diagnostics.isEmpty, "\(located(fits))")
    let result = load(
      """
      words: {work: \(word)W}
      presets:
        \(name)n:
          mode: amrap
          time: 10m
        b:
          mode: intervals
          work: 20s
          rounds: 2
          label: \(label)l
          labels: [\(label)x]
      """)
    #expect(
      located(result) == [
        "1:15: error: 'work' is 25 characters long, more than the 24 allowed",
        "3:3: error: preset name '\(name)n' is 33 characters long, more than the 32 allowed",
        "10:12: error: 'label' is 65 characters long, more than the 64 allowed",
        "11:14: error: 'labels' is 65 characters long, more than the 64 allowed",
      ])
  }
}

@Suite("The socket's group, looked up where there is a system to ask")
struct SocketGroupTests {
  static let text = "daemon:\n  socket_group: gym\npresets:\n  a:\n    mode: amrap\n    time: 1m\n"

  static func loaded(answering status: SystemLookup.GroupStatus) -> ConfigurationLoadResult {
    ConfigurationLoader.load(
      bytes: Array(text.utf8), file: "test.yaml", plugins: TestPlugins.all,
      system: SystemLookup { name in name == "gym" ? status : .found })
  }

  @Test("a group the system does not have is an error at the value")
  func missingGroup() {
    let result = Self.loaded(answering: .notFound)
    #expect(result.configuration == nil)
    #expect(located(result) == ["2:17: error: no group named 'gym' on this system"])
    #expect(result.diagnostics.first?.hint?.contains("groupadd --system gym") == true)
  }

  @Test("a lookup that fails is a warning: the group may still exist")
  func unknownGroup() {
    let result = Self.loaded(answering: .unknown(reason: "the group lookup failed: EIO"))
    #expect(result.configuration?.daemon.socketGroup == "gym")
    #expect(
      located(result) == [
        "2:17: warning: cannot check that group 'gym' exists: the group lookup failed: EIO"
      ])
  }

  @Test("an existing group, or no system to ask, loads")
  func foundGroup() {
    #expect(Self.loaded(answering: .found).diagnostics.isEmpty)
    #expect(load(Self.text).diagnostics.isEmpty)
  }
}

/// Every number and duration of the file, at its extremes alone and together: the loader and
/// the plans it accepts never trap (a trap would end this test run), and every accepted plan
/// compiles within the workout length limit.
@Suite("No number from the file traps")
struct ExtremeValueTests {
  /// Out of range, or past what 64 bits hold.
  static let integers = [
    "0", "-1", "1000", "+7", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "99999999999999999999",
  ]
  static let durations = [
    "0s", "1ms", "25h", "999999999h", "999999999h59m59s999ms", "999999999:59:59", "999999999:59",
    "0.999999999s", "2562047h", "2562048h",
  ]
  static let percentages = ["0%", "101%", "-1%", "9223372036854775808%"]
  static let tempos = ["\"0-0-0-0\"", "\"99-0-0-0\"", "\"9-9-9-9\""]

  /// A config with a placeholder `<name>` for each number: integers start with i, durations
  /// with d, percentages with p, tempos with t.
  static let template = """
    defaults:
      count_in: <d0>
      stale_cues_after: <d1>
      cues: {rounds_remaining: [<i0>, <i1>]}
    daemon:
      resume_within: <d2>
      client_timeout: <d3>
    tokens:
      brightness: {day: <p0>, night: <p1>}
      blink: {colon: <d4>, paused: <d5>, flash: <d6>}
    presets:
      for-time:
        mode: for_time
        cap: <d7>
        rounds: <i2>
        count_in: <d8>
      amrap:
        mode: amrap
        time: <d9>
      emom:
        mode: emom
        interval: <d10>
        rounds: <i3>
        ladder: {start: <i4>, step: <i5>}
      intervals:
        mode: intervals
        work: <d11>
        rest: <d12>
        rounds: <i6>
        sets: <i7>
        set_rest: <d13>
      tabata:
        mode: tabata
        work: <d14>
        rest: <d15>
        rounds: <i8>
        sets: <i9>
        set_rest: <d16>
      tempo:
        mode: tempo
        tempo: <t0>
        reps: <i10>
        sets: <i11>
        set_rest: <d17>
        unilateral: true
        switch_pause: <d18>
      sequence:
        mode: sequence
        steps:
          - {name: warm, duration: <d19>, repeat: <i12>, reps: <i13>}
          - name: block
            repeat: <i14>
            steps:
              - name: inner
                repeat: <i15>
                steps:
                  - {name: leaf, duration: <d20>, repeat: <i16>}
          - name: loop
            loop: true
            duration: <d21>
            repeat: <i17>
            steps:
              - {name: a, duration: <d22>, repeat: <i18>}
              - {name: b, duration: <d23>}
      deep:
        mode: sequence
        steps:
          - name: l1
            repeat: <i19>
            steps:
              - name: l2
                repeat: <i20>
                steps:
                  - name: l3
                    repeat: <i21>
                    steps:
                      - name: l4
                        repeat: <i22>
                        steps:
                          - name: l5
                            repeat: <i23>
                            steps:
                              - name: l6
                                repeat: <i24>
                                steps:
                                  - name: l7
                                    repeat: <i25>
                                    steps:
                                      - {name: l8, duration: <d24>, repeat: <i26>}
    inputs:
      - type: test-button
        line: GPIO17
        debounce: <d25>
        hold: <d26>
    outputs:
      - type: test-lamp
        brightness: <p2>
        pins: [<i27>, <i28>]
        cues: {start: <d27>}
        serial: {baud: <i29>}
    """

  /// Each placeholder with an ordinary value and the largest its key takes.
  static let placeholders: [(name: String, ordinary: String, maximum: String)] = {
    var result: [(String, String, String)] = [("i0", "2", "999"), ("i1", "3", "999")]
    let integerMaxima = [
      "999", "999", "999", "99", "999", "99", "999", "99", "99", "99", "999", "9999", "999", "999",
      "999", "999", "999", "999", "999", "999", "999", "999", "999", "999", "999", "40", "40",
      "115200",
    ]
    for (offset, maximum) in integerMaxima.enumerated() {
      result.append(("i\(offset + 2)", offset == 27 ? "9600" : "2", maximum))
    }
    let durationMaxima = [
      "99s", "1h", "24h", "1h", "10s", "10s", "10s", "24h", "99s", "24h", "24h", "24h", "24h",
      "24h", "24h", "24h", "24h", "24h", "60s", "24h", "24h", "24h", "24h", "24h", "24h", "1s",
      "10s", "5s",
    ]
    for (offset, maximum) in durationMaxima.enumerated() {
      result.append(("d\(offset)", offset == 25 ? "30ms" : "1s", maximum))
    }
    for index in 0...2 { result.append(("p\(index)", "50%", "100%")) }
    result.append(("t0", "\"4010\"", "\"9999\""))
    return result
  }()

  /// The values that are out of range or overflow for the kind of `placeholder`.
  static func extremes(of placeholder: String) -> [String] {
    switch placeholder.first {
    case "i": return integers
    case "d": return durations
    case "p": return percentages
    default: return tempos
    }
  }

  static func config(_ values: [String: String]) -> String {
    var text = template
    for placeholder in placeholders {
      text = text.replacing(
        "<\(placeholder.name)>", with: values[placeholder.name] ?? placeholder.ordinary)
    }
    return text
  }

  /// Loads `text`; for an accepted file, compiles every preset and checks its length.
  static func check(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> Bool
  {
    let result = load(text)
    // Rendering must cope with whatever was reported.
    _ = DiagnosticRenderer(file: "test.yaml", source: text).render(result.diagnostics)
    guard let configuration = result.configuration else { return false }
    for preset in configuration.presets {
      #expect(
        preset.plan.timedLength <= PlanLimits.workoutLength, "\(preset.name)",
        sourceLocation: sourceLocation)
      do {
        let timeline = try preset.plan.compile()
        if let total = timeline.totalLength {
          #expect(total <= PlanLimits.workoutLength, sourceLocation: sourceLocation)
        }
      } catch {
        Issue.record("\(preset.name) loaded but does not compile: \(error)")
      }
    }
    return true
  }

  @Test("the template itself is a valid config")
  func templateLoads() {
    let result = load(Self.config([:]))
    #expect(result.diagnostics.isEmpty, "\(located(result))")
  }

  @Test("every numeric key takes its largest value and every extreme value on its own")
  func eachKeyAlone() {
    var accepted = 0
    for placeholder in Self.placeholders {
      for value in [placeholder.maximum] + Self.extremes(of: placeholder.name)
      where Self.check(Self.config([placeholder.name: value])) {
        accepted += 1
      }
    }
    // Each largest value fits on its own (0s and 0 fit some keys too).
    #expect(accepted >= Self.placeholders.count)
  }

  @Test("the largest values of many keys together, with a few extreme ones")
  func manyKeysTogether() {
    var random = SeededGenerator(seed: 0x0BAD_F10A7)
    var tooLong = 0
    for _ in 0..<300 {
      var values: [String: String] = [:]
      for placeholder in Self.placeholders {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<50: values[placeholder.name] = placeholder.maximum
        case 50..<97: values[placeholder.name] = placeholder.ordinary
        default:
          values[placeholder.name] = Self.extremes(of: placeholder.name).randomElement(
            using: &random)!
        }
      }
      let text = Self.config(values)
      _ = Self.check(text)
      if load(text).diagnostics.contains(where: { $0.message.contains("a workout may last") }) {
        tooLong += 1
      }
    }
    // Together they are what used to overflow: the limit catches them.
    #expect(tooLong > 200)
  }

  @Test("a workout longer than the limit is an error at the preset, not a trap")
  func tooLong() {
    let result = load(
      """
      presets:
        forever:
          mode: intervals
          work: 24h
          rest: 24h
          rounds: 999
          sets: 99
          set_rest: 24h
        two-days:
          mode: intervals
          work: 24h
          rest: 0s
          rounds: 2
          count_in: 1s
        just-fits:
          mode: intervals
          work: 24h
          rest: 0s
          rounds: 2
          count_in: 0s
      """)
    #expect(
      located(result) == [
        "2:3: error: preset 'forever' would last about 4747248 hours, longer than the 48 "
          + "hours a workout may last",
        "9:3: error: preset 'two-days' would last about 48 hours, longer than the 48 hours a "
          + "workout may last",
      ])
    #expect(result.diagnostics.first?.hint?.hasPrefix("use fewer rounds") == true)
  }
}
