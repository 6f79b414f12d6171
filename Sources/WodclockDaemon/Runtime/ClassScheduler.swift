// SPDX-License-Identifier: MIT
// The class schedule in the running daemon: when the next class's workout goes on the clock,
// what the idle screen says about it, and what `schedule` answers.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import JSONKit
import WorkoutCore

/// Keeps the schedule against the wall clock. The daemon asks it on every turn which class to
/// load now; it never loads anything itself.
///
/// Each class is loaded once, at its load instant (its start less `lead`) or, when the engine
/// is busy then, at the first turn before its start that finds the engine idle or finished. It
/// is never loaded over a running or paused workout, nor over a workout the coach loaded by
/// hand and has not started within the hour before the class: the coach chose that one for it.
/// Without a synchronized wall clock (a Pi just booted without network) nothing is loaded, and
/// the idle screen says so.
final class ClassScheduler {
  /// The schedule is read again against the wall clock at least this often, so a wall clock
  /// stepped by NTP or by hand takes effect within it, whatever the loop was waiting for.
  static let reevaluationInterval: Int64 = 30_000_000_000
  /// A workout loaded by hand this long before a class starts, and not started since, is kept.
  static let handLoadKept: Int64 = 3600

  private(set) var calendar: ScheduleCalendar
  private let clock: DaemonClock
  private let logger: Logger
  /// The occurrence last loaded or given up on, so each class is considered once.
  private var settled: (index: Int, date: LocalDate)?
  /// When the coach last loaded a workout by hand, on the monotonic clock; nil once it ran.
  private var handLoadedAt: Int64?
  /// The next class as last read: the monotonic instant at which the wall clock's second of
  /// the reading began, that second, and the wall instant until which the reading holds (the
  /// class's load, then its start).
  private var cached:
    (next: ClassOccurrence?, at: Int64, wall: Int64, until: Int64?, synchronized: Bool)?
  /// Whether "not synchronized" was logged since the clock last was.
  private var reportedUnsynchronized = false

  init(schedule: ClassSchedule, clock: DaemonClock, logger: Logger) {
    calendar = ScheduleCalendar(schedule: schedule, resolve: clock.zone.resolve)
    self.clock = clock
    self.logger = logger
  }

  var hasClasses: Bool { !calendar.schedule.classes.isEmpty }

  /// A reload's schedule: read from scratch.
  func replaceSchedule(_ schedule: ClassSchedule) {
    calendar = ScheduleCalendar(schedule: schedule, resolve: clock.zone.resolve)
    cached = nil
    settled = nil
  }

  /// The coach loaded a workout by hand (a key, a button, the socket).
  func noteHandLoad(at now: Int64) { handLoadedAt = now }

  /// The next class and whether the clock is synchronized, read again when the cached reading
  /// is old, the wall clock went back, or the next class's load or start has come.
  func reading(at now: Int64) -> (next: ClassOccurrence?, synchronized: Bool) {
    let instant = clock.wall()
    let wall = instant.seconds
    if let cached, now - cached.at < Self.reevaluationInterval, wall >= cached.wall,
      cached.until.map({ wall < $0 }) ?? true
    {
      return (cached.next, cached.synchronized)
    }
    let next = calendar.next(after: wall, today: clock.zone.date(instant))
    let synchronized = clock.synchronized()
    let until = next.map { wall < $0.load ? $0.load : $0.start }
    // The monotonic instant of the wall clock's whole second `wall`.
    let secondStart = now - Int64(instant.nanoseconds)
    cached = (next, secondStart, wall, until, synchronized)
    return (next, synchronized)
  }

  /// The class whose workout should be loaded now, given the engine's phase; nil when none.
  /// Once it returns a class, that class is not returned again.
  func classToLoad(at now: Int64, phase: EngineState.Phase) -> ClassOccurrence? {
    guard hasClasses else { return nil }
    if phase == .running || phase == .paused { handLoadedAt = nil }
    let (next, synchronized) = reading(at: now)
    let wall = clock.wall().seconds
    guard let next, next.load <= wall, wall < next.start else { return nil }
    if let settled, settled.index == next.index, settled.date == next.date { return nil }
    guard synchronized else {
      if !reportedUnsynchronized {
        reportedUnsynchronized = true
        logger.warning(
          "class not loaded: the wall clock is not synchronized",
          [("class", next.scheduled.name)])
      }
      return nil
    }
    reportedUnsynchronized = false
    guard phase == .idle || phase == .finished else { return nil }
    settled = (next.index, next.date)
    if let handLoadedAt,
      (now - handLoadedAt) / 1_000_000_000 + (next.start - wall) <= Self.handLoadKept
    {
      logger.info(
        "class not loaded: the workout loaded by hand stays", [("class", next.scheduled.name)])
      return nil
    }
    handLoadedAt = nil
    return next
  }

  /// When the schedule needs a turn next: the next class's load or start, and a fresh reading
  /// of the wall clock every ``reevaluationInterval``.
  func nextWakeUp(after now: Int64) -> Int64? {
    guard hasClasses else { return nil }
    var best = (cached?.at ?? now) + Self.reevaluationInterval
    if let cached, let until = cached.until {
      // Further off than a reading lasts it does not matter (and cannot overflow).
      let seconds = min(until - cached.wall, Self.reevaluationInterval / 1_000_000_000)
      let due = cached.at + seconds * 1_000_000_000
      if due > now { best = min(best, due) }
    }
    return max(best, now)
  }

  /// What the idle screen says: the next class's start and name ("06:00 6 AM WOD", "Tue 06:00
  /// 6 AM WOD" when it is not today), or that the clock is not synchronized.
  func idleNote(at now: Int64, face: ClockFace) -> String? {
    guard hasClasses else { return nil }
    let (next, synchronized) = reading(at: now)
    guard synchronized else { return "clock not synced: no class" }
    guard let next else { return nil }
    let today = clock.zone.date(clock.wall())
    let day = next.date == today ? "" : next.date.weekday.title + " "
    return day + Self.time(next.scheduled.time, face: face) + " " + next.scheduled.name
  }

  /// `06:00`, or `6:00am` on a 12-hour face.
  static func time(_ time: ConfigFormat.TimeOfDay, face: ClockFace) -> String {
    if face.twentyFourHour { return ScheduleText.time(time) }
    let hour = time.hour % 12 == 0 ? 12 : time.hour % 12
    return "\(hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
      + (time.hour < 12 ? "am" : "pm")
  }

  /// The members of the `schedule` reply: today's classes, the next one, the lead and whether
  /// the wall clock is synchronized.
  func report(at now: Int64, loadedPreset: String) -> [(String, JSONValue)] {
    let wall = clock.wall().seconds
    let today = clock.zone.date(WallClock.Instant(seconds: wall))
    let (next, synchronized) = reading(at: now)
    func describe(_ occurrence: ClassOccurrence) -> JSONValue {
      .object(
        JSONObject([
          ("name", .string(occurrence.scheduled.name)),
          ("at", .string(ScheduleText.time(occurrence.scheduled.time))),
          ("date", .string(occurrence.date.description)),
          ("weekday", .string(occurrence.date.weekday.shortName)),
          ("workout", .string(occurrence.scheduled.workout.text)),
          ("start_unix", .integer(occurrence.start)),
          ("load_unix", .integer(occurrence.load)),
          ("past", .bool(occurrence.start <= wall)),
        ]))
    }
    return [
      ("synchronized", .bool(synchronized)),
      ("today", .string(today.description)),
      ("lead_s", .double(calendar.schedule.lead.seconds)),
      ("classes", .array(calendar.classes(on: today).map(describe))),
      ("next", next.map(describe) ?? .null),
      ("loaded", .string(loadedPreset)),
    ]
  }
}
