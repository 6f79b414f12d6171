// SPDX-License-Identifier: MIT
// The class schedule in the daemon, on manual time: the class loads its lead before it starts,
// only on an idle clock, never over a running workout or one the coach loaded by hand, never by
// an unsynchronized wall clock, and at the right instant across a change to summer time.

import ConfigFormat
import Configuration
import HardwareKit
import JSONKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

/// The manual clock starts on Monday 2026-01-05 at 06:00:00 UTC (the harness's zone is UTC).
private func scheduleConfig(_ classes: String, lead: String = "5m") -> String {
  """
  presets:
    warmup:
      mode: tabata
    fran:
      mode: for_time
      cap: 10m
    amrap:
      mode: amrap
      time: 14m
  schedule:
    lead: \(lead)
    classes:
  \(classes)
  outputs:
    - {type: test-output, id: probe}
  """
}

private let earlyClass = #"    - {days: daily, at: "06:10", name: Early WOD, workout: fran}"#

/// A zone of two offsets, `standard` before `change` (Unix seconds) and `summer` from it.
private func zone(standard: Int, summer: Int, change: Int64) -> LocalZone {
  let offsetAt: @Sendable (Int64) -> Int = { $0 < change ? standard : summer }
  return LocalZone(
    civilTime: { civilTime(at: $0, utcOffset: offsetAt($0.seconds)) },
    resolve: { date, time in
      let local =
        Int64(date.daysSinceEpoch) * 86_400 + Int64(time.hour) * 3600 + Int64(time.minute) * 60
      let valid = [summer, standard].filter { offsetAt(local - Int64($0)) == $0 }
      switch valid.count {
      case 2: return .repeated(first: valid[0], second: valid[1])
      case 1: return .unique(utcOffset: valid[0])
      default: return .skipped(before: standard)
      }
    })
}

@Suite struct ClassScheduleTests {
  @Test func theClassLoadsItsLeadBeforeItStartsAndTheIdleScreenNamesIt() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(record)])
    clock.start()
    #expect(record.frames.last?.snapshot.label == "06:10 Early WOD")
    clock.run(for: 299.9)
    #expect(try clock.status()["preset"] == .string("warmup"))
    clock.run(for: 0.1)
    #expect(try clock.status()["preset"] == .string("fran"))
    #expect(
      clock.logLines(containing: "class loaded").first?.contains(
        #"class="Early WOD" starts=06:10 date=2026-01-05 preset=fran"#) == true)
    // The class shows until it starts; then tomorrow's is next.
    clock.run(for: 300)
    #expect(record.frames.last?.snapshot.label == "Tue 06:10 Early WOD")
    #expect(clock.logLines(containing: "class loaded").count == 1)
  }

  @Test func theLoadIsOnTheSecondWhenNothingElseWakesTheLoop() throws {
    // The idle screen shows the preset: no second of the time of day wakes the loop, and the
    // daemon starts half a second into 06:00:00.
    let clock = try InProcessDaemon(
      config: "clock: {idle: preset}\n" + scheduleConfig(earlyClass),
      kinds: [.recordingOutput(OutputRecord())])
    clock.time.monotonic += 500_000_000
    clock.start()
    clock.run(for: 299.4)
    #expect(try clock.status()["preset"] == .string("warmup"))
    // The loop sleeps until 06:05:00.0 on the dot.
    #expect(
      clock.daemon.nextWakeUp(after: clock.time.monotonic) == ManualTime.origin + 300_000_000_000)
    clock.run(for: 0.1)
    #expect(try clock.status()["preset"] == .string("fran"))
  }

  @Test func aRunningWorkoutIsNeverReplacedAndTheClassLoadsWhenItEnds() throws {
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    // A Tabata from 06:04: 10 s count-in and 4 minutes, over at 06:08:10.
    clock.run(for: 240)
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 70)
    #expect(try clock.status()["state"] != .string("idle"))
    #expect(try clock.status()["preset"] == .string("warmup"))
    clock.run(for: 179.9)
    #expect(try clock.status()["preset"] == .string("warmup"))
    clock.run(for: 0.2)
    #expect(try clock.status()["preset"] == .string("fran"))
  }

  @Test func aWorkoutStillRunningAtTheStartKeepsTheClockAndTheClassIsNotLoadedLate() throws {
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    // An AMRAP 14 from 06:00: it runs past 06:10.
    _ = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    _ = try clock.request(#"{"cmd": "start"}"#)
    clock.run(for: 900)
    #expect(try clock.status()["preset"] == .string("amrap"))
    #expect(clock.logLines(containing: "class loaded").isEmpty)
  }

  @Test func aWorkoutLoadedByHandForTheClassStays() throws {
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    clock.run(for: 120)
    _ = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    clock.run(for: 300)
    #expect(try clock.status()["preset"] == .string("amrap"))
    #expect(
      clock.logLines(containing: "class not loaded: the workout loaded by hand stays").count == 1)
  }

  @Test func aWorkoutLoadedByHandLongBeforeTheClassIsReplaced() throws {
    let clock = try InProcessDaemon(
      config: scheduleConfig(#"    - {days: daily, at: "07:30", name: Late WOD, workout: fran}"#),
      kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    // Loaded at 06:00 and left: 90 minutes before the class, not for it.
    _ = try clock.request(#"{"cmd": "load", "preset": "amrap"}"#)
    clock.run(for: 5100)
    #expect(try clock.status()["preset"] == .string("fran"))
  }

  @Test func noClassLoadsByAnUnsynchronizedClockUntilItIsSynchronized() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(record)])
    clock.time.synchronized = false
    clock.start()
    #expect(record.frames.last?.snapshot.label == "clock not synced: no class")
    clock.run(for: 360)
    #expect(try clock.status()["preset"] == .string("warmup"))
    #expect(
      clock.logLines(containing: "class not loaded: the wall clock is not synchronized").count == 1)
    // Time is set: the wall clock steps back a minute, to 06:05, and is synchronized; within half a
    // minute the class loads, before it starts.
    let unsynchronized = try clock.request(#"{"cmd": "schedule"}"#)
    #expect(unsynchronized["synchronized"] == .bool(false))
    clock.time.wallOffset -= 60
    clock.time.synchronized = true
    clock.run(for: 30)
    #expect(try clock.status()["preset"] == .string("fran"))
    #expect(record.frames.last?.snapshot.label == "06:10 Early WOD")
    let reply = try clock.request(#"{"cmd": "schedule"}"#)
    #expect(reply["ok"] == .bool(true))
    #expect(reply["synchronized"] == .bool(true))
    #expect(reply["today"] == .string("2026-01-05"))
    #expect(reply["lead_s"] == .double(300))
    #expect(reply["loaded"] == .string("fran"))
    let early = try #require(reply["classes"]?[0]?.objectValue)
    #expect(early["name"] == .string("Early WOD"))
    #expect(early["at"] == .string("06:10"))
    #expect(early["weekday"] == .string("mon"))
    #expect(early["start_unix"] == .integer(1_767_593_400))
    #expect(early["load_unix"] == .integer(1_767_593_100))
    #expect(early["past"] == .bool(false))
    #expect(reply["next"]?["date"] == .string("2026-01-05"))
  }

  @Test func aWallClockSteppedPastTheLoadInstantLoadsTheClassWithinHalfAMinute() throws {
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(OutputRecord())])
    clock.start()
    clock.run(for: 10)
    // NTP steps the clock from 06:00:10 to 06:07:10.
    clock.time.wallOffset += 420
    clock.run(for: 30)
    #expect(try clock.status()["preset"] == .string("fran"))
  }

  @Test func aClassInTheHourSummerTimeSkipsLoadsByTheOffsetBeforeIt() throws {
    // Berlin's rules on 2026-03-29: CET until 01:00 UTC, CEST from then. A class at 02:30,
    // a time the clocks skip, starts at 03:30 CEST (01:30 UTC) and loads at 01:25 UTC.
    let change: Int64 = 1_774_746_000
    let clock = try InProcessDaemon(
      config: scheduleConfig(#"    - {days: sun, at: "02:30", name: Night owls, workout: fran}"#),
      kinds: [.recordingOutput(OutputRecord())])
    clock.time.zone = zone(standard: 3600, summer: 7200, change: change)
    // The manual clock starts at 00:30 UTC (01:30 CET).
    clock.time.wallOffset = change - 1800
    clock.start()
    clock.run(for: 3299.9)
    #expect(try clock.status()["preset"] == .string("warmup"))
    clock.run(for: 0.1)
    #expect(try clock.status()["preset"] == .string("fran"))
  }
}

/// How often the daemon read its zone's rules again.
private final class ZoneReloads: @unchecked Sendable {
  var count = 0
}

@Suite struct TimeZoneSeamTests {
  @Test func theIdleScreenShowsTheGivenZonesTimeAndRereadsItsRulesOnceAMinute() throws {
    let record = OutputRecord()
    let clock = try InProcessDaemon(
      config: scheduleConfig(earlyClass), kinds: [.recordingOutput(record)])
    let reloads = ZoneReloads()
    // 06:00 UTC is 08:00 two hours east; the machine's own zone plays no part.
    clock.time.zone = LocalZone(
      civilTime: { civilTime(at: $0, utcOffset: 7200) },
      resolve: { _, _ in .unique(utcOffset: 7200) }, reload: { reloads.count += 1 })
    clock.start()
    let first = try #require(record.frames.last?.civilTime)
    #expect(first.hour == 8 && first.minute == 0 && first.utcOffsetSeconds == 7200)
    #expect(first.weekday == 1)
    let startReloads = reloads.count
    #expect(startReloads >= 1)
    clock.run(for: 180)
    let later = try #require(record.frames.last?.civilTime)
    #expect(later.hour == 8 && later.minute == 3)
    // Once a minute, not on every frame.
    #expect(reloads.count - startReloads == 3)
  }
}
