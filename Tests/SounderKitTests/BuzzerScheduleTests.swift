// SPDX-License-Identifier: MIT
// Cue patterns as on/off intervals, the on-time cap, priorities and quiet hours.

import SounderKit
import Testing
import WodclockTestSupport
import WorkoutCore

@Suite struct BuzzerScheduleTests {
  @Test func aPatternBecomesOnOffIntervalsFromItsInstant() {
    var schedule = BuzzerSchedule(maximumOnTime: ms(3_000))
    schedule.play([ms(200), ms(100), ms(200)], at: ms(1_000))
    #expect(
      schedule.intervals == [
        .init(ms(1_000), ms(1_200)), .init(ms(1_300), ms(1_500)),
      ])
    #expect(schedule.isOn(at: ms(1_000)) && !schedule.isOn(at: ms(1_200)))
    #expect(schedule.nextChange(after: ms(1_000)) == ms(1_200))
    #expect(schedule.nextChange(after: ms(1_200)) == ms(1_300))
    #expect(schedule.nextChange(after: ms(1_500)) == nil)
  }

  @Test func noIntervalOutlastsTheMaximumOnTime() {
    var schedule = BuzzerSchedule(maximumOnTime: ms(3_000))
    schedule.play([ms(10_000)], at: 0)
    #expect(schedule.intervals == [.init(0, ms(3_000))])
    // A zero off-time makes two on-times one continuous interval: still cut at the maximum.
    var touching = BuzzerSchedule(maximumOnTime: ms(3_000))
    touching.play([ms(2_000), 0, ms(2_000)], at: 0)
    #expect(touching.intervals == [.init(0, ms(3_000))])
  }

  @Test func aLaterCueReplacesTheRestOfAPattern() {
    var schedule = BuzzerSchedule(maximumOnTime: ms(3_000))
    schedule.play([ms(100), ms(100), ms(100), ms(100), ms(100)], at: 0)
    schedule.play([ms(50)], at: ms(250))
    // It cuts the one sounding at 250 ms and starts after a 100 ms gap, heard as a new beep.
    #expect(
      schedule.intervals == [.init(0, ms(100)), .init(ms(200), ms(250)), .init(ms(350), ms(400))])
    schedule.play([ms(50)], at: ms(500))
    #expect(
      schedule.intervals == [
        .init(0, ms(100)), .init(ms(200), ms(250)), .init(ms(350), ms(400)),
        .init(ms(500), ms(550)),
      ])
  }

  @Test func ofCuesAtOneInstantTheHighestPriorityPlays() {
    var schedule = BuzzerSchedule(maximumOnTime: ms(3_000))
    let finish = BuzzerPatterns.priority(of: .finish)
    let countdown = BuzzerPatterns.priority(of: .countdown(secondsLeft: 1, ending: .work))
    schedule.play([ms(1_500)], at: ms(10), priority: finish)
    schedule.play([ms(150)], at: ms(10), priority: countdown)
    #expect(schedule.intervals == [.init(ms(10), ms(1_510))])
  }

  @Test func aCueSeenLateStartsItsPatternWhenSeen() {
    #expect(BuzzerSchedule.start(ofCueAt: ms(1_000), seenAt: ms(1_001)) == ms(1_000))
    #expect(BuzzerSchedule.start(ofCueAt: ms(1_000), seenAt: ms(1_020)) == ms(1_000))
    #expect(BuzzerSchedule.start(ofCueAt: ms(1_000), seenAt: ms(1_300)) == ms(1_300))
  }

  @Test func cutSilencesFromAnInstant() {
    var schedule = BuzzerSchedule(maximumOnTime: ms(3_000))
    schedule.play([ms(1_000), ms(100), ms(1_000)], at: 0)
    schedule.cut(from: ms(400))
    #expect(schedule.intervals == [.init(0, ms(400))])
  }

  @Test func standardPatternsAreShortForCountdownLongForSegmentsAndDistinctForFinish() {
    let standard = BuzzerPatterns.standard
    #expect(standard.pattern(for: .countdown(secondsLeft: 3, ending: .work)) == [ms(150)])
    #expect(standard.pattern(for: .segmentStart(.work)) == [ms(1_000)])
    #expect(standard.pattern(for: .segmentStart(.countIn)) == nil)
    #expect((standard.pattern(for: .finish)?.count ?? 0) == 5)
    #expect(standard.pattern(for: .halfway) == nil)
    let custom = BuzzerPatterns.standard(overriding: ["countdown": [], "halfway": [ms(300)]])
    #expect(custom.pattern(for: .countdown(secondsLeft: 1, ending: .rest)) == nil)
    #expect(custom.pattern(for: .halfway) == [ms(300)])
  }
}

@Suite struct OnTimeLimitTests {
  @Test func theLimitCutsOffAndStaysOffUntilAskedOff() {
    var limit = OnTimeLimit(maximum: ms(3_000))
    #expect(limit.level(wanting: true, at: 0) == true)
    #expect(limit.deadline == ms(3_000))
    #expect(limit.level(wanting: true, at: ms(2_999)) == true)
    #expect(limit.level(wanting: true, at: ms(3_000)) == false)
    #expect(limit.tripped)
    #expect(limit.level(wanting: true, at: ms(9_000)) == false)
    #expect(limit.level(wanting: false, at: ms(9_001)) == false)
    #expect(limit.level(wanting: true, at: ms(9_002)) == true)
  }
}

@Suite struct QuietHoursTests {
  @Test func windowsParseAndMayRunPastMidnight() {
    let night = QuietHours.Window(parsing: "22:00-06:30")
    #expect(night == QuietHours.Window(from: 22 * 60, until: 6 * 60 + 30))
    #expect(night?.description == "22:00-06:30")
    let quiet = QuietHours([night!])
    #expect(quiet.contains(minuteOfDay: 23 * 60))
    #expect(quiet.contains(minuteOfDay: 0))
    #expect(!quiet.contains(minuteOfDay: 6 * 60 + 30))
    #expect(!quiet.contains(minuteOfDay: 12 * 60))
    for bad in ["22:00", "25:00-06:00", "10:00-10:00", "9-10", "a-b"] {
      #expect(QuietHours.Window(parsing: bad) == nil, "\(bad)")
    }
  }
}
