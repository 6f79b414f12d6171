// SPDX-License-Identifier: MIT

import ConfigFormat
import Testing

@Suite("Did-you-mean suggestions")
struct ClosestMatchTests {
  static let keys = ["rounds", "work", "rest", "brightness", "type", "label", "tempo", "cap"]

  @Test(
    "close typos find their key",
    arguments: [
      ("rouds", "rounds"), ("brigthness", "brightness"), ("wokr", "work"), ("Rounds", "rounds"),
      ("lable", "label"), ("tmepo", "tempo"), ("typ", "type"), ("brightnes", "brightness"),
      ("rest", "rest"),
    ])
  func suggests(word: String, expected: String) {
    #expect(closestMatch(to: word, among: Self.keys) == expected)
  }

  @Test("unrelated words get no suggestion", arguments: ["xyz", "colour", "duration", "", "zzzzz"])
  func noSuggestion(word: String) {
    #expect(closestMatch(to: word, among: Self.keys) == nil)
  }

  @Test("ties go to the earlier candidate, and no candidates give nothing")
  func tiesAndEmpty() {
    #expect(closestMatch(to: "cat", among: ["cap", "car"]) == "cap")
    #expect(closestMatch(to: "cat", among: []) == nil)
  }

  @Test("edit distance counts adjacent swaps as one edit")
  func distances() {
    #expect(editDistance("kitten", "sitting") == 3)
    #expect(editDistance("ab", "ba") == 1)
    #expect(editDistance("brigthness", "brightness") == 1)
    #expect(editDistance("", "abc") == 3)
    #expect(editDistance("abc", "") == 3)
    #expect(editDistance("ABC", "abc") == 0)
    #expect(editDistance("café", "cafe") == 1)
  }
}
