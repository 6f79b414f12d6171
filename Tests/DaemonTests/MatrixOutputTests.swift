// SPDX-License-Identifier: MIT
// The serial-matrix output end to end on a pseudo-terminal: frames decoded by the peer, the
// keep-alive, the early send that lands a frame's last byte on the second boundary, a
// controller unplugged and plugged back 100 times without a leaked descriptor, the picture kept
// for `wodclockctl snapshot` while it is away, and the current cap: the config check's warning,
// a default that lights a 64×32 panel, and a budget too small that dims but never blanks it.

import ConfigFormat
import Configuration
import DisplayKit
import Glibc
import HardwareKit
import JSONKit
import MatrixKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

@Suite(.serialized) struct MatrixOutputTests {
  static let second: Int64 = 1_000_000_000

  /// A 32×16 matrix without gamma correction or a current cap, so the frames are the renderer's
  /// pixels, sending from the open on; its transport stands in for the device named.
  func makeOutput(
    path: @escaping () -> String, baud: Int = 115_200, width: Int = 32, height: Int = 16
  ) throws -> MatrixOutput {
    let instance = try pluginInstance(
      .output,
      "{type: serial-matrix, id: matrix, device: /dev/ttyACM0, baud: \(baud), width: \(width), "
        + "height: \(height), gamma: 1, max_current_ma: 0, startup_delay: 0s}")
    return try MatrixOutput(
      instance: instance,
      transport: {
        SerialMatrixTransport(path: { path() }, baud: baud, framing: .adalight)
      })
  }

  /// An EMOM running since `origin`, seen at `seconds`.
  func frame(_ engine: inout WorkoutEngine, at seconds: Double, now: Int64) -> OutputFrame {
    let instant = EngineInstant(nanoseconds: Int64(seconds * 1e9))
    _ = engine.advance(to: instant)
    return DaemonTests.frame(engine.snapshot(at: instant), at: now, hour: 10)
  }

  func emom() throws -> WorkoutEngine {
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "EMOM", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 5))))
    _ = try engine.apply(.start, at: EngineInstant(nanoseconds: 0))
    return engine
  }

  func expected(_ snapshot: WorkoutSnapshot, width: Int = 32, height: Int = 16) -> [UInt8] {
    MatrixRenderer(width: width, height: height).render(
      snapshot, timeOfDay: TimeOfDay(hour: 10, minute: 0), milliseconds: 0
    ).rgbBytes
  }

  /// Every complete Adalight frame the peer has received so far.
  func drain(_ terminal: PseudoTerminal, _ output: MatrixOutput, frame: OutputFrame) throws
    -> [[UInt8]]
  {
    var bytes: [UInt8] = []
    for _ in 0..<50 {
      while case .bytes(let count) = try terminal.primary.read(appendingTo: &bytes), count > 0 {}
      if bytes.count % (6 + 32 * 16 * 3) == 0 && !bytes.isEmpty { break }
      try output.render(frame)  // flushes the rest of a frame on its way
      usleep(200)
    }
    let length = 6 + 32 * 16 * 3
    return stride(from: 0, to: bytes.count - bytes.count % length, by: length).compactMap {
      decodeAdalight(Array(bytes[$0..<($0 + length)]))
    }
  }

  /// An output started on a new pseudo-terminal at 115200 baud; the peer reads without blocking.
  func startedOutput() throws -> (PseudoTerminal, MatrixOutput) {
    let terminal = try PseudoTerminal.open()
    try terminal.primary.setNonBlocking()
    let path = terminal.secondaryPath
    let output = try makeOutput(path: { path })
    try output.start(
      PluginContext(id: "matrix", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    return (terminal, output)
  }

  @Test func framesAreSentWhenThePictureChangesAndAsKeepAlive() throws {
    let (terminal, output) = try startedOutput()
    defer {
      output.stop()
      try? terminal.close()
    }
    var engine = try emom()
    let first = frame(&engine, at: 5.2, now: 100 * Self.second)
    try output.render(first)
    #expect(try drain(terminal, output, frame: first) == [expected(first.snapshot)])
    // The same picture 50 ms later: nothing is sent.
    let same = frame(&engine, at: 5.25, now: 100 * Self.second + 50_000_000)
    try output.render(same)
    #expect(try drain(terminal, output, frame: same).isEmpty)
    // The keep-alive is due a second after the last frame.
    #expect(output.nextWakeUp(after: same.monotonicNow) == 101 * Self.second)
    let keepAlive = frame(&engine, at: 5.3, now: 101 * Self.second)
    try output.render(keepAlive)
    #expect(try drain(terminal, output, frame: keepAlive) == [expected(keepAlive.snapshot)])
    // A new second: a new picture at once.
    let next = frame(&engine, at: 6.1, now: 101 * Self.second + 200_000_000)
    try output.render(next)
    #expect(try drain(terminal, output, frame: next) == [expected(next.snapshot)])
  }

  /// A heat's finished lanes are drawn under the clock and take turns on a panel too small
  /// for both: the output asks for a frame a wire time before each turn, and that frame shows
  /// the next turn.
  @Test func aHeatsLanesAreShownAndTheirTurnsComeOnTime() throws {
    let (terminal, output) = try startedOutput()
    defer {
      output.stop()
      try? terminal.close()
    }
    var engine = try emom()
    let board = LaneBoard(
      heat: 1, phase: .running,
      lanes: [
        LaneLine(lane: 1, athlete: "Anna", result: "4:01", place: 1),
        LaneLine(lane: 2, athlete: "Ben", result: "4:30", place: 2),
      ])
    let renderer = MatrixRenderer(width: 32, height: 16)
    func picture(_ frame: OutputFrame, milliseconds: Int64) -> [UInt8] {
      renderer.render(
        frame.snapshot, timeOfDay: TimeOfDay(hour: 10, minute: 0), milliseconds: milliseconds,
        lanes: board
      ).rgbBytes
    }
    var current = frame(&engine, at: 5.2, now: 99 * Self.second)
    current.lanes = board
    try output.render(current)
    let first = picture(current, milliseconds: 99_000)
    #expect(try drain(terminal, output, frame: current) == [first])
    #expect(first != expected(current.snapshot), "the lanes are on the picture")
    // The turns change every 3 s of the monotonic clock: at 102 s, a wire time ahead.
    let lead: Int64 = 1542 * 10 * Self.second / 115_200
    #expect(output.nextWakeUp(after: 101 * Self.second + 500_000_000) == 102 * Self.second - lead)
    var early = frame(&engine, at: 7.9, now: 102 * Self.second - lead)
    early.lanes = board
    try output.render(early)
    let second = picture(early, milliseconds: 102_000)
    #expect(second != first)
    #expect(try drain(terminal, output, frame: early) == [second])
  }

  @Test func aFrameLeavesEarlyByItsWireTime() throws {
    let (terminal, output) = try startedOutput()
    defer {
      output.stop()
      try? terminal.close()
    }
    var engine = try emom()
    var current = frame(&engine, at: 5.5, now: 50 * Self.second)
    let boundary = 50 * Self.second + 500_000_000
    var ahead = engine
    let at6 = EngineInstant(nanoseconds: 6 * Self.second)
    _ = ahead.advance(to: at6)
    let future = ahead.snapshot(at: at6)
    current.nextChange = boundary
    current.preview = FramePreview { _ in (future, current.civilTime) }
    try output.render(current)
    _ = try drain(terminal, output, frame: current)
    // 1542 bytes at 115200 baud, 10 bits each: 133.85 ms before the boundary.
    let lead: Int64 = 1542 * 10 * Self.second / 115_200
    #expect(output.nextWakeUp(after: current.monotonicNow + 1) == boundary - lead)
    var early = frame(&engine, at: 5.5 + 0.36, now: boundary - lead)
    early.nextChange = boundary
    early.preview = FramePreview { _ in (future, early.civilTime) }
    try output.render(early)
    // The picture sent shows the next second (0:54), not the current one.
    #expect(try drain(terminal, output, frame: early) == [expected(future)])
  }

  /// A frame larger than the pty's buffer is finished as the port becomes writable: the output
  /// asks the loop for writability while the frame is on its way, and only then, and sets no
  /// timer of its own to push the rest.
  @Test(.timeLimit(.minutes(1)))
  func aFrameLargerThanThePortsBufferIsFinishedOnWritability() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let path = terminal.secondaryPath
    let output = try makeOutput(path: { path }, baud: 1_000_000, width: 128, height: 64)
    try output.start(
      PluginContext(id: "matrix", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    defer { output.stop() }
    #expect(output.watchedDescriptors.isEmpty, "nothing on its way, nothing watched")

    var engine = try emom()
    let shown = frame(&engine, at: 5.2, now: 100 * Self.second)
    try output.render(shown)
    let port = try #require(output.serialDescriptor)
    // 24 582 bytes, while the pty takes about 12 to 16 KiB before its peer reads.
    #expect(output.watchedDescriptors == [WatchedDescriptor(port, for: .writable)])
    // The next wake-up is the keep-alive's, a second on: none to push the rest of the frame.
    #expect(output.nextWakeUp(after: shown.monotonicNow + 1) == 101 * Self.second)

    // The loop's part: the peer reads, the port turns writable, the output writes on.
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(port, token: 1, interest: .writable)
    var received: [UInt8] = []
    var writableCalls = 0
    while !output.watchedDescriptors.isEmpty && writableCalls < 10_000 {
      while case .bytes(let count) = try terminal.primary.read(appendingTo: &received), count > 0 {}
      for event in try poller.wait(timeoutMilliseconds: 1_000) {
        #expect(event.isWritable)
        try output.handleReady(port, Readiness(event), at: shown.monotonicNow)
        writableCalls += 1
      }
    }
    try poller.unregister(port)
    while case .bytes(let count) = try terminal.primary.read(appendingTo: &received), count > 0 {}
    #expect(writableCalls > 0)
    #expect(output.watchedDescriptors.isEmpty, "the frame is out: writability is not watched")
    #expect(received.count == 6 + 128 * 64 * 3)
    let arrivedWhole = decodeAdalight(received) == expected(shown.snapshot, width: 128, height: 64)
    #expect(arrivedWhole, "the peer decodes the frame the output drew")
  }

  @Test func whileTheControllerIsAwayTheSnapshotIsTheLastPictureItGot() throws {
    let started = try startedOutput()
    var terminal: PseudoTerminal? = started.0
    let output = started.1
    defer {
      output.stop()
      try? terminal?.close()
    }
    var engine = try emom()
    let sent = frame(&engine, at: 5.2, now: 100 * Self.second)
    try output.render(sent)
    let received = try drain(try #require(terminal), output, frame: sent)
    #expect(received == [expected(sent.snapshot)])
    // Plugged: the picture the controller got.
    #expect(output.shownPicture?.rgbBytes == received.last)
    // Unplugged; the next second's picture is drawn, and its send fails.
    let held = try #require(output.serialDescriptor)
    try terminal?.close()
    terminal = nil
    var hangUp = pollfd(fd: held.rawValue, events: Int16(POLLIN), revents: 0)
    _ = poll(&hangUp, 1, 5_000)
    let failed = frame(&engine, at: 6.1, now: 101 * Self.second)
    #expect(expected(failed.snapshot) != received.last)
    try output.render(failed)
    #expect(!output.isConnected)
    #expect(output.shownPicture?.rgbBytes == received.last, "the picture of the failed send")
  }

  @Test(.timeLimit(.minutes(1)))
  func anUnpluggedControllerIsReopenedAndNothingLeaks() throws {
    // Removed with the link in it (a bare rmdir of a directory holding the link fails).
    let scratch = try ScratchDirectory(prefix: "wodclock-matrix-")
    defer { scratch.remove() }
    // The device name stays the same, like /dev/serial/by-id/…; the tty behind it changes.
    let link = scratch.file("by-id-controller")
    var terminal = try PseudoTerminal.open()
    _ = symlink(terminal.secondaryPath, link)
    let lines = LogLines()
    let logger = Logger(minimumLevel: .debug)
    logger.sink = { _, line in lines.values.append(line) }
    let output = try makeOutput(path: { link }, baud: 1_000_000)
    try output.start(PluginContext(id: "matrix", logger: logger, speed: 1, claimTerminal: { _ in }))
    var engine = try emom()
    var now = 10 * Self.second
    var seconds = 1.0
    let before = try FileSystem.directoryEntries("/proc/self/fd").count
    for cycle in 0..<100 {
      try terminal.primary.setNonBlocking()
      let shown = frame(&engine, at: seconds, now: now)
      try output.render(shown)
      #expect(output.isConnected, "cycle \(cycle)")
      #expect(try drain(terminal, output, frame: shown).last == expected(shown.snapshot))
      let held = try #require(output.serialDescriptor)
      var status = stat()
      _ = fstat(held.rawValue, &status)
      let device = status.st_rdev
      // Unplug: the tty hangs up once the last reference to its primary side is gone. A
      // process that another suite spawns at this moment holds a copy of every descriptor until
      // it execs, so the hang-up can come a little later than the close: wait for it, as the
      // output would see it on its next frame after a real unplug.
      try terminal.close()
      // The by-id link goes with the device, as udev removes it: the retries below must not open
      // a pty that another test got under the freed number meanwhile.
      _ = unlink(link)
      var hangUp = pollfd(fd: held.rawValue, events: Int16(POLLIN), revents: 0)
      _ = poll(&hangUp, 1, 5_000)
      #expect(Int32(hangUp.revents) & POLLHUP != 0, "cycle \(cycle)")
      now += 10_000_000
      seconds += 1
      try output.render(frame(&engine, at: seconds, now: now))
      #expect(!output.isConnected)
      // The descriptor of the gone tty is closed (or already reused for something else).
      let closed = fcntl(held.rawValue, F_GETFD) == -1 || fstat(held.rawValue, &status) != 0
      #expect(closed || status.st_rdev != device, "cycle \(cycle)")
      // Still away: retries do not spin and do not report again.
      now += 300_000_000
      try output.render(frame(&engine, at: seconds, now: now))
      // Plugged back.
      terminal = try PseudoTerminal.open()
      _ = symlink(terminal.secondaryPath, link)
      now = output.nextWakeUp(after: now) ?? now
      seconds += 1
    }
    try terminal.primary.setNonBlocking()
    let last = frame(&engine, at: seconds, now: now)
    try output.render(last)
    #expect(output.isConnected)
    #expect(try drain(terminal, output, frame: last).last == expected(last.snapshot))
    output.stop()
    try terminal.close()
    // Other suites open and close descriptors in this process at the same time (the speaker's
    // tests spawn voice children with their pipes), so the count wanders by dozens in a full
    // run: 66 once; a leak of one per replug would show as 100 more.
    let after = try FileSystem.directoryEntries("/proc/self/fd").count
    #expect(after - (before - 3) < 90, "\(before) descriptors before, \(after) after")
    #expect(lines.values.filter { $0.contains("lost") }.count == 100)
    #expect(lines.values.filter { $0.contains("controller back") }.count == 100)
  }
}

final class LogLines: @unchecked Sendable {
  var values: [String] = []
}

/// The Adalight frames of `ledCount` LEDs the peer of `terminal` has received: reads what is
/// waiting (the primary side does not block) onto `bytes`, then decodes every whole frame there.
func adalightFrames(_ terminal: PseudoTerminal, _ bytes: inout [UInt8], ledCount: Int) throws
  -> [[UInt8]]
{
  while case .bytes(let count) = try terminal.primary.read(appendingTo: &bytes), count > 0 {}
  let length = 6 + ledCount * 3
  return stride(from: 0, to: bytes.count - bytes.count % length, by: length).compactMap {
    decodeAdalight(Array(bytes[$0..<($0 + length)]))
  }
}

@Suite struct MatrixDaemonTests {
  @Test(.timeLimit(.minutes(1)))
  func theDaemonDrivesAMatrixOnASerialPort() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let daemon = try DaemonHarness(
      config: testConfig + """

          - type: serial-matrix
            device: \(terminal.secondaryPath)
            baud: 1000000
            width: 32
            height: 16
            startup_delay: 0s
        """)
    try daemon.start()
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)
    let length = 6 + 32 * 16 * 3
    var bytes: [UInt8] = []
    // The EMOM counts down a 10 s interval: a new picture every second.
    _ = try eventually(timeoutMilliseconds: 5_000) {
      while case .bytes(let count) = try terminal.primary.read(appendingTo: &bytes), count > 0 {}
      return bytes.count >= 3 * length
    }
    let frames = stride(from: 0, to: bytes.count - bytes.count % length, by: length).compactMap {
      decodeAdalight(Array(bytes[$0..<($0 + length)]))
    }
    #expect(frames.count >= 3, "\(bytes.count) bytes; log:\n\(daemon.log)")
    #expect(Set(frames).count >= 2)  // the seconds change
    #expect(frames.allSatisfy { $0.contains { $0 != 0 } })
    try daemon.signal(.terminate)
    try daemon.waitForExit()
    // Stopping leaves the matrix dark.
    bytes.removeAll()
    while case .bytes(let count) = try terminal.primary.read(appendingTo: &bytes), count > 0 {}
    let last = bytes.count >= length ? decodeAdalight(Array(bytes.suffix(length))) : nil
    #expect(last?.allSatisfy { $0 == 0 } == true)
  }
}

/// The current cap with the real binaries, on a 64×32 panel (2,048 LEDs, 2,048 mA idle) unless
/// a test says otherwise, with the shipped gamma and brightness.
@Suite struct MatrixCurrentTests {
  func config(device: String, width: Int = 64, height: Int = 32, budget: Int? = nil) -> String {
    var lines = [
      "  - type: serial-matrix", "    id: wall", "    device: \(device)", "    baud: 1000000",
      "    width: \(width)", "    height: \(height)", "    startup_delay: 0s",
    ]
    if let budget { lines.append("    max_current_ma: \(budget)") }
    return testConfig + "\n" + lines.joined(separator: "\n") + "\n"
  }

  func check(_ config: String) throws -> (status: Int32, output: String, error: String) {
    let daemon = try DaemonHarness(config: config)
    return try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
  }

  @Test func theConfigCheckWarnsWhenTheIdleDrawUsesUpTheBudget() throws {
    let small = try check(config(device: "/dev/null", budget: 2_000))
    #expect(small.status == 0, "\(small.error)")
    #expect(small.output.hasPrefix("ok: "))
    #expect(
      small.error.contains(
        "wodclock.yaml:21:21: warning: max_current_ma (2000 mA) does not cover the 2048 mA the "
          + "2048 LEDs of a 64x32 panel draw idle (1 mA each): the picture is shown at its lowest "
          + "visible level, over the budget"), "\(small.error)")
    #expect(small.error.contains("    max_current_ma: 2000\n                    ^~~~\n"))
    #expect(
      small.error.contains(
        "hint: a 64x32 panel needs max_current_ma: 4096 or more (its idle draw, and as much "
          + "again for the picture)"))

    // The default budget lights a 64×32 panel, not a 128×64 one: said at its entry.
    let standard = try check(config(device: "/dev/null"))
    #expect(standard.status == 0)
    #expect(standard.error.isEmpty, "\(standard.error)")
    let big = try check(config(device: "/dev/null", width: 128, height: 64))
    #expect(big.status == 0)
    #expect(
      big.error.contains(
        "wodclock.yaml:14:5: warning: max_current_ma (5000 mA) does not cover the 8192 mA the "
          + "8192 LEDs of a 128x64 panel draw idle"), "\(big.error)")
    #expect(big.error.contains("hint: a 128x64 panel needs max_current_ma: 16384 or more"))
    #expect(try check(config(device: "/dev/null", width: 128, height: 64, budget: 0)).error.isEmpty)
  }

  /// The frames a daemon running the EMOM on `config`'s matrix sends, once at least three came.
  func framesOfARunningWorkout(_ daemon: DaemonHarness, _ terminal: PseudoTerminal) throws
    -> [[UInt8]]
  {
    try daemon.start()
    #expect(try daemon.ctl(["start"]).status == 0)
    var bytes: [UInt8] = []
    var frames: [[UInt8]] = []
    _ = try eventually {
      frames = try adalightFrames(terminal, &bytes, ledCount: 64 * 32)
      return frames.count >= 3
    }
    return frames
  }

  @Test(.timeLimit(.minutes(1)))
  func theDefaultBudgetLightsA64x32Panel() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let daemon = try DaemonHarness(config: config(device: terminal.secondaryPath))
    let frames = try framesOfARunningWorkout(daemon, terminal)
    #expect(frames.count >= 3, "log:\n\(daemon.log)")
    #expect(frames.allSatisfy { $0.contains { $0 != 0 } }, "a dark frame; log:\n\(daemon.log)")
    #expect(!daemon.log.contains("LED budget too small"), "\(daemon.log)")
  }

  @Test(.timeLimit(.minutes(1)))
  func aBudgetTheIdleDrawUsesUpDimsThePictureAndSaysSo() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let daemon = try DaemonHarness(config: config(device: terminal.secondaryPath, budget: 1_000))
    let frames = try framesOfARunningWorkout(daemon, terminal)
    #expect(frames.count >= 3, "log:\n\(daemon.log)")
    // Every frame lit, none brighter than the lowest visible level.
    #expect(frames.allSatisfy { $0.contains { $0 != 0 } }, "a dark frame; log:\n\(daemon.log)")
    #expect(frames.allSatisfy { ($0.max() ?? 0) <= OutputPipeline.lowestVisibleLevel })
    // Said once, with what the panel needs.
    let warnings = daemon.log.split(separator: "\n").filter {
      $0.contains("LED budget too small for the picture")
    }
    #expect(warnings.count == 1, "\(daemon.log)")
    #expect(
      warnings.first?.contains("plugin=wall max_current_ma=1000 idle_ma=2048 estimated_ma=")
        == true, "\(daemon.log)")
    #expect(warnings.first?.hasSuffix("needs_ma=4096") == true, "\(daemon.log)")
  }
}
