// SPDX-License-Identifier: MIT
// The one parser of written tempos, shared by the config's `tempo:` key and the notation.

import Testing
import WorkoutCore

@Suite("Tempo text")
struct TempoParsingTests {
  @Test(
    "tempos in half-seconds",
    arguments: [
      ("4010", [8, 0, 2, 0]), ("3-0-1.5-0", [6, 0, 3, 0]), ("0000", [0, 0, 0, 0]),
      ("9-9-9-9", [18, 18, 18, 18]), ("2.0-0.5-1-0", [4, 1, 2, 0]), ("1.50-0-0-0", [3, 0, 0, 0]),
      ("30X0", [6, 0, 0, 0]), ("31x0", [6, 2, 0, 0]), ("3-1-X-0", [6, 2, 0, 0]),
    ])
  func tempo(text: String, expected: [Int]) throws {
    #expect(try Tempo.parse(text).get().halfSeconds == expected)
  }

  @Test(
    "malformed tempos",
    arguments: [
      ("9.5-0-1-0", "each tempo value must be between 0 and 9 seconds, found '9.5' in '9.5-0-1-0'"),
      ("10-0-1-0", "each tempo value must be between 0 and 9 seconds, found '10' in '10-0-1-0'"),
      ("1.25-0-1-0", "tempo values go in half-second steps, found '1.25' in '1.25-0-1-0'"),
      ("3-0-1", "a tempo has four values (lower, pause, lift, pause), found 3 in '3-0-1'"),
      ("3-0-1-0-2", "a tempo has four values (lower, pause, lift, pause), found 5 in '3-0-1-0-2'"),
      ("401", "a tempo needs exactly four digits, found 3 in '401'"),
      ("40100", "a tempo needs exactly four digits, found 5 in '40100'"),
      ("abcd", "expected a tempo like '4010' or '3-0-1.5-0', found 'abcd'"),
      ("", "expected a tempo like '4010' or '3-0-1.5-0', found ''"),
      ("3--1-0", "expected a tempo value like '3' or '1.5', found '' in '3--1-0'"),
      ("y-0-1-0", "expected a tempo value like '3' or '1.5', found 'y' in 'y-0-1-0'"),
      ("1.-0-1-0", "expected a tempo value like '3' or '1.5', found '1.' in '1.-0-1-0'"),
      ("X010", "'X' (explosive) can only be the lift, the third value, found in 'X010'"),
      ("3-0-1-x", "'X' (explosive) can only be the lift, the third value, found in '3-0-1-x'"),
    ])
  func malformedTempo(text: String, message: String) {
    guard case .failure(let error) = Tempo.parse(text) else {
      Issue.record("'\(text)' was accepted")
      return
    }
    #expect(error.message == message)
  }

  @Test("the written form uses X for an explosive lift and digits when it can")
  func written() throws {
    #expect(try Tempo.parse("3-1-0-0").get().written == "31X0")
    #expect(try Tempo.parse("4010").get().written == "4010")
    #expect(try Tempo.parse("3-0-1.5-0").get().written == "3-0-1.5-0")
  }
}
