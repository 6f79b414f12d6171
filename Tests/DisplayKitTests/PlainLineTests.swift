// SPDX-License-Identifier: MIT
// The one-line rendering for pipes and logs.

import DisplayKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct PlainLineTests {
  @Test func oneLinePerMode() throws {
    let cases: [(WorkoutSnapshot, String)] = [
      (
        try snapshot(.forTime(ForTimeParameters(cap: .minutes(20))), label: "Fran", after: 754.9),
        "12:34 WORK Fran"
      ),
      (
        try snapshot(.forTime(ForTimeParameters(rounds: 5)), countIn: 10, after: 3),
        "0:07 GET READY R 1/5"
      ),
      (try snapshot(amrap20, label: "Cindy", after: 446), "12:34 WORK Cindy"),
      (
        try snapshot(
          .emom(EMOMParameters(rounds: 10, labels: ["burpees", "wall balls"])), after: 130.5),
        "0:50 WORK R 3/10 burpees"
      ),
      (
        try snapshot(
          .intervals(
            IntervalParameters(
              work: .seconds(40), rest: .seconds(20), rounds: 5, sets: 2, setRest: .seconds(60))),
          after: 50),
        "0:10 REST R 1/5 SET 1/2"
      ),
      (try snapshot(tabata, after: 62), "0:18 WORK R 3/8"),
      (try snapshot(squats, after: 2.5), "0:02 DOWN SET 1/3 REP 1/5 LEFT ↓4·0·↑1·0"),
      (
        try snapshot(
          .sequence(
            SequenceParameters(steps: [
              SequenceStep(name: "warm-up row", duration: .minutes(5)),
              SequenceStep(name: "pull-ups", reps: 10),
            ])), after: 320),
        "0:20 WORK ×10 pull-ups"
      ),
      (try snapshot(tabata, after: 5, pauseAt: 3), "0:17 PAUSED R 1/8"),
      (try snapshot(tabata, after: 600), "0:00 DONE R 8/8"),
      (try snapshot(tabata, after: nil), "0:20 READY R 1/8"),
    ]
    for (snapshot, expected) in cases {
      #expect(PlainLine.render(snapshot, words: .english) == expected)
    }
  }

  @Test func clockLine() throws {
    let clock = try snapshot(.clock(ClockFace(twentyFourHour: false)), after: nil)
    #expect(
      PlainLine.render(clock, timeOfDay: TimeOfDay(hour: 21, minute: 5, second: 9)) == "9:05 PM")
    #expect(PlainLine.render(clock) == "CLOCK")
    let seconds = try snapshot(.clock(ClockFace(showSeconds: true)), after: nil)
    #expect(
      PlainLine.render(
        seconds, words: DisplayWords(language: .danish),
        timeOfDay: TimeOfDay(hour: 7, minute: 3, second: 9)) == "07:03:09")
  }

  @Test func otherLanguages() throws {
    let spanish = DisplayWords(language: .spanish)
    #expect(
      PlainLine.render(try snapshot(tabata, after: 25), words: spanish) == "0:05 DESCANSO R 1/8")
    let capped = try snapshot(.forTime(ForTimeParameters(cap: .minutes(12))), after: 800)
    #expect(PlainLine.render(capped, words: DisplayWords(language: .french)) == "12:00 LIMITE")
  }

  @Test func changesOnlyWhenSomethingVisibleChanges() throws {
    var engine = try WorkoutEngine(plan: plan(tabata, countIn: 10))
    _ = try engine.apply(.start, at: at(0))
    var lines: [String] = []
    // Every 50 ms for the first 40 s: one line per displayed second, plus phase changes.
    for step in 0...800 {
      _ = engine.advance(to: at(Double(step) * 0.05))
      let line = PlainLine.render(engine.snapshot(at: at(Double(step) * 0.05)))
      if line != lines.last { lines.append(line) }
    }
    #expect(lines.count == 41)
    #expect(lines.first == "0:10 GET READY")
    #expect(lines[10] == "0:20 WORK R 1/8")
    #expect(lines[30] == "0:10 REST R 1/8")
    #expect(Set(lines).count == lines.count)
  }
}
