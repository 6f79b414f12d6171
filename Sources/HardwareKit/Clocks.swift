// SPDX-License-Identifier: MIT
// The two clocks the daemon reads: CLOCK_MONOTONIC for deadlines, CLOCK_REALTIME for display.

import Glibc

/// The monotonic clock: it never jumps when the wall clock is set, and stops counting while the
/// system is suspended (clock_gettime(2), `CLOCK_MONOTONIC`). All deadlines use it.
public enum MonotonicClock {
  /// Nanoseconds since an arbitrary, fixed origin (the boot, on Linux).
  ///
  /// The corresponding C function is `clock_gettime` with `CLOCK_MONOTONIC`.
  public static func now() -> Int64 {
    var time = timespec()
    // clock_gettime cannot fail for a valid clock id and pointer (clock_gettime(2) ERRORS).
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}

/// The wall clock (`CLOCK_REALTIME`): what the time of day is. It can jump (NTP, the user), so it
/// is only for showing the time and stamping records, never for measuring intervals.
public enum WallClock {
  /// An instant of the wall clock, as seconds and nanoseconds since 1970-01-01T00:00:00Z.
  public struct Instant: Hashable, Comparable, Sendable {
    /// Whole seconds since the Unix epoch.
    public var seconds: Int64
    /// Nanoseconds past `seconds`, 0 ..< 1_000_000_000.
    public var nanoseconds: Int32

    /// Creates an instant.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
      self.seconds = seconds
      self.nanoseconds = nanoseconds
    }

    /// Orders instants in time.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
  }

  /// The current wall-clock time.
  ///
  /// The corresponding C function is `clock_gettime` with `CLOCK_REALTIME`.
  public static func now() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Instant(seconds: Int64(time.tv_sec), nanoseconds: Int32(time.tv_nsec))
  }

  /// Reads the time zone again from `TZ` and `/etc/localtime`, so that `civilTime(at:)` follows
  /// a zone changed while the process runs (`timedatectl set-timezone`).
  ///
  /// `localtime_r` reads the zone once and then keeps it (localtime(3), NOTES); rereading it on
  /// every call would cost a `stat` of `/etc/localtime` each time, so callers that run for long
  /// call this now and then instead.
  ///
  /// The corresponding C function is `tzset`.
  public static func reloadTimeZone() {
    tzset()
  }

  /// Breaks `instant` down into local civil time in the time zone last read (see
  /// `reloadTimeZone()`; the first call reads it).
  ///
  /// The corresponding C function is `localtime_r`.
  public static func civilTime(at instant: Instant) -> CivilTime {
    var seconds = time_t(instant.seconds)
    var parts = tm()
    if localtime_r(&seconds, &parts) == nil {
      // Only a year beyond the range of `int` fails (EOVERFLOW); fall back to UTC fields of 0.
      return CivilTime(
        year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0,
        nanosecond: Int(instant.nanoseconds), weekday: 4, utcOffsetSeconds: 0)
    }
    return CivilTime(
      year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
      hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
      nanosecond: Int(instant.nanoseconds), weekday: Int(parts.tm_wday),
      utcOffsetSeconds: Int(parts.tm_gmtoff))
  }
}

extension WallClock {
  /// The UTC offsets under which a local date and time of the zone last read occurs, earliest
  /// instant first: one for an ordinary time, two for a time the clocks go back over, none
  /// for a time they skip. `before` is the offset in force a day earlier (before a gap).
  public struct LocalTimeOffsets: Sendable, Equatable {
    public var offsets: [Int]
    public var before: Int
    public init(offsets: [Int], before: Int) {
      self.offsets = offsets
      self.before = before
    }
  }

  /// Where a local date and time falls in the zone last read (`reloadTimeZone()`). Each offset
  /// in force within a day of it is tried: a local time occurs at an offset when the instant
  /// it gives has that offset. Zones change their offset at most once in a day.
  ///
  /// The corresponding C functions are `timegm` and `localtime_r`.
  public static func offsets(
    year: Int, month: Int, day: Int, hour: Int, minute: Int
  ) -> LocalTimeOffsets {
    var fields = tm()
    fields.tm_year = Int32(clamping: year - 1900)
    fields.tm_mon = Int32(clamping: month - 1)
    fields.tm_mday = Int32(clamping: day)
    fields.tm_hour = Int32(clamping: hour)
    fields.tm_min = Int32(clamping: minute)
    let local = Int64(timegm(&fields))
    func offset(at instant: Int64) -> Int {
      civilTime(at: Instant(seconds: instant)).utcOffsetSeconds
    }
    let before = offset(at: local - 86_400)
    let after = offset(at: local + 86_400)
    var offsets = Set([before, after]).filter { offset(at: local - Int64($0)) == $0 }.sorted()
    // A larger offset east of UTC gives the earlier instant.
    offsets.reverse()
    return LocalTimeOffsets(offsets: offsets, before: before)
  }

  /// Civil times of the last whole second asked for. A loop that wakes many times a second
  /// breaks the time down with `localtime_r` once a second instead of on every wake-up: a
  /// zone's offset only changes on a whole second.
  public struct CivilTimeCache: Sendable {
    private var second: Int64?
    private var civil = CivilTime(
      year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 0, weekday: 4,
      utcOffsetSeconds: 0)

    /// An empty cache.
    public init() {}

    /// `zone(instant)`, from the cache when `instant` falls in the second last asked for (of
    /// the same zone: call `removeAll()` when it changes).
    public mutating func civilTime(
      at instant: WallClock.Instant, in zone: (WallClock.Instant) -> CivilTime
    ) -> CivilTime {
      if second != instant.seconds {
        civil = zone(instant)
        second = instant.seconds
      }
      civil.nanosecond = Int(instant.nanoseconds)
      return civil
    }

    /// Forgets the cached second: call it after the zone's rules were read again.
    public mutating func removeAll() { second = nil }
  }
}

/// A moment in local time, broken down into calendar fields.
public struct CivilTime: Hashable, Sendable {
  /// The full year, such as 2025.
  public var year: Int
  /// 1 (January) ... 12.
  public var month: Int
  /// 1 ... 31.
  public var day: Int
  /// 0 ... 23.
  public var hour: Int
  /// 0 ... 59.
  public var minute: Int
  /// 0 ... 60 (60 only during a leap second).
  public var second: Int
  /// 0 ..< 1_000_000_000.
  public var nanosecond: Int
  /// 0 (Sunday) ... 6 (Saturday), as in `struct tm`.
  public var weekday: Int
  /// Seconds east of UTC, such as 3600 for CET.
  public var utcOffsetSeconds: Int

  /// Creates civil time from its fields.
  public init(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int,
    weekday: Int, utcOffsetSeconds: Int
  ) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.nanosecond = nanosecond
    self.weekday = weekday
    self.utcOffsetSeconds = utcOffsetSeconds
  }
}
