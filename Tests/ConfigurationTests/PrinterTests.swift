// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import Testing
import WodclockTestSupport
import WorkoutCore

/// `--print-config` output must load back to the same configuration and print identically.
@Suite("Print-config round trips")
struct PrinterTests {
  /// Prints `config`, loads the text, compares, prints again, compares the text.
  static func checkRoundTrip(
    _ config: WodclockConfiguration, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    let result = load(printed, file: "printed.yaml")
    guard let reloaded = result.configuration, result.diagnostics.isEmpty else {
      let rendered = DiagnosticRenderer(file: "printed.yaml", source: printed).render(
        result.diagnostics)
      Issue.record(
        "printed config does not load:\n\(rendered)\n\(printed)", sourceLocation: sourceLocation)
      return
    }
    #expect(withoutLocations(reloaded) == withoutLocations(config), sourceLocation: sourceLocation)
    let reprinted = ConfigurationPrinter.render(reloaded, plugins: TestPlugins.all)
    #expect(reprinted == printed, sourceLocation: sourceLocation)
  }

  @Test("the shipped wodclock.yaml")
  func shipped() throws {
    let config = try #require(configuration(try FileSystem.readTextFile(shippedConfigPath())))
    Self.checkRoundTrip(config)
  }

  @Test(
    "every valid fixture",
    arguments: try fileNames(in: sourceDirectory() + "/Fixtures/valid", endingWith: ".yaml"))
  func fixture(_ name: String) throws {
    let text = try FileSystem.readTextFile(sourceDirectory() + "/Fixtures/valid/" + name)
    let config = try #require(configuration(text, file: name))
    Self.checkRoundTrip(config)
  }

  @Test("a minimal config prints every default")
  func minimal() throws {
    let config = try #require(configuration("presets:\n  t:\n    mode: tabata\n"))
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    for line in [
      "  format: 24h", "  preset: t", "  count_in: 10s", "    rounds_remaining: [10, 5, 2]",
      "  resume_within: 10m", "language: en", "words: {}", "    work: green",
      "    night_from: \"22:00\"", "    long_press: reset", "    work: 20s", "    rest: 10s",
      "    rounds: 8", "    sets: 1", "    set_rest: 0s", "    skip_last_rest: false",
      "inputs: []", "outputs: []",
    ] {
      #expect(printed.contains(line + "\n"), "missing \(line)")
    }
    Self.checkRoundTrip(config)
  }

  @Test("a preset written as notation is printed as its notation and reads back")
  func notationPresets() throws {
    let text = """
      defaults:
        count_in: 5s
      presets:
        fran: "21-15-9 for time cap 10"
        e2: e2mom 16
        chain: 'warm-up 8:00 + amrap 12 + rest 3:00 + emom 6: power clean / burpees'
        quick: "tabata no countin"
      """
    let config = try #require(configuration(text))
    let printed = ConfigurationPrinter.render(config, plugins: TestPlugins.all)
    #expect(printed.contains("  fran: \"21-15-9 for time cap 10\"\n"))
    #expect(printed.contains("  e2: \"every 2:00 x 8\"\n"))
    #expect(printed.contains("  quick: \"tabata no countin\"\n"))
    #expect(!printed.contains("mode: for_time"))
    Self.checkRoundTrip(config)
  }

  @Test("strings YAML could misread are quoted")
  func quoting() {
    let texts = [
      "true", "no", "null", "~", "12", "1.5", "1:30", "#fff", "- x", "a: b", "a #b", "[x]", "",
      " padded", "GØR KLAR", "quote\"s", "back\\slash", "@home",
    ]
    for text in texts {
      let printed =
        "words:\n  work: " + ConfigurationPrinterProbe.quote(text)
        + "\npresets:\n  t:\n    mode: clock\n"
      let result = load(printed)
      if text.allSatisfy(\.isWhitespace) {
        #expect(result.configuration == nil)
        continue
      }
      #expect(result.configuration?.wordOverrides[.work] == text, "\(text) printed as \(printed)")
    }
  }
}

/// Reaches the printer's quoting through a whole configuration, the only public way in.
enum ConfigurationPrinterProbe {
  static func quote(_ text: String) -> String {
    guard
      var config = ConfigurationLoader.load(
        text: "presets:\n  t:\n    mode: clock\n", file: "probe.yaml", plugins: []
      ).configuration
    else { return "?" }
    config.wordOverrides = [.work: text]
    let printed = ConfigurationPrinter.render(config, plugins: [])
    guard let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("  work: ") })
    else { return "?" }
    return String(line.dropFirst("  work: ".count))
  }
}
