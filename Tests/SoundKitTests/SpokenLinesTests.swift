// SPDX-License-Identifier: MIT
// The spoken lines: complete in every language, overridable, and what each cue says.

import DisplayKit
import SoundKit
import Testing
import WorkoutCore

@Suite struct SpokenLinesTests {
  @Test(arguments: Language.allCases) func everyLineHasItsOwnTextInEveryLanguage(language: Language)
  {
    let lines = SpokenLines(language: language)
    for key in LineKey.allCases {
      #expect(lines.lines[key].map { !$0.allSatisfy(\.isWhitespace) } == true, "\(language) \(key)")
    }
    // The numbers and the completion lines are all different: a count never repeats a word.
    #expect(Set(LineKey.numbers.map { lines[$0] }).count == 9)
    #expect(Set(LineKey.completions.map { lines[$0] }).count == LineKey.completions.count)
    #expect(lines[.roundsRemaining].contains("{n}"))
    #expect(lines.roundsRemaining(5)?.contains("5") == true)
    #expect(lines.roundsRemaining(1) == lines[.lastRound])
    if language != .english {
      #expect(lines[.getReady] != SpokenLines(language: .english)[.getReady], "\(language)")
    }
  }

  @Test func overridesReplaceLinesAndBlankOnesAreIgnored() {
    let lines = SpokenLines(language: .danish).with(overrides: [
      .getReady: "Klar, parat", .rest: "  ", .roundsRemaining: "{n} tilbage, {n}!",
    ])
    #expect(lines[.getReady] == "Klar, parat")
    #expect(lines[.rest] == "Pause")
    #expect(lines.roundsRemaining(10) == "10 tilbage, 10!")
  }

  @Test func allTextsListsEveryDistinctLineOnce() {
    let lines = SpokenLines(language: .german)
    let texts = lines.allTexts
    #expect(texts.count == Set(texts).count)
    #expect(texts.contains("Noch 10 Runden") && texts.contains("Noch 2 Runden"))
    #expect(!texts.contains { $0.contains("{n}") })
    // Every line but the template and the word `next` says with a movement, and the three
    // counts announced by default.
    #expect(texts.count == LineKey.allCases.count - 2 + 3)
    // Each movement of the workout: its announcement after the rest and the count-in.
    var announcing = lines
    announcing.movements = ["10 Burpees"]
    #expect(
      Array(announcing.allTexts.suffix(2)) == [
        "Pause. Als Nächstes: 10 Burpees", "Mach dich bereit. Als Nächstes: 10 Burpees",
      ])
    // A line overridden to another's text is synthesized once.
    #expect(lines.with(overrides: [.go: "Pause"]).allTexts.count == texts.count - 1)
    #expect(lines.allTexts(roundsRemaining: [3, 1]).contains("Noch 3 Runden"))
  }

  @Test func theCompletionLineFollowsTheSeedAndUsesEveryLine() {
    let lines = SpokenLines(language: .english)
    #expect(lines.completion(seed: 123_456_789) == lines.completion(seed: 123_456_789))
    let picked = Set((0..<64).map { lines.completion(seed: Int64($0) * 1_000_000_000) })
    #expect(picked == Set(LineKey.completions.map { lines[$0] }))
  }

  @Test func eachCueSpeaksItsLine() {
    let lines = SpokenLines(language: .english)
    let rules = SpeakerCueRules.standard
    let said: [(CueKind, String?)] = [
      (.segmentStart(.countIn), "Get ready"), (.segmentStart(.work), nil),
      (.segmentStart(.setRest), "Rest"), (.segmentStart(.eccentric), "Down"),
      (.segmentStart(.bottomPause), "Hold"), (.segmentStart(.concentric), "Up"),
      (.countdown(secondsLeft: 3, ending: .work), "Three"),
      (.countdown(secondsLeft: 1, ending: .countIn), "One"), (.halfway, "Halfway"),
      (.lastTenSeconds, "Ten seconds"), (.roundsRemaining(10), "10 rounds to go"),
      (.roundsRemaining(1), "Last round"), (.sideSwitch(to: .right), "Switch sides"),
      (.capReached, "Time cap"), (.repComplete(Counter(1, of: 5)), nil),
    ]
    for (kind, line) in said {
      #expect(rules.voiceLine(for: kind, seed: 0, lines: lines) == line, "\(kind)")
    }
    // A reverse-direction lift swaps the spoken arrows as the display swaps the drawn ones.
    var reversed = rules
    reversed.reverseDirection = true
    #expect(reversed.voiceLine(for: .segmentStart(.eccentric), seed: 0, lines: lines) == "Up")
    #expect(reversed.voiceLine(for: .segmentStart(.concentric), seed: 0, lines: lines) == "Down")
    #expect(
      LineKey.completions.map { lines[$0] }.contains(
        rules.voiceLine(for: .finish, seed: 42, lines: lines) ?? ""))
  }

  @Test func aTempoPhaseCountsItsSecondsAloud() {
    let lines = SpokenLines(language: .german)
    let rules = SpeakerCueRules.standard
    #expect(rules.voiceLine(for: .tempoCount(3), seed: 0, lines: lines) == lines.number(3))
    #expect(rules.rule(for: .tempoCount(3))?.voice == .withSounds)
  }
}
