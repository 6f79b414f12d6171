// SPDX-License-Identifier: MIT
// Everything that changes or depends on the process environment, run one test at a time.

import Testing
import WodclockTestSupport

@testable import HardwareKit

/// setenv(3) may reallocate the environment while another thread reads it, so every test that
/// sets variables, reads ones that others set (TZ through tzset), or spawns a process with the
/// inherited environment lives in this one serialized suite; the other suites avoid reading the
/// environment.
@Suite(.serialized) struct ProcessEnvironmentTests {
  @Test func getSetUnset() throws {
    let name = "WODCLOCK_TEST_VARIABLE"
    #expect(Environment.get(name) == nil)
    try Environment.set(name, "value=with=equals")
    #expect(Environment.get(name) == "value=with=equals")
    try Environment.unset(name)
    #expect(Environment.get(name) == nil)
  }

  @Test func notifierReadsNotifySocket() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let receiver = try DatagramSocket(boundTo: scratch.file("notify"))
    defer { receiver.close() }
    try Environment.set("NOTIFY_SOCKET", receiver.path)
    defer { try? Environment.unset("NOTIFY_SOCKET") }
    let notifier = SystemdNotifier.fromEnvironment()
    #expect(notifier.socketPath == receiver.path)
    notifier.ready()
    notifier.status("up")
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(receiver.fileDescriptor, token: 1)
    _ = try poller.wait(timeoutMilliseconds: 1000)
    #expect(try receiver.receive().map { String(decoding: $0, as: UTF8.self) } == "READY=1")
    #expect(try receiver.receive().map { String(decoding: $0, as: UTF8.self) } == "STATUS=up")
    try Environment.unset("NOTIFY_SOCKET")
    #expect(!SystemdNotifier.fromEnvironment().isEnabled)
  }

  @Test func watchdogFromEnvironment() throws {
    defer {
      try? Environment.unset("WATCHDOG_USEC")
      try? Environment.unset("WATCHDOG_PID")
    }
    #expect(Watchdog.interval() == nil)
    try Environment.set("WATCHDOG_USEC", "4000000")
    #expect(Watchdog.interval() == 2_000_000_000)
    try Environment.set("WATCHDOG_PID", "\(Environment.processID)")
    #expect(Watchdog.interval() == 2_000_000_000)
    try Environment.set("WATCHDOG_PID", "\(Environment.processID + 1)")
    #expect(Watchdog.interval() == nil)
  }

  @Test func journalStreamComparesWithStderr() throws {
    defer { try? Environment.unset("JOURNAL_STREAM") }
    try Environment.unset("JOURNAL_STREAM")
    #expect(!JournalStream.isStderrJournal())
    let identity = try FileDescriptor.standardError.identity()
    try Environment.set("JOURNAL_STREAM", "\(identity.device):\(identity.inode)")
    #expect(JournalStream.isStderrJournal())
    try Environment.set("JOURNAL_STREAM", "\(identity.device):\(identity.inode + 1)")
    #expect(!JournalStream.isStderrJournal())
  }

  @Test func civilTimeHonoursTZ() throws {
    defer { try? Environment.unset("TZ") }
    try Environment.set("TZ", "UTC0")
    WallClock.reloadTimeZone()
    let epoch = WallClock.civilTime(at: WallClock.Instant(seconds: 0, nanoseconds: 5))
    #expect(
      epoch
        == CivilTime(
          year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 5,
          weekday: 4, utcOffsetSeconds: 0))
    // POSIX TZ strings need no tz database: "XYZ-2" is two hours east of UTC.
    try Environment.set("TZ", "XYZ-2")
    // The zone is kept until it is read again.
    #expect(WallClock.civilTime(at: WallClock.Instant(seconds: 1_700_000_000)).hour == 22)
    WallClock.reloadTimeZone()
    let later = WallClock.civilTime(at: WallClock.Instant(seconds: 1_700_000_000))
    // 1_700_000_000 is Tuesday 2023-11-14 22:13:20 UTC, so Wednesday 00:13:20 at UTC+2.
    #expect(later.year == 2023 && later.month == 11 && later.day == 15)
    #expect(later.hour == 0 && later.minute == 13 && later.second == 20)
    #expect(later.utcOffsetSeconds == 7200)
    #expect(later.weekday == 3)

    // The cache breaks each second down once; the nanoseconds are always the instant's own.
    var cache = WallClock.CivilTimeCache()
    let instant = WallClock.Instant(seconds: 1_700_000_000, nanoseconds: 1)
    let system: (WallClock.Instant) -> CivilTime = { WallClock.civilTime(at: $0) }
    #expect(cache.civilTime(at: instant, in: system) == WallClock.civilTime(at: instant))
    try Environment.set("TZ", "UTC0")
    WallClock.reloadTimeZone()
    let sameSecond = cache.civilTime(
      at: WallClock.Instant(seconds: 1_700_000_000, nanoseconds: 7), in: system)
    #expect(sameSecond.hour == 0 && sameSecond.utcOffsetSeconds == 7200)
    #expect(sameSecond.nanosecond == 7)
    #expect(cache.civilTime(at: WallClock.Instant(seconds: 1_700_000_001), in: system).hour == 22)
    // After a zone reload the caller empties it: the same second is broken down afresh.
    try Environment.set("TZ", "XYZ-2")
    WallClock.reloadTimeZone()
    cache.removeAll()
    #expect(cache.civilTime(at: WallClock.Instant(seconds: 1_700_000_001), in: system).hour == 0)
  }

  /// The tz database's own rules, through libc: a local time the clocks skip has no offset, one
  /// they go back over has two, the summer one first.
  @Test func localTimeOffsetsAcrossDST() throws {
    defer {
      try? Environment.unset("TZ")
      WallClock.reloadTimeZone()
    }
    try Environment.set("TZ", "Europe/Berlin")
    WallClock.reloadTimeZone()
    #expect(
      WallClock.offsets(year: 2025, month: 3, day: 30, hour: 2, minute: 30)
        == WallClock.LocalTimeOffsets(offsets: [], before: 3600))
    #expect(
      WallClock.offsets(year: 2025, month: 3, day: 30, hour: 3, minute: 30).offsets == [7200])
    #expect(
      WallClock.offsets(year: 2025, month: 10, day: 26, hour: 2, minute: 30).offsets == [
        7200, 3600,
      ])
    #expect(
      WallClock.offsets(year: 2025, month: 10, day: 26, hour: 6, minute: 0).offsets == [3600])
    try Environment.set("TZ", "America/New_York")
    WallClock.reloadTimeZone()
    #expect(
      WallClock.offsets(year: 2025, month: 3, day: 9, hour: 2, minute: 30)
        == WallClock.LocalTimeOffsets(offsets: [], before: -18_000))
    #expect(
      WallClock.offsets(year: 2025, month: 11, day: 2, hour: 1, minute: 30).offsets == [
        -14_400, -18_000,
      ])
  }

  @Test func moveAsideRenamesWithTimestamp() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("history.jsonl")
    try FileSystem.writeFileAtomically(path, text: "garbage")
    let first = try FileSystem.moveAside(path)
    #expect(!FileSystem.fileExists(path))
    #expect(first.hasPrefix(path + ".corrupt-"))
    #expect(first.count == path.count + ".corrupt-".count + "YYYYMMDD-HHMMSS".count)
    #expect(try FileSystem.readTextFile(first) == "garbage")
    try FileSystem.writeFileAtomically(path, text: "again")
    let second = try FileSystem.moveAside(path)
    #expect(second != first)
    #expect(try FileSystem.readTextFile(second) == "again")
  }

  @Test func spawnPassesEnvironmentOnOrReplacesIt() throws {
    try Environment.set("WODCLOCK_TEST_INHERITED", "yes")
    defer { try? Environment.unset("WODCLOCK_TEST_INHERITED") }
    let inherited = try Subprocess.spawn(
      executable: "/bin/sh", arguments: ["-c", "echo \"$WODCLOCK_TEST_INHERITED\""],
      standardOutput: .pipe)
    #expect(try inherited.standardOutput?.readAllText() == "yes\n")
    #expect(try inherited.wait() == .exited(0))
    try inherited.standardOutput?.close()

    let replaced = try Subprocess.spawn(
      executable: "/bin/sh", arguments: ["-c", "echo \"[$WODCLOCK_TEST_INHERITED][$ONLY]\""],
      environment: ["ONLY=this"], standardOutput: .pipe)
    #expect(try replaced.standardOutput?.readAllText() == "[][this]\n")
    #expect(try replaced.wait() == .exited(0))
    try replaced.standardOutput?.close()
  }

  @Test func bareExecutableNameIsSearchedInPath() throws {
    let child = try Subprocess.spawn(
      executable: "echo", arguments: ["found"], standardOutput: .pipe)
    #expect(try child.standardOutput?.readAllText() == "found\n")
    #expect(try child.wait() == .exited(0))
    try child.standardOutput?.close()
  }

  /// EBADF means the program lost track of its descriptors; HardwareKit traps rather than
  /// throwing, so the bug cannot be mistaken for a device problem and retried. (Here because the
  /// exit test's child process is spawned with a copy of the environment.)
  @Test func closingABadDescriptorTraps() async {
    await #expect(processExitsWith: .failure) {
      try? FileDescriptor(rawValue: 999_999).close()
    }
  }
}
