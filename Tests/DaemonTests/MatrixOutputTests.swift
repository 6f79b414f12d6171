// SPDX-License-Identifier: MIT
// The serial-matrix output end to end on a pseudo-terminal: frames decoded by the peer, the
// keep-alive, the early send that lands a frame's last byte on the second boundary, and a
// controller unplugged and plugged back 100 times without a leaked descriptor.

import ConfigFormat
import Configuration
import DisplayKit
import Glibc
import HardwareKit
import JSONKit
import MatrixKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

@Suite(.serialized) struct MatrixOutputTests {
  static let second: Int64 = 1_000_000_000

  func settings(baud: Int = 115_200) -> PluginSettings {
    PluginSettings(
      values: [
        KeyedSetting(key: "width", value: .integer(32)),
        KeyedSetting(key: "height", value: .integer(16)),
        KeyedSetting(key: "baud", value: .integer(baud)),
        KeyedSetting(key: "gamma", value: .string("1")),
        KeyedSetting(key: "max_current_ma", value: .integer(0)),
        KeyedSetting(key: "startup_delay", value: .duration(.zero)),
      ], locations: [:])
  }

  func makeOutput(path: @escaping () -> String, baud: Int = 115_200) throws -> MatrixOutput {
    try MatrixOutput(
      id: "matrix", kind: "serial-matrix", settings: settings(baud: baud),
      transport: {
        SerialMatrixTransport(path: { path() }, baud: baud, framing: .adalight)
      })
  }

  /// An EMOM running since `origin`, seen at `seconds`.
  func frame(_ engine: inout WorkoutEngine, at seconds: Double, now: Int64) -> OutputFrame {
    let instant = MonotonicInstant(nanoseconds: Int64(seconds * 1e9))
    _ = engine.advance(to: instant)
    return DaemonTests.frame(engine.snapshot(at: instant), at: now, hour: 10)
  }

  func emom() throws -> WorkoutEngine {
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(
        name: "EMOM", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 5))))
    _ = try engine.apply(.start, at: MonotonicInstant(nanoseconds: 0))
    return engine
  }

  func expected(_ snapshot: WorkoutSnapshot) -> [UInt8] {
    MatrixRenderer(width: 32, height: 16).render(
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
    let at6 = MonotonicInstant(nanoseconds: 6 * Self.second)
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

  @Test(.timeLimit(.minutes(1)))
  func anUnpluggedControllerIsReopenedAndNothingLeaks() throws {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "wodclock-matrix-")
    defer { try? FileSystem.removeDirectory(directory) }
    // The device name stays the same, like /dev/serial/by-id/…; the tty behind it changes.
    let link = directory + "/by-id-controller"
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
    // Other suites open and close descriptors in this process at the same time, so the count
    // wanders by dozens in a full run; a leak of one per replug would show as 100 more.
    let after = try FileSystem.directoryEntries("/proc/self/fd").count
    #expect(after - (before - 3) < 60, "\(before) descriptors before, \(after) after")
    #expect(lines.values.filter { $0.contains("lost") }.count == 100)
    #expect(lines.values.filter { $0.contains("controller back") }.count == 100)
  }
}

final class LogLines: @unchecked Sendable {
  var values: [String] = []
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
