// SPDX-License-Identifier: MIT
// The schedule on the calendar: which classes fall on a day, which is next, and when to load
// it. Pure: the caller gives the local date, the instant now and how a local date and time
// falls on the time line (the time zone's rules), so DST is the caller's zone's and tests can
// give any zone's rules.

import ConfigFormat
import WorkoutCore

/// A day of the local calendar (proleptic Gregorian).
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var year: Int
  /// 1–12.
  public var month: Int
  /// 1–31.
  public var day: Int

  /// Creates a date; callers keep the fields a real date.
  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01 (before it when negative).
  public init(daysSinceEpoch days: Int) {
    // Howard Hinnant's civil_from_days (chrono-Compatible Low-Level Date Algorithms).
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01 (Hinnant's days_from_civil).
  public var daysSinceEpoch: Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day of the week (1970-01-01 was a Thursday).
  public var weekday: Weekday {
    let days = daysSinceEpoch
    return Weekday(rawValue: ((days % 7) + 7 + 4) % 7)!
  }

  /// The date `days` later.
  public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

  /// `2025-03-30`.
  public var description: String {
    func two(_ value: Int) -> String { (value < 10 ? "0" : "") + String(value) }
    return "\(year)-\(two(month))-\(two(day))"
  }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}

/// Where a local date and time falls on the time line, as the zone's rules say: the UTC offset
/// (seconds east) it is read with.
public enum LocalTimeResolution: Sendable, Equatable {
  /// It happens once, at this offset.
  case unique(utcOffset: Int)
  /// It happens twice (the hour the clocks go back): first at `first`, an hour (or the
  /// shift) later at `second`.
  case repeated(first: Int, second: Int)
  /// It does not happen (the hour the clocks go forward); `before` is the offset in force just
  /// before the gap.
  case skipped(before: Int)
}

/// How a local date and time falls on the time line: the system's zone in the daemon, fixed
/// rules in tests.
public typealias LocalTimeResolver =
  @Sendable (LocalDate, ConfigFormat.TimeOfDay) ->
  LocalTimeResolution

/// One class on one date.
public struct ClassOccurrence: Sendable, Equatable {
  /// Its index in the schedule's `classes`.
  public var index: Int
  public var scheduled: ScheduledClass
  /// The local date it is held on.
  public var date: LocalDate
  /// When it starts, in seconds since the Unix epoch.
  public var start: Int64
  /// When its workout is loaded: the start less the schedule's lead.
  public var load: Int64
}

/// Answers what the schedule holds at an instant.
///
/// DST follows RFC 5545 §3.3.5 (how calendars read a local time the clocks skip or repeat): a
/// class at a time that does not exist that day (02:30 on the day the clocks go forward from
/// 02:00 to 03:00) is read with the offset before the gap, so it starts at 03:30 new time, as
/// long after the shift as it was meant to be after 02:00; a class at a time that happens twice
/// (02:30 on the day the clocks go back) starts at the first of the two, once.
public struct ScheduleCalendar: Sendable {
  public var schedule: ClassSchedule
  private let resolve: LocalTimeResolver

  /// A calendar reading local times with `resolve`.
  public init(schedule: ClassSchedule, resolve: @escaping LocalTimeResolver) {
    self.schedule = schedule
    self.resolve = resolve
  }

  /// The instant (Unix seconds) a class at `time` on `date` starts.
  public func instant(of date: LocalDate, at time: ConfigFormat.TimeOfDay) -> Int64 {
    let local =
      Int64(date.daysSinceEpoch) * 86_400 + Int64(time.hour) * 3600 + Int64(time.minute) * 60
    let offset: Int
    switch resolve(date, time) {
    case .unique(let utcOffset): offset = utcOffset
    case .repeated(let first, _): offset = first
    case .skipped(let before): offset = before
    }
    return local - Int64(offset)
  }

  /// The classes held on `date`, in order of their start (file order for equal starts). A
  /// class dated `date` replaces a class of the week at its time.
  public func classes(on date: LocalDate) -> [ClassOccurrence] {
    let weekday = date.weekday
    let lead = schedule.lead.nanoseconds / 1_000_000_000
    let datedTimes = Set(
      schedule.classes.filter { $0.dates.contains(date) }.map(\.time.minutesSinceMidnight))
    var found: [ClassOccurrence] = []
    for (index, scheduled) in schedule.classes.enumerated()
    where scheduled.dates.contains(date)
      || (scheduled.days.contains(weekday)
        && !datedTimes.contains(scheduled.time.minutesSinceMidnight))
    {
      let start = instant(of: date, at: scheduled.time)
      found.append(
        ClassOccurrence(
          index: index, scheduled: scheduled, date: date, start: start, load: start - lead))
    }
    let ordered = found.enumerated().sorted {
      ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
    }
    return ordered.map(\.element)
  }

  /// The first class that starts after `now` (Unix seconds), where `today` is the local date
  /// at `now`; nil when the schedule has no classes to come. A week ahead is enough for a
  /// class held on a weekday; a class held on dates only may come later.
  public func next(after now: Int64, today: LocalDate) -> ClassOccurrence? {
    for offset in 0...7 {
      if let first = classes(on: today.adding(days: offset)).first(where: { $0.start > now }) {
        return first
      }
    }
    let weekAhead = today.adding(days: 7)
    let later = Set(schedule.classes.flatMap(\.dates)).filter { $0 > weekAhead }.sorted()
    for date in later {
      if let first = classes(on: date).first(where: { $0.start > now }) { return first }
    }
    return nil
  }

  /// The class whose workout should be on the clock at `now`: the next class, once its load
  /// instant has come. Nil before that, and when there is none.
  public func due(at now: Int64, today: LocalDate) -> ClassOccurrence? {
    guard let next = next(after: now, today: today), next.load <= now else { return nil }
    return next
  }
}
