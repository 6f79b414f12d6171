// SPDX-License-Identifier: MIT
// `wodclockctl schedule` against the real daemon: today's classes, the next one, and the
// kernel's sync status, for a person and as JSON.

import HardwareKit
import JSONKit
import Testing

@Suite struct ScheduleCommandTests {
  /// Two classes every day, at the first and the last minute of it: whenever the test runs,
  /// both are today's, in this order (the daemon runs in UTC).
  static let config = """
    presets:
      fran:
        mode: for_time
        cap: 10m
      tabata:
        mode: tabata
    schedule:
      lead: 10m
      classes:
        - {days: daily, at: "23:59", name: Late class, workout: tabata}
        - {days: daily, at: "00:00", name: Midnight, workout: fran}
    """

  @Test func scheduleListsTodaysClassesAndTheNextOne() throws {
    let daemon = try DaemonHarness(config: Self.config)
    try daemon.start()

    let json = try daemon.ctl(["--json", "schedule"])
    #expect(json.status == 0)
    let reply = try JSONValue.parse(json.output)
    let classes = reply["classes"]?.arrayValue ?? []
    #expect(classes.compactMap { $0["name"]?.stringValue } == ["Midnight", "Late class"])
    #expect(classes.compactMap { $0["at"]?.stringValue } == ["00:00", "23:59"])
    #expect(classes.compactMap { $0["workout"]?.stringValue } == ["fran", "tabata"])
    #expect(reply["lead_s"]?.doubleValue == 600)
    let synchronized = reply["synchronized"]?.boolValue
    #expect(synchronized != nil)
    let next = try #require(reply["next"]?.objectValue)
    #expect(["Midnight", "Late class"].contains(next["name"]?.stringValue ?? ""))
    #expect(next["load_unix"]?.intValue.map { $0 + 600 } == next["start_unix"]?.intValue)

    let human = try daemon.ctl(["schedule"])
    #expect(human.status == 0)
    let today = reply["today"]?.stringValue ?? "?"
    #expect(human.output.contains("today ("))
    #expect(human.output.contains(today + "):\n  00:00  Midnight"))
    #expect(human.output.contains("\n  23:59  Late class           tabata"))
    #expect(human.output.contains(", loaded 10 min before\n"))
    #expect(human.output.contains("the clock is not synchronized") == (synchronized == false))
  }
}
