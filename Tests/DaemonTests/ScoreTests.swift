// SPDX-License-Identifier: MIT
// The score on the wall as a coach reads it: after five laps of an AMRAP, the status, the
// terminal, the log line and the matrix all say five rounds done; a For Time rep scheme shows
// the reps of the round under way.

import DisplayKit
import JSONKit
import Testing
import WorkoutCore

@testable import MatrixKit
@testable import WodclockDaemon

private let scoreConfig = """
  defaults:
    preset: amrap
    count_in: 10s
  presets:
    amrap:
      mode: amrap
      time: 14m
    fran:
      mode: for_time
      cap: 10m
      reps: [21, 15, 9]
  outputs:
    - {type: test-output, id: probe}
  """

@Suite struct ScoreTests {
  /// The counters the displays that write words show for `snapshot`.
  private func counters(_ snapshot: WorkoutSnapshot) -> (
    terminal: String, line: String, matrix: String
  ) {
    let terminal = TimeText.rounds(snapshot, words: .english)
    let line = PlainLine.render(snapshot)
    let matrix = MatrixRenderer(width: 128, height: 64).counterText(
      snapshot, maxWidth: 128, scale: 1)
    return (terminal, line, matrix)
  }

  @Test func afterFiveLapsOfAnAMRAPEveryDisplayAndTheStatusSayFiveRounds() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: scoreConfig, kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 10.5)
    let beforeAnyLap = try clock.status()
    #expect(beforeAnyLap["round"] == .null)
    #expect(beforeAnyLap["laps"]?.intValue == 0)
    for _ in 1...5 {
      clock.run(for: 30)
      #expect(try clock.request(#"{"cmd": "lap"}"#)["ok"]?.boolValue == true)
    }
    clock.run(for: 1)
    let status = try clock.status()
    #expect(status["round"]?.intValue == 5)
    #expect(status["rounds"] == .null)
    #expect(status["laps"]?.intValue == 5)
    let snapshot = try #require(record.frames.last?.snapshot)
    let shown = counters(snapshot)
    #expect(shown.terminal == "LAP 5")
    #expect(shown.line.contains(" LAP 5"))
    #expect(!shown.line.contains("R 6"))
    #expect(shown.matrix == "LAP 5")
  }

  @Test func aRepSchemeShowsTheRepsOfTheRoundUnderWay() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(config: scoreConfig, kinds: [.recordingOutput(record)])
    clock.start()
    _ = try clock.request(#"{"cmd": "load", "preset": "fran"}"#)
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 20)
    #expect(try clock.status()["round"]?.intValue == 1)
    #expect(try clock.status()["rounds"]?.intValue == 3)
    #expect(try clock.status()["target_reps"]?.intValue == 21)
    var shown = counters(try #require(record.frames.last?.snapshot))
    #expect(shown.terminal == "R 1/3 · ×21")
    #expect(shown.matrix == "R 1/3 ×21")
    _ = try clock.request(#"{"cmd": "lap"}"#)
    clock.run(for: 1)
    shown = counters(try #require(record.frames.last?.snapshot))
    #expect(shown.terminal == "R 2/3 · ×15")
    #expect(try clock.status()["target_reps"]?.intValue == 15)
    _ = try clock.request(#"{"cmd": "lap"}"#)
    _ = try clock.request(#"{"cmd": "lap"}"#)
    clock.run(for: 1)
    #expect(try clock.status()["state"]?.stringValue == "finished")
  }
}
