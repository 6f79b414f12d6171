// SPDX-License-Identifier: MIT
// Display words: completeness per language, overrides and the phase word of each state.

import DisplayKit
import Testing
import WorkoutCore

@Suite struct WordTests {
  @Test(arguments: Language.allCases)
  func everyLanguageHasEveryWord(_ language: Language) {
    let words = DisplayWords(language: language)
    #expect(words.language == language)
    for key in WordKey.allCases {
      let word = words[key]
      #expect(!word.isEmpty && !word.allSatisfy(\.isWhitespace), "\(language) \(key)")
      #expect(word == word.uppercased(), "\(language) \(key) is upper case")
      #expect(words.words[key] == word, "\(language) \(key) is built in")
      #expect(word.count <= 13, "\(language) \(key) is short")
    }
  }

  @Test func languageCodesAreStable() {
    #expect(Language.allCases.map(\.code) == ["en", "da", "es", "nl", "fr", "de"])
    #expect(Language(rawValue: "da") == .danish)
  }

  @Test func configKeysAreStableSnakeCase() {
    #expect(
      WordKey.allCases.map(\.rawValue) == [
        "work", "rest", "get_ready", "set_rest", "side_switch", "done", "cap", "paused", "round",
        "set", "rep", "lap", "left", "right", "down", "up", "hold", "ready", "for_time", "amrap",
        "emom", "intervals", "tabata", "tempo", "sequence", "clock",
      ])
    for mode in ModeName.allCases { #expect(WordKey(mode: mode).rawValue == mode.rawValue) }
  }

  @Test(arguments: [
    (Language.english, "WORK", "REST", "GET READY", "DONE"),
    (.danish, "ARBEJD", "PAUSE", "GØR KLAR", "FÆRDIG"),
    (.spanish, "TRABAJO", "DESCANSO", "PREPÁRATE", "TERMINADO"),
    (.dutch, "WERK", "RUST", "MAAK JE KLAAR", "KLAAR"),
    (.french, "TRAVAIL", "REPOS", "PRÉPAREZ-VOUS", "TERMINÉ"),
    (.german, "ARBEIT", "PAUSE", "VORBEREITEN", "FERTIG"),
  ])
  func coreWords(
    _ language: Language, _ work: String, _ rest: String, _ ready: String, _ done: String
  ) {
    let words = DisplayWords(language: language)
    #expect(words[.work] == work)
    #expect(words[.rest] == rest)
    #expect(words[.getReady] == ready)
    #expect(words[.done] == done)
  }

  @Test func stateWordsNeverCollideWithPhaseWords() {
    // A paused rest and a running rest must read differently, so must idle and done.
    for language in Language.allCases {
      let words = DisplayWords(language: language)
      let distinct: [WordKey] = [.work, .rest, .paused, .done, .ready, .getReady, .hold]
      #expect(Set(distinct.map { words[$0] }).count == distinct.count, "\(language)")
    }
  }

  @Test func overridesReplaceSingleWords() {
    let words = DisplayWords(language: .english).with(overrides: [
      .work: "GO!", .rest: "BREATHE", .cap: "  ", .done: "",
    ])
    #expect(words[.work] == "GO!")
    #expect(words[.rest] == "BREATHE")
    #expect(words[.cap] == "CAP")
    #expect(words[.done] == "DONE")
    #expect(words[.round] == "ROUND")
    #expect(words.title(of: .forTime) == "FOR TIME")
    #expect(DisplayWords(language: .french).title(of: .sequence) == "SÉQUENCE")
  }

  @Test func phaseWordOfEachStateAndSegment() throws {
    let words = DisplayWords.english
    #expect(words.word(for: try snapshot(tabata, countIn: 10, after: 2)) == "GET READY")
    #expect(words.word(for: try snapshot(tabata, after: 5)) == "WORK")
    #expect(words.word(for: try snapshot(tabata, after: 25)) == "REST")
    let sets = WorkoutMode.intervals(
      IntervalParameters(
        work: .seconds(30), rest: .seconds(10), rounds: 2, sets: 2, setRest: .seconds(60)))
    #expect(words.word(for: try snapshot(sets, after: 75)) == "SET REST")
    let tempo = WorkoutMode.tempo(
      TempoParameters(
        tempo: Tempo(halfSeconds: [4, 2, 2, 2]), reps: 1, unilateral: true,
        switchPause: .seconds(5)))
    #expect(words.word(for: try snapshot(tempo, after: 1)) == "DOWN")
    #expect(words.word(for: try snapshot(tempo, after: 2.5)) == "HOLD")
    #expect(words.word(for: try snapshot(tempo, after: 3.5)) == "UP")
    #expect(words.word(for: try snapshot(tempo, after: 4.5)) == "HOLD")
    #expect(words.word(for: try snapshot(tempo, after: 7)) == "SWITCH")
    #expect(words.word(for: try snapshot(tabata, after: 5, pauseAt: 3)) == "PAUSED")
    #expect(words.word(for: try snapshot(tabata, after: 500)) == "DONE")
    #expect(words.word(for: try snapshot(tabata, after: nil)) == "READY")
    #expect(words.key(for: try snapshot(.clock(ClockFace()), after: nil)) == .clock)
  }

  @Test func reversedLiftsSwapTheArrows() throws {
    let pulldown = WorkoutMode.tempo(
      TempoParameters(tempo: Tempo(halfSeconds: [4, 0, 2, 0]), reps: 2, reverseDirection: true))
    let words = DisplayWords(language: .danish)
    #expect(words.word(for: try snapshot(pulldown, after: 1)) == "OP")
    #expect(words.word(for: try snapshot(pulldown, after: 2.5)) == "NED")
  }

  @Test func cappedForTimeSaysCap() throws {
    let capped = WorkoutMode.forTime(ForTimeParameters(cap: .minutes(12)))
    let atCap = try snapshot(capped, after: 12 * 60 + 1)
    #expect(atCap.runState == .finished)
    #expect(DisplayWords.english.word(for: atCap) == "CAP")
    #expect(DisplayWords(language: .german).word(for: atCap) == "ZEITLIMIT")
    let finished = try snapshot(capped, after: 400, finishAt: 300)
    #expect(DisplayWords.english.word(for: finished) == "DONE")
  }
}
