// SPDX-License-Identifier: MIT
// sd_notify against a real datagram receiver, and the watchdog and journal-stream rules.

import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct SystemdTests {
  private func payload(_ receiver: DatagramSocket) throws -> String? {
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(receiver.fileDescriptor, token: 1)
    _ = try poller.wait(timeoutMilliseconds: 1000)
    return try receiver.receive().map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func notifiesAPathSocket() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let receiver = try DatagramSocket(boundTo: scratch.file("notify"))
    defer { receiver.close() }
    let notifier = SystemdNotifier(socketPath: receiver.path)
    #expect(notifier.isEnabled)

    #expect(notifier.ready() == nil)
    #expect(try payload(receiver) == "READY=1")
    notifier.status("display: ok\nserial: waiting")
    #expect(try payload(receiver) == "STATUS=display: ok serial: waiting")
    notifier.watchdog()
    #expect(try payload(receiver) == "WATCHDOG=1")
    notifier.reloading(monotonicNanoseconds: 12_345_678_901)
    #expect(try payload(receiver) == "RELOADING=1\nMONOTONIC_USEC=12345678")
    notifier.stopping()
    #expect(try payload(receiver) == "STOPPING=1")
    notifier.ready(status: "running")
    #expect(try payload(receiver) == "READY=1\nSTATUS=running")
    #expect(try receiver.receive() == nil)
  }

  @Test func notifiesAnAbstractSocket() throws {
    let name = "@wodclock-notify-\(Environment.processID)-\(MonotonicClock.now())"
    let receiver = try DatagramSocket(boundTo: name)
    defer { receiver.close() }
    let notifier = SystemdNotifier(socketPath: name)
    notifier.ready()
    #expect(try payload(receiver) == "READY=1")
    let before = MonotonicClock.now() / 1000
    notifier.reloading()
    let text = try #require(try payload(receiver))
    #expect(text.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
    let microseconds = Int64(text.split(separator: "=").last ?? "") ?? 0
    #expect(microseconds >= before)
  }

  @Test func disabledNotifierDoesNothing() {
    let notifier = SystemdNotifier(socketPath: nil)
    #expect(!notifier.isEnabled)
    #expect(notifier.ready() == nil)
    #expect(SystemdNotifier(socketPath: "").isEnabled == false)
  }

  @Test func vanishedManagerIsNotAnError() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let notifier = SystemdNotifier(socketPath: scratch.file("gone"))
    #expect(notifier.ready() == .noSuchFile)
  }

  @Test func watchdogParsing() {
    let mine: Int32 = 1234
    #expect(
      Watchdog.parse(watchdogUSec: "10000000", watchdogPID: nil, processID: mine)
        == Watchdog(timeoutMicroseconds: 10_000_000))
    #expect(
      Watchdog.parse(watchdogUSec: "10000000", watchdogPID: "1234", processID: mine)?
        .pingIntervalNanoseconds == 5_000_000_000)
    #expect(Watchdog.parse(watchdogUSec: "10000000", watchdogPID: "999", processID: mine) == nil)
    #expect(Watchdog.parse(watchdogUSec: "10000000", watchdogPID: "x", processID: mine) == nil)
    #expect(Watchdog.parse(watchdogUSec: nil, watchdogPID: "1234", processID: mine) == nil)
    #expect(Watchdog.parse(watchdogUSec: "0", watchdogPID: nil, processID: mine) == nil)
    #expect(Watchdog.parse(watchdogUSec: "ten", watchdogPID: nil, processID: mine) == nil)
  }

  @Test func journalStreamMatching() {
    #expect(JournalStream.matches("8:12345", device: 8, inode: 12_345))
    #expect(!JournalStream.matches("8:12345", device: 8, inode: 12_346))
    #expect(!JournalStream.matches("8", device: 8, inode: 12_345))
    #expect(!JournalStream.matches("", device: 0, inode: 0))
  }
}
