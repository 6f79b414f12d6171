// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// The `heats:` section: how a throwdown's heats and a class's lanes run, what is refused (with
/// its place and hint), and `--print-config`.
@Suite("Heats section")
struct HeatsSectionTests {
  static let presets = "presets:\n  t:\n    mode: for_time\n"

  static func heats(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    -> HeatsSettings?
  {
    configuration(presets + text, sourceLocation: sourceLocation)?.heats
  }

  @Test("without the section, the defaults; with it, each key")
  func keys() throws {
    #expect(try #require(Self.heats("")) == HeatsSettings())
    let settings = try #require(
      Self.heats(
        "heats:\n  lanes: 12\n  transition: 90s\n  time_format: seconds\n"
          + "  speak_finishes: false\n  cap_rep_seconds: true\n  total_reps: 165\n"))
    #expect(settings.lanes == 12)
    #expect(settings.transition == .seconds(90))
    #expect(settings.timeFormat == .seconds)
    #expect(!settings.speakFinishes)
    #expect(settings.capRepSeconds && settings.totalReps == 165)
  }

  @Test("a value out of its bounds, an unknown key, and the cap rule without the reps")
  func refused() {
    let lanes = LoaderTests.rendered(Self.presets + "heats:\n  lanes: 65\n")
    #expect(lanes.contains("wodclock.yaml:5:10: error:"), "\(lanes)")
    #expect(lanes.contains("lanes"), "\(lanes)")
    let transition = LoaderTests.rendered(Self.presets + "heats:\n  transition: 5s\n")
    #expect(transition.contains("wodclock.yaml:5:15: error:"), "\(transition)")
    let unknown = LoaderTests.rendered(Self.presets + "heats:\n  lane: 8\n")
    #expect(unknown.contains("unknown key 'lane'"), "\(unknown)")
    #expect(unknown.contains("did you mean 'lanes'?"), "\(unknown)")
    let cap = LoaderTests.rendered(Self.presets + "heats:\n  cap_rep_seconds: true\n")
    #expect(
      cap.contains(
        "wodclock.yaml:5:20: error: 'cap_rep_seconds' needs 'total_reps': the workout's reps"),
      "\(cap)")
    #expect(cap.contains("hint: add 'total_reps: 165'"), "\(cap)")
  }

  @Test("--print-config writes the section back when it is set; both load the same")
  func printing() throws {
    let set = try #require(
      configuration(
        Self.presets + "heats:\n  lanes: 4\n  cap_rep_seconds: true\n  total_reps: 90\n"))
    let printed = ConfigurationPrinter.render(set, plugins: TestPlugins.all)
    #expect(
      printed.contains(
        "\nheats:\n  lanes: 4\n  transition: 2m\n  time_format: tenths\n  speak_finishes: true\n"
          + "  cap_rep_seconds: true\n  total_reps: 90\n"), "\(printed)")
    PrinterTests.checkRoundTrip(set)
    let unset = try #require(configuration(Self.presets))
    #expect(!ConfigurationPrinter.render(unset, plugins: TestPlugins.all).contains("\nheats:"))
    PrinterTests.checkRoundTrip(unset)
  }
}
