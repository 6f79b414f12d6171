// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// A zone of two offsets and its rules, given as the offset in force at each instant: what a
/// test gives the calendar in place of the system's zone.
struct TwoOffsetZone: Sendable {
  var standard: Int
  var summer: Int
  /// The UTC offset at an instant (Unix seconds).
  var offsetAt: @Sendable (Int64) -> Int

  /// Reads a local time the way a zone database does: each offset under which the local time
  /// maps to an instant that really has that offset.
  var resolver: LocalTimeResolver {
    { [self] date, time in
      let local =
        Int64(date.daysSinceEpoch) * 86_400 + Int64(time.hour) * 3600 + Int64(time.minute) * 60
      let valid = [summer, standard].filter { offsetAt(local - Int64($0)) == $0 }
      switch valid.count {
      case 2: return .repeated(first: valid[0], second: valid[1])
      case 1: return .unique(utcOffset: valid[0])
      default: return .skipped(before: offsetAt(local - Int64(summer)))
      }
    }
  }

  static func utc(_ date: LocalDate, _ hour: Int, _ minute: Int = 0) -> Int64 {
    Int64(date.daysSinceEpoch) * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60
  }

  /// The last Sunday of a month.
  static func lastSunday(_ year: Int, _ month: Int) -> LocalDate {
    var date = LocalDate(year: year, month: month + 1, day: 1).adding(days: -1)
    while date.weekday != .sunday { date = date.adding(days: -1) }
    return date
  }

  /// The `nth` Sunday of a month.
  static func sunday(_ nth: Int, _ year: Int, _ month: Int) -> LocalDate {
    var date = LocalDate(year: year, month: month, day: 1)
    while date.weekday != .sunday { date = date.adding(days: 1) }
    return date.adding(days: 7 * (nth - 1))
  }

  /// Europe/Berlin since 1996: CET, CEST from the last Sunday of March to the last Sunday of
  /// October, changing at 01:00 UTC (EU Directive 2000/84/EC).
  static let berlin = TwoOffsetZone(standard: 3600, summer: 7200) { instant in
    let year = LocalDate(daysSinceEpoch: Int((instant / 86_400))).year
    let begins = utc(lastSunday(year, 3), 1)
    let ends = utc(lastSunday(year, 10), 1)
    return instant >= begins && instant < ends ? 7200 : 3600
  }

  /// America/New_York since 2007: EST, EDT from the second Sunday of March at 02:00 local to the
  /// first Sunday of November at 02:00 local (Energy Policy Act of 2005).
  static let newYork = TwoOffsetZone(standard: -18_000, summer: -14_400) { instant in
    let year = LocalDate(daysSinceEpoch: Int((instant / 86_400))).year
    let begins = utc(sunday(2, year, 3), 7)
    let ends = utc(sunday(1, year, 11), 6)
    return instant >= begins && instant < ends ? -14_400 : -18_000
  }
}

@Suite("Class schedule on the calendar")
struct ScheduleCalendarTests {
  static func schedule(lead: TimeSpan = .minutes(5), _ classes: [(String, Int, Int)])
    -> ClassSchedule
  {
    ClassSchedule(
      lead: lead,
      classes: classes.map { name, hour, minute in
        ScheduledClass(
          days: Set(Weekday.allCases), time: TimeOfDay(hour: hour, minute: minute), name: name,
          workout: .preset("fran"))
      })
  }

  static let springBerlin = LocalDate(year: 2025, month: 3, day: 30)
  static let autumnBerlin = LocalDate(year: 2025, month: 10, day: 26)
  static func utc(_ date: LocalDate, _ hour: Int, _ minute: Int = 0) -> Int64 {
    TwoOffsetZone.utc(date, hour, minute)
  }

  @Test("dates and weekdays")
  func dates() {
    #expect(LocalDate(daysSinceEpoch: 0) == LocalDate(year: 1970, month: 1, day: 1))
    #expect(LocalDate(year: 1970, month: 1, day: 1).weekday == .thursday)
    #expect(Self.springBerlin.weekday == .sunday)
    #expect(LocalDate(year: 2024, month: 2, day: 29).adding(days: 1).description == "2024-03-01")
    #expect(LocalDate(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
    }
    #expect(TwoOffsetZone.lastSunday(2025, 10) == Self.autumnBerlin)
  }

  @Test("spring forward in Berlin: a class in the skipped hour starts as long after 02:00")
  func springGap() {
    let calendar = ScheduleCalendar(
      schedule: Self.schedule([("Night owls", 2, 30)]), resolve: TwoOffsetZone.berlin.resolver)
    let day = Self.springBerlin
    // 02:30 does not exist: read with CET (+1), it is 01:30 UTC, 03:30 CEST.
    #expect(calendar.instant(of: day, at: TimeOfDay(hour: 2, minute: 30)) == Self.utc(day, 1, 30))
    // The day before and after, 02:30 is an ordinary time.
    let before = day.adding(days: -1)
    #expect(
      calendar.instant(of: before, at: TimeOfDay(hour: 2, minute: 30)) == Self.utc(before, 1, 30))
    let after = day.adding(days: 1)
    #expect(
      calendar.instant(of: after, at: TimeOfDay(hour: 2, minute: 30)) == Self.utc(after, 0, 30))
  }

  @Test("spring forward in Berlin: the next class, its load and the lead across the jump")
  func springNext() throws {
    let calendar = ScheduleCalendar(
      schedule: Self.schedule(lead: .minutes(15), [("Early", 3, 10), ("6 AM WOD", 6, 0)]),
      resolve: TwoOffsetZone.berlin.resolver)
    let day = Self.springBerlin
    // Saturday evening: Sunday's 03:10 CEST is 01:10 UTC, loaded at 00:55 UTC (01:55 CET, just
    // before the clocks jump).
    let saturdayEvening = Self.utc(day.adding(days: -1), 21)
    let next = try #require(calendar.next(after: saturdayEvening, today: day.adding(days: -1)))
    #expect(next.scheduled.name == "Early")
    #expect(next.date == day)
    #expect(next.start == Self.utc(day, 1, 10))
    #expect(next.load == Self.utc(day, 0, 55))
    #expect(calendar.due(at: Self.utc(day, 0, 54), today: day) == nil)
    #expect(calendar.due(at: Self.utc(day, 0, 55), today: day)?.scheduled.name == "Early")
    // After it starts, the 6 AM class is next: 04:00 UTC on the short day, not 05:00.
    let afterEarly = try #require(calendar.next(after: Self.utc(day, 1, 10), today: day))
    #expect(afterEarly.scheduled.name == "6 AM WOD")
    #expect(afterEarly.start == Self.utc(day, 4))
    // Today's classes, in order, each on the time line of its own offset.
    #expect(calendar.classes(on: day).map(\.start) == [Self.utc(day, 1, 10), Self.utc(day, 4)])
    #expect(
      calendar.classes(on: day.adding(days: -1)).map(\.start) == [
        Self.utc(day.adding(days: -1), 2, 10), Self.utc(day.adding(days: -1), 5),
      ])
  }

  @Test("fall back in Berlin: a class in the repeated hour starts once, at the first 02:30")
  func autumnRepeat() throws {
    let calendar = ScheduleCalendar(
      schedule: Self.schedule([("Night owls", 2, 30), ("6 AM WOD", 6, 0)]),
      resolve: TwoOffsetZone.berlin.resolver)
    let day = Self.autumnBerlin
    // 02:30 CEST (+2) is 00:30 UTC; 02:30 CET an hour later would be 01:30 UTC.
    let first = try #require(calendar.next(after: Self.utc(day, 0), today: day))
    #expect(first.start == Self.utc(day, 0, 30))
    #expect(first.load == Self.utc(day, 0, 25))
    // During the second 02:00–03:00 (01:00–02:00 UTC) the wall reads 02:30 again: no class
    // then, nor its load.
    #expect(calendar.due(at: Self.utc(day, 1, 25), today: day) == nil)
    let next = try #require(calendar.next(after: Self.utc(day, 1, 25), today: day))
    #expect(next.scheduled.name == "6 AM WOD")
    // 06:00 CET, on the long day.
    #expect(next.start == Self.utc(day, 5))
  }

  @Test("New York: spring forward and fall back")
  func newYork() {
    let calendar = ScheduleCalendar(
      schedule: Self.schedule([("Late", 2, 30), ("Owl", 1, 30)]),
      resolve: TwoOffsetZone.newYork.resolver)
    let spring = LocalDate(year: 2025, month: 3, day: 9)
    // 02:30 is skipped: read with EST (−5), 07:30 UTC, 03:30 EDT.
    #expect(
      calendar.instant(of: spring, at: TimeOfDay(hour: 2, minute: 30)) == Self.utc(spring, 7, 30))
    let autumn = LocalDate(year: 2025, month: 11, day: 2)
    // 01:30 happens twice: first in EDT (−4), 05:30 UTC.
    #expect(
      calendar.instant(of: autumn, at: TimeOfDay(hour: 1, minute: 30)) == Self.utc(autumn, 5, 30))
    #expect(
      calendar.next(after: Self.utc(autumn, 5, 30), today: autumn)?.start
        == Self.utc(autumn, 7, 30))
  }

  @Test("the next class may be days away; a lead of zero loads at the start")
  func weekAhead() throws {
    let monday = LocalDate(year: 2025, month: 6, day: 2)
    #expect(monday.weekday == .monday)
    let utcZone: LocalTimeResolver = { _, _ in .unique(utcOffset: 0) }
    let schedule = ClassSchedule(
      lead: .zero,
      classes: [
        ScheduledClass(
          days: [.monday], time: TimeOfDay(hour: 6, minute: 0), name: "Monday",
          workout: .preset("fran"))
      ])
    let calendar = ScheduleCalendar(schedule: schedule, resolve: utcZone)
    let next = try #require(calendar.next(after: Self.utc(monday, 6), today: monday))
    #expect(next.date == monday.adding(days: 7))
    #expect(next.load == next.start)
    #expect(calendar.due(at: next.start - 1, today: next.date) == nil)
    #expect(
      ScheduleCalendar(schedule: ClassSchedule(), resolve: utcZone).next(
        after: 0, today: monday) == nil)
  }
}
