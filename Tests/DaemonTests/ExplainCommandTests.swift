// SPDX-License-Identifier: MIT
// `wodclockctl explain` through the real binary: no daemon runs for any of these.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@Suite struct ExplainCommandTests {
  /// wodclockctl with a socket path nothing listens on, so a test would see a command that
  /// needed the daemon.
  private func explain(_ arguments: [String]) throws -> (
    status: Int32, output: String, error: String
  ) {
    try run(
      binaryDirectory + "/wodclockctl",
      ["--socket", "/nonexistent/wodclockd.sock", "explain"] + arguments)
  }

  @Test func theWordsAfterExplainAreTheWorkoutUnquoted() throws {
    let result = try explain(["amrap", "14"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.hasPrefix("AMRAP 14:00 after a 10 s count-in\n"))
    #expect(result.output.contains("total     14:00, 14:10 with the count-in\n"))
    #expect(result.error.isEmpty)
  }

  @Test func jsonReadsBack() throws {
    let result = try explain(["warm-up", "8:00", "+", "amrap", "12", "--json"])
    #expect(result.status == 0, "\(result.error)")
    let value = try JSONValue.parse(result.output)
    #expect(value["mode"]?.stringValue == "sequence")
    #expect(value["total_s"] == .integer(1210))
    #expect(value["count_in_s"] == .integer(10))
    #expect(value["parts"]?.arrayValue?.count == 2)
    #expect(value["parts"]?[1]?["length_s"] == .integer(720))
    let open = try JSONValue.parse(try explain(["for", "time", "--json"]).output)
    #expect(open["total_s"] == .null)
  }

  @Test func aBadTextShowsItsDiagnosticAndExits65() throws {
    let result = try explain(["amarp", "12"])
    #expect(result.status == 65)
    #expect(result.output.isEmpty)
    #expect(
      result.error
        == "workout:1:1: error: unknown word 'amarp': expected a workout\namarp 12\n^~~~~\n"
        + "hint: did you mean 'amrap'?\n")
  }

  @Test func noTextIsAUsageError() throws {
    for arguments in [[], [""]] {
      let result = try explain(arguments)
      #expect(result.status == 64)
      #expect(result.error.contains("'explain' needs a workout"))
      #expect(result.error.contains("usage: wodclockctl explain [--config FILE] TEXT... [--json]"))
    }
    let help = try explain(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("65 the text is not a workout"))
    let list = try run(binaryDirectory + "/wodclockctl", ["--help"])
    #expect(list.output.contains("  explain TEXT...       what a written workout means"))
  }

  @Test func aBenchmarkWorkoutIsFoundByItsName() throws {
    let result = try explain(["--config", "/nonexistent.yaml", "cindy"])
    #expect(result.status == 78)
    #expect(result.error.contains("cannot read the configuration '/nonexistent.yaml'"))
    let cindy = try explain(["Fight", "Gone", "Bad", "--json"])
    #expect(cindy.status == 0, "\(cindy.error)")
    let value = try JSONValue.parse(cindy.output)
    #expect(value["name"] == .string("Fight Gone Bad"))
    #expect(value["total_s"] == .integer(1020))
    #expect(value["whiteboard"]?.arrayValue?.count == 6)
  }

  @Test func theConfigGivesItsPresetsAndTheGymsOwnWorkouts() throws {
    let scratch = try ScratchDirectory(prefix: "wodclock-explain-")
    try FileSystem.writeFileAtomically(
      scratch.file("workouts.yaml"), text: "filthy fifty: [\"for time cap 30\", 50 box jumps]\n")
    try FileSystem.writeFileAtomically(
      scratch.file("wodclock.yaml"),
      text: "workouts: workouts.yaml\npresets:\n  fran: \"amrap 5\"\n")
    let own = try explain(["--config", scratch.file("wodclock.yaml"), "filthy", "fifty"])
    #expect(own.status == 0, "\(own.error)")
    #expect(own.output.hasPrefix("filthy fifty: For Time, cap 30:00 after a 10 s count-in\n"))
    #expect(own.output.contains("\nwhiteboard:\n  50 box jumps\n"))
    let fran = try explain(["--config=" + scratch.file("wodclock.yaml"), "fran"])
    #expect(fran.status == 0, "\(fran.error)")
    #expect(
      fran.output.contains(
        "note: 'fran' is a preset of this config: loading 'fran' runs the preset, not the"
          + " benchmark workout Fran explained here\n"))
    try FileSystem.writeFileAtomically(
      scratch.file("workouts.yaml"), text: "tabata: amrap 5\n")
    let broken = try explain(["--config", scratch.file("wodclock.yaml"), "cindy"])
    #expect(broken.status == 78)
    #expect(
      broken.error.contains("workouts.yaml:1:1: error: 'tabata' is a workout in the notation"))
  }
}
