// SPDX-License-Identifier: MIT
// What `explain` tells of a written workout: the coach's line, the parts, the total, the
// count-in, the readings, and the JSON scripts read.

import JSONKit
import Testing
import WorkoutCore
import WorkoutNotation

@Suite("Notation explanations")
struct ExplanationTests {
  func explained(_ text: String) throws -> WorkoutExplanation {
    try WorkoutNotation.explain(text).get()
  }

  func json(_ text: String) throws -> JSONValue {
    try JSONValue.parse(try explained(text).json.serialized())
  }

  @Test func anAMRAPIsItsLengthAfterTheCountIn() throws {
    let explanation = try explained("amrap 14")
    #expect(explanation.summary == "AMRAP 14:00 after a 10 s count-in")
    #expect(explanation.total == .minutes(14))
    #expect(explanation.countIn == .seconds(10))
    #expect(explanation.text.contains("total     14:00, 14:10 with the count-in\n"))
    #expect(
      explanation.readings == [
        "amrap 14: 14:00 counting down (a bare number after a workout word is minutes)"
      ])
    let value = try json("amrap 14")
    #expect(value["mode"]?.stringValue == "amrap")
    #expect(value["total_s"] == .integer(840))
    #expect(value["count_in_s"] == .integer(10))
    #expect(value["rounds"] == .null)
    #expect(value["segments"] == .integer(1))
    #expect(value["parts"]?[0]?["mode"]?.stringValue == "amrap")
    #expect(value["parts"]?[0]?["length_s"] == .integer(840))
  }

  @Test func e2mom16ShowsItIsSixteenMinutesInEightRounds() throws {
    let explanation = try explained("e2mom 16")
    #expect(explanation.summary == "every 2:00 for 8 rounds (16:00) after a 10 s count-in")
    #expect(explanation.rounds == 8)
    #expect(
      explanation.readings.first?.hasPrefix("every 2:00 x 8: 16:00, 8 rounds of 2:00") == true)
    #expect(explanation.parts.first?.pieces.map(\.description) == ["8 × EMOM 2:00"])
    let value = try json("e2mom 16")
    #expect(value["total_s"] == .integer(960))
    #expect(value["rounds"] == .integer(8))
    #expect(value["segments"] == .integer(8))
  }

  @Test func anOpenEndedForTimeHasNoTotal() throws {
    let explanation = try explained("for time no countin")
    #expect(explanation.total == nil)
    #expect(explanation.summary == "For Time, no cap with no count-in")
    #expect(explanation.text.contains("total     open-ended (it runs until finish)\n"))
    let value = try json("for time no countin")
    #expect(value["total_s"] == .null)
    #expect(value["count_in_s"] == .integer(0))
    #expect(value["parts"]?[0]?["length_s"] == .null)
  }

  @Test func aRepSchemeIsReadAsItsRounds() throws {
    let explanation = try explained("21-15-9 for time cap 10")
    #expect(explanation.summary == "21-15-9 for time, cap 10:00 after a 10 s count-in")
    #expect(explanation.rounds == 3)
    #expect(explanation.readings.first?.contains("3 rounds of 21, 15, 9 reps") == true)
    #expect(try json("21-15-9 for time cap 10")["total_s"] == .integer(600))
  }

  @Test func aChainShowsItsPartsAndTheCountInRulesThatApplied() throws {
    let text = "warm-up 8:00 + amrap 12 + rest 3:00 + emom 6"
    let explanation = try explained(text)
    #expect(
      explanation.summary
        == "warm-up 8:00, then AMRAP 12:00, then rest 3:00, then EMOM 6 × 1:00 (6:00);"
        + " 29:10 in all after a 10 s count-in")
    // The AMRAP after the warm-up gets a 10 s get-ready; the EMOM after the rest does not.
    #expect(explanation.parts.map(\.countIn) == [.seconds(10), .seconds(10), .zero, .zero])
    #expect(
      explanation.parts.map(\.length) == [.minutes(8), .minutes(12), .minutes(3), .minutes(6)])
    #expect(explanation.total == .seconds(1750))
    #expect(
      explanation.readings.contains(
        "amrap 12: a 10 s get-ready first, as every workout part that does not follow a rest"))
    #expect(
      explanation.readings.contains("emom 6: no count-in, it starts as the rest before it ends"))
    #expect(explanation.text.contains("1. warm-up 8:00: 8:00\n"))
    #expect(explanation.text.contains("get ready 10 s\n2. amrap 12: 12:00\n"))
    let value = try json(text)
    #expect(value["mode"]?.stringValue == "sequence")
    #expect(value["total_s"] == .integer(1750))
    #expect(
      value["parts"]?.arrayValue?.compactMap { $0["mode"]?.stringValue } == [
        "warm-up", "amrap", "rest", "emom",
      ])
    // warm-up, get ready, AMRAP, rest and six EMOM rounds.
    #expect(value["segments"] == .integer(10))
  }

  @Test func repeatsAreFoldedAndLabelsShown() throws {
    let emom = try explained("emom 12: power clean / burpees")
    #expect(emom.parts.first?.pieces.map(\.description) == ["6 × (power clean 1:00, burpees 1:00)"])
    let tempo = try explained("tempo 31X0 6x4 rest 90s")
    #expect(
      tempo.parts.first?.pieces.map(\.description) == [
        "3 × (6 × (down 0:03, pause 0:01, up 0:01), set rest 1:30)",
        "6 × (down 0:03, pause 0:01, up 0:01)",
      ])
    #expect(tempo.readings.first?.contains("up explosive (X, timed as 1 s)") == true)
  }

  @Test func aTempoThatStartsWithTheLiftOrIsReversedSaysSo() throws {
    let deadlift = try explained("tempo 30X0 5x3 rest 2:00 up first")
    #expect(deadlift.summary.hasPrefix("Tempo 30X0: 3 sets of 5 reps, up first, 2:00 rest"))
    #expect(
      deadlift.readings == [
        "tempo 30X0 5 x 3 rest 2:00 up first: up explosive (X, timed as 1 s), pause at the top"
          + " 0 s, down 3 s, pause at the bottom 0 s; 5 reps × 3 sets, 2:00 rest between sets;"
          + " up first: each rep starts with the lift, as a deadlift or a pull-up does"
      ])
    #expect(
      deadlift.parts.first?.pieces.first?.description
        == "2 × (5 × (up 0:01, down 0:03), set rest 2:00)")

    let pulldown = try explained("tempo 2011 8 x 3 reversed")
    #expect(pulldown.summary.hasPrefix("Tempo 2011: 3 sets of 8 reps, reversed, 1:30 rest"))
    let reading = try #require(pulldown.readings.first)
    #expect(reading.hasPrefix("tempo 2011 8 x 3 rest 1:30 reversed: up 2 s, pause at the top 0 s,"))
    #expect(reading.contains("down 1 s, pause at the bottom 1 s;"))
    #expect(
      reading.hasSuffix(
        "; reversed: the lift is shown going down and the lowering going up, as on a lat pulldown, timed the same"
      ))
    #expect(
      pulldown.parts.first?.pieces.first?.description
        == "2 × (8 × (up 0:02, down 0:01, pause 0:01), set rest 1:30)")
  }

  @Test func aCountInOfTheTextIsTheOneExplained() throws {
    #expect(try explained("tabata countin 5s").summary.hasSuffix(" after a 5 s count-in"))
    #expect(try json("tabata countin 5s")["count_in_s"] == .integer(5))
  }

  @Test func aTextThatIsNoWorkoutIsItsDiagnostic() {
    guard case .failure(let error) = WorkoutNotation.explain("amarp 12") else {
      Issue.record("'amarp 12' was explained")
      return
    }
    #expect(error.rendered().contains("did you mean 'amrap'?"))
  }
}
