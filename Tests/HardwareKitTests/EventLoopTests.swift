// SPDX-License-Identifier: MIT
// The event-loop primitives on real descriptors: epoll, timerfd, eventfd, signalfd.

import HardwareKit
import Testing

@Suite struct EventLoopTests {
  /// A poller and a non-blocking pipe, all closed after `body`.
  private func withPolledPipe(
    _ body: (EventPoller, FileDescriptor, FileDescriptor) throws -> Void
  ) throws {
    let poller = try EventPoller()
    let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      try? poller.close()
      try? readEnd.close()
      try? writeEnd.close()
    }
    try body(poller, readEnd, writeEnd)
  }

  @Test func pollerReportsPipeReadable() throws {
    try withPolledPipe { poller, readEnd, writeEnd in
      try poller.register(readEnd, token: 42, interest: .readable)
      #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
      _ = try writeEnd.write(Array("x".utf8))
      let events = try poller.wait(timeoutMilliseconds: 1000)
      #expect(events.count == 1)
      #expect(events.first?.token == 42)
      #expect(events.first?.isReadable == true)
      #expect(events.first?.isHangup == false)
    }
  }

  @Test func pollerWaitIntoAnArrayReplacesItsContentsAndKeepsItsStorage() throws {
    try withPolledPipe { poller, readEnd, writeEnd in
      try poller.register(readEnd, token: 5, interest: .readable)
      var events: [EventPoller.Event] = []
      events.reserveCapacity(32)
      let storage = events.withUnsafeBufferPointer { $0.baseAddress }
      _ = try writeEnd.write(Array("x".utf8))
      for _ in 0..<3 {
        try poller.wait(timeoutMilliseconds: 1000, into: &events)
        #expect(events.map(\.token) == [5])
        #expect(events.withUnsafeBufferPointer { $0.baseAddress } == storage)
      }
      var drained: [UInt8] = []
      _ = try readEnd.read(appendingTo: &drained, maximumCount: 16)
      try poller.wait(timeoutMilliseconds: 0, into: &events)
      #expect(events.isEmpty)
    }
  }

  @Test func pollerReportsHangupWhenWriterCloses() throws {
    let poller = try EventPoller()
    let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      try? poller.close()
      try? readEnd.close()
    }
    try poller.register(readEnd, token: 7)
    try writeEnd.close()
    let events = try poller.wait(timeoutMilliseconds: 1000)
    #expect(events.first?.isHangup == true)
  }

  @Test func pollerModifyAndUnregister() throws {
    try withPolledPipe { poller, readEnd, writeEnd in
      try poller.register(writeEnd, token: 1, interest: .readable)
      #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
      try poller.modify(writeEnd, token: 2, interest: .writable)
      let events = try poller.wait(timeoutMilliseconds: 1000)
      #expect(events.map(\.token) == [2])
      #expect(events.first?.isWritable == true)
      try poller.unregister(writeEnd)
      #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
    }
  }

  @Test func pollerWaitUntilDeadlineDoesNotReturnEarly() throws {
    let poller = try EventPoller()
    defer { try? poller.close() }
    let deadline = MonotonicClock.now() + 30_000_000
    let events = try poller.wait(until: deadline)
    #expect(events.isEmpty)
    #expect(MonotonicClock.now() >= deadline)
  }

  @Test func deadlineTimerFiresAtOrAfterItsDeadline() throws {
    let poller = try EventPoller()
    let timer = try DeadlineTimer()
    defer {
      try? poller.close()
      try? timer.close()
    }
    try poller.register(timer.fileDescriptor, token: 99)
    let deadline = MonotonicClock.now() + 20_000_000
    try timer.arm(at: deadline)
    #expect(try timer.readExpirations() == 0)
    var events: [EventPoller.Event] = []
    while events.isEmpty { events = try poller.wait(timeoutMilliseconds: 1000) }
    let woke = MonotonicClock.now()
    #expect(events.map(\.token) == [99])
    #expect(woke >= deadline)
    #expect(try timer.readExpirations() == 1)
    #expect(try timer.readExpirations() == 0)
  }

  @Test func deadlineInThePastFiresImmediately() throws {
    let timer = try DeadlineTimer()
    defer { try? timer.close() }
    try timer.arm(at: MonotonicClock.now() - 1_000_000_000)
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(timer.fileDescriptor, token: 1)
    #expect(try poller.wait(timeoutMilliseconds: 1000).count == 1)
    #expect(try timer.readExpirations() == 1)
  }

  /// The daemon's loop does not read the timer after it fires: re-arming must clear it.
  @Test func rearmingClearsAnUnreadExpiration() throws {
    let timer = try DeadlineTimer()
    defer { try? timer.close() }
    try timer.arm(at: MonotonicClock.now() - 1_000_000)
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(timer.fileDescriptor, token: 1)
    #expect(try poller.wait(timeoutMilliseconds: 1000).count == 1)
    try timer.arm(at: MonotonicClock.now() + 60_000_000_000)
    #expect(try poller.wait(timeoutMilliseconds: 20).isEmpty)
    #expect(try timer.readExpirations() == 0)
    try timer.arm(at: MonotonicClock.now() + 5_000_000)
    #expect(try poller.wait(timeoutMilliseconds: 1000).count == 1)
  }

  @Test func disarmedTimerDoesNotFire() throws {
    let timer = try DeadlineTimer()
    defer { try? timer.close() }
    try timer.arm(at: MonotonicClock.now() + 5_000_000)
    try timer.disarm()
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(timer.fileDescriptor, token: 1)
    #expect(try poller.wait(timeoutMilliseconds: 20).isEmpty)
  }

  @Test func eventNotifierWakesPollerFromAnotherThread() async throws {
    let poller = try EventPoller()
    let notifier = try EventNotifier()
    defer {
      try? poller.close()
      try? notifier.close()
    }
    try poller.register(notifier.fileDescriptor, token: 5)
    #expect(try poller.wait(timeoutMilliseconds: 0).isEmpty)
    let task = Task.detached {
      try notifier.notify()
      try notifier.notify()
    }
    try await task.value
    let events = try poller.wait(timeoutMilliseconds: 1000)
    #expect(events.map(\.token) == [5])
    #expect(try notifier.consume() == 2)
    #expect(try notifier.consume() == 0)
  }

  /// The test runner has many threads, and a process-directed signal goes to any thread that
  /// does not block it, so this sends SIGHUP to the calling thread (the single-threaded daemon
  /// receives `kill` from systemd the same way, through the same signalfd path).
  @Test func signalWatcherReceivesHangupWithSender() throws {
    let watcher = try SignalWatcher(signals: [.hangup])
    defer { try? watcher.close(unblockingSignals: true) }
    #expect(try watcher.next() == nil)
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(watcher.fileDescriptor, token: 3)
    try Signal.raiseInCurrentThread(.hangup)
    let events = try poller.wait(timeoutMilliseconds: 1000)
    #expect(events.map(\.token) == [3])
    let delivery = try watcher.next()
    #expect(delivery?.signal == .hangup)
    #expect(delivery?.senderPID == Environment.processID)
    #expect(try watcher.next() == nil)
  }

  @Test func signalNames() {
    #expect(Signal.hangup.description == "SIGHUP")
    #expect(Signal.terminate.description == "SIGTERM")
  }
}
