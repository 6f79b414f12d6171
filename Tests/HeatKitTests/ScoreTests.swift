// SPDX-License-Identifier: MIT
// Lane times as text, AMRAP scores and the scores a coach types for a class.

import HeatKit
import Testing

@Suite struct LaneTimeFormatTests {
  @Test func timesAreTruncatedTowardThePressNeverRoundedUp() {
    #expect(LaneTimeFormat.tenths.text(milliseconds: 462_399) == "7:42.3")
    #expect(LaneTimeFormat.seconds.text(milliseconds: 462_999) == "7:42")
    #expect(LaneTimeFormat.tenths.text(milliseconds: 59_999) == "0:59.9")
    #expect(LaneTimeFormat.seconds.text(milliseconds: 0) == "0:00")
  }

  @Test func anHourOrMoreHasAnHourField() {
    #expect(LaneTimeFormat.seconds.text(milliseconds: 3_723_000) == "1:02:03")
    #expect(LaneTimeFormat.tenths.text(milliseconds: 3_723_450) == "1:02:03.4")
    #expect(LaneTimeFormat.seconds.text(milliseconds: 3_599_999) == "59:59")
    #expect(LaneTimeFormat.seconds.text(milliseconds: 36_000_000) == "10:00:00")
  }

  @Test func negativeAndExtremeTimesNeverTrap() {
    #expect(LaneTimeFormat.tenths.text(milliseconds: .min) == "0:00.0")
    #expect(LaneTimeFormat.seconds.text(milliseconds: .max) == "2562047788015:12:55")
    #expect(LaneTimeFormat.tenths.truncated(462_399) == 462_300)
    #expect(LaneTimeFormat.seconds.truncated(-5) == 0)
  }
}

@Suite struct AMRAPScoreTests {
  @Test func roundsPlusRepsAndRepsOnlyAreRead() throws {
    #expect(try AMRAPScore.parse("5+12").get() == AMRAPScore(rounds: 5, reps: 12))
    #expect(try AMRAPScore.parse(" 5 + 12 ").get() == AMRAPScore(rounds: 5, reps: 12))
    #expect(try AMRAPScore.parse("87").get() == AMRAPScore(rounds: 0, reps: 87))
    #expect(try AMRAPScore.parse("100000+0").get().rounds == 100_000)
  }

  @Test func malformedOrOutOfRangeScoresSayWhatWasExpected() {
    for text in ["", "5+", "+5", "5+1+2", "-3", "5.5", "100001", "x", "5 12"] {
      guard case .failure(let problem) = AMRAPScore.parse(text) else {
        Issue.record("'\(text)' was read")
        continue
      }
      #expect(problem.message.hasPrefix("expected an AMRAP score as rounds+reps ('5+12')"))
      #expect(problem.hint != nil)
    }
    #expect(AMRAPScore(rounds: -1, reps: 0) == nil)
    #expect(AMRAPScore(rounds: 0, reps: 100_001) == nil)
  }

  @Test func roundsCountBeforeRepsAndTheTextRoundTrips() throws {
    let five12 = try #require(AMRAPScore(rounds: 5, reps: 12))
    let six0 = try #require(AMRAPScore(rounds: 6, reps: 0))
    let reps87 = try #require(AMRAPScore(rounds: 0, reps: 87))
    #expect(five12 < six0)
    #expect(reps87 < five12)
    #expect(five12.description == "5+12")
    #expect(reps87.description == "87")
    #expect(try AMRAPScore.parse(five12.description).get() == five12)
  }
}

@Suite struct ClassScoreTests {
  @Test func timesCappedScoresAndAMRAPScoresAreRead() throws {
    #expect(try ClassScore.parse("7:42").get() == .time(milliseconds: 462_000))
    #expect(try ClassScore.parse("7:42.3").get() == .time(milliseconds: 462_300))
    #expect(try ClassScore.parse("7:42.35").get() == .time(milliseconds: 462_350))
    #expect(try ClassScore.parse("1:02:03").get() == .time(milliseconds: 3_723_000))
    #expect(try ClassScore.parse("0:09").get() == .time(milliseconds: 9000))
    #expect(try ClassScore.parse("CAP+12").get() == .capped(reps: 12))
    #expect(try ClassScore.parse("cap + 3").get() == .capped(reps: 3))
    let score = try #require(AMRAPScore(rounds: 5, reps: 12))
    #expect(try ClassScore.parse("5+12").get() == .amrap(score))
  }

  @Test func aBadTimeSaysWhatATimeLooksLike() {
    for text in ["7:5", "7:60", "7:42.", "7:42.1234", "1:2:3:4", "x:42", "7:42.a", "24:00:01"] {
      guard case .failure(let problem) = ClassScore.parse(text) else {
        Issue.record("'\(text)' was read")
        continue
      }
      #expect(problem.message.contains("'\(text)'"))
      #expect(problem.hint != nil)
    }
  }

  @Test func aBadScoreSaysWhatWasExpected() throws {
    guard case .failure(let cap) = ClassScore.parse("CAP") else {
      Issue.record("'CAP' was read")
      return
    }
    #expect(cap.message == "expected reps done after 'CAP+', found 'CAP'")
    guard case .failure(let word) = ClassScore.parse("fast") else {
      Issue.record("'fast' was read")
      return
    }
    #expect(word.message.hasPrefix("expected a time ('7:42', '7:42.3'), a capped score"))
    guard case .failure(let empty) = ClassScore.parse("  ") else {
      Issue.record("nothing was read")
      return
    }
    #expect(empty.message.hasSuffix("found nothing"))
    #expect(empty.description.contains("; hint: "))
  }

  @Test func theTextShowsTenthsOnlyWhenTyped() throws {
    #expect(ClassScore.time(milliseconds: 462_000).description == "7:42")
    #expect(ClassScore.time(milliseconds: 462_300).description == "7:42.3")
    #expect(ClassScore.capped(reps: 12).description == "CAP+12")
  }
}
