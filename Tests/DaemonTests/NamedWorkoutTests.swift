// SPDX-License-Identifier: MIT
// Workouts by name in the daemon, on manual time: `load` with `workout: "cindy"` runs the
// benchmark workout with its whiteboard, a preset of the same name wins over the library's, the
// gym's own workouts file is read, and the presets reply lists the library.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

@Suite struct NamedWorkoutTests {
  @Test func loadByNameRunsTheWorkoutWithItsWhiteboard() throws {
    let scratch = try ScratchDirectory(prefix: "wodclock-named-")
    let workouts = scratch.file("workouts.yaml")
    try FileSystem.writeFileAtomically(
      workouts, text: "filthy fifty: [\"for time cap 30\", 50 box jumps 24/20 in]\n")
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: """
        workouts: \(workouts)
        presets:
          fran: "21-15-9 for time cap 10"
        outputs:
          - {type: test-output, id: probe}
        """, kinds: [.recordingOutput(record)])
    clock.start()

    let loaded = try clock.request(#"{"cmd": "load", "workout": "cindy", "start": true}"#)
    #expect(loaded["ok"]?.boolValue == true, "\(loaded)")
    var status = try clock.status()
    #expect(status["preset"] == .string("Cindy"))
    #expect(
      status["workout"]
        == .string("amrap 20\n5 pull-ups\n10 push-ups\n15 air squats\nScore: rounds + reps"))
    #expect(status["mode"] == .string("amrap"))
    #expect(status["remaining_s"]?.doubleValue == 1200)
    clock.run(for: 12)
    status = try clock.status()
    #expect(status["state"] == .string("running"))
    #expect(clock.logLines(containing: "workout loaded").last?.contains("preset=Cindy") == true)

    // A preset of the name wins over the library's Fran, whatever the case.
    let fran = try clock.request(#"{"cmd": "load", "workout": "Fran", "replace": true}"#)
    #expect(fran["ok"]?.boolValue == true, "\(fran)")
    #expect(try clock.status()["preset"] == .string("fran"))

    // The gym's own, by a spelling of its name.
    let own = try clock.request(#"{"cmd": "load", "workout": "Filthy-Fifty"}"#)
    #expect(own["ok"]?.boolValue == true, "\(own)")
    status = try clock.status()
    #expect(status["preset"] == .string("filthy fifty"))
    #expect(status["workout"] == .string("for time cap 30\n50 box jumps 24/20 in"))

    // The presets reply lists the library, the gym's own first.
    let presets = try clock.request(#"{"cmd": "presets"}"#)
    let library = try #require(presets["library"]?.arrayValue)
    #expect(library.first?["name"] == .string("filthy fifty"))
    #expect(library.first?["kind"] == .string("gym"))
    let cindy = try #require(library.first { $0["name"] == .string("Cindy") })
    #expect(cindy["kind"] == .string("girl"))
    #expect(cindy["workout"] == .string("amrap 20"))
    #expect(cindy["whiteboard"]?.arrayValue?.count == 4)
    #expect(cindy["mode"] == .string("amrap"))
    #expect(cindy["length_s"]?.doubleValue == 1200)
    #expect(library.contains { $0["name"] == .string("Fight Gone Bad") })
  }
}
