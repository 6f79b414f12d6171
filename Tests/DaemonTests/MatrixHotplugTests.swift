// SPDX-License-Identifier: MIT
// A serial LED matrix that is unplugged and plugged back, on pseudo-terminals: with udevd the
// output waits for its tty's `add` event (a fake monitor plays udev, since ptys make no uevents)
// and reopens then; without udevd, or without a monitor, it retries with backoff.

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

/// Tty events a test announces; its descriptor is readable while any is queued, like udev's
/// netlink socket.
final class FakeSerialMonitor: SerialHotplugMonitor {
  let fileDescriptor: FileDescriptor
  private let writeEnd: FileDescriptor
  private var queued: [SerialHotplugEvent] = []

  init() throws {
    let pipe = try FileDescriptor.pipe(nonBlocking: true)
    fileDescriptor = pipe.readEnd
    writeEnd = pipe.writeEnd
  }

  func announce(_ action: String, _ device: SerialDeviceInfo) {
    queued.append(SerialHotplugEvent(action: action, device: device))
    _ = try? writeEnd.write([1])
  }

  func drain() -> [SerialHotplugEvent] {
    var bytes: [UInt8] = []
    while case .bytes? = try? fileDescriptor.read(appendingTo: &bytes, maximumCount: 64) {}
    defer { queued = [] }
    return queued
  }

  var isReadable: Bool {
    var entry = pollfd(fd: fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  deinit {
    try? fileDescriptor.close()
    try? writeEnd.close()
  }
}

@Suite(.serialized) struct MatrixHotplugTests {
  static let second: Int64 = 1_000_000_000
  static let millisecond: Int64 = 1_000_000
  static let frameLength = 6 + 32 * 16 * 3

  /// A controller behind a stable name (like /dev/serial/by-id/…) whose tty changes on replug.
  /// Only the device side of each pseudo-terminal stays open here, so the output is the tty's
  /// only user, as with a real port.
  final class Controller {
    let directory: String
    let link: String
    private var device: FileDescriptor?

    init() throws {
      directory = try FileSystem.makeTemporaryDirectory(prefix: "wodclock-hotplug-")
      link = directory + "/usb-Test_Matrix-if00"
    }

    /// Plugs it in: a new tty behind the link.
    @discardableResult
    func plug() throws -> SerialDeviceInfo {
      let terminal = try PseudoTerminal.open()
      try terminal.secondary.close()
      try terminal.primary.setNonBlocking()
      _ = unlink(link)
      _ = symlink(terminal.secondaryPath, link)
      device = terminal.primary
      return SerialDeviceInfo(
        devnode: terminal.secondaryPath, vendorID: 0x303A, productID: 0x1001, links: [link])
    }

    /// Pulls it out and waits until `held` (the output's descriptor) sees the hang-up: a process
    /// another suite spawns at this moment holds a copy of the device side until it execs.
    func unplug(heldAs held: FileDescriptor?) throws {
      try device?.close()
      device = nil
      _ = unlink(link)
      if let held {
        var hangUp = pollfd(fd: held.rawValue, events: Int16(POLLIN), revents: 0)
        _ = poll(&hangUp, 1, 5_000)
      }
    }

    /// The bytes that arrived since the last call.
    func received() throws -> [UInt8] {
      var bytes: [UInt8] = []
      guard let device else { return bytes }
      do {
        while case .bytes(let count) = try device.read(appendingTo: &bytes), count > 0 {}
      } catch {
        // EIO: nobody has the tty open (pty(7)), so nothing was sent.
        guard error.errno.rawValue == EIO else { throw error }
      }
      return bytes
    }

    deinit {
      try? device?.close()
      _ = unlink(link)
      try? FileSystem.removeDirectory(directory)
    }
  }

  /// A started output on `controller`'s link; `monitor` nil means udevd does not run.
  final class Rig {
    let output: MatrixOutput
    let lines = LogLines()
    let controller: Controller
    var engine: WorkoutEngine

    init(
      _ controller: Controller, monitor: (() throws -> any SerialHotplugMonitor)?,
      startupDelay: TimeSpan = .zero
    ) throws {
      self.controller = controller
      let link = controller.link
      let instance = try pluginInstance(
        .output,
        "{type: serial-matrix, id: matrix, device: \(link), baud: 1000000, width: 32, "
          + "height: 16, gamma: 1, startup_delay: \(DurationText.format(startupDelay))}")
      let hotplug = SerialHotplug(
        selector: .path(link), isAvailable: { monitor != nil },
        makeMonitor: { try monitor!() }, resolvedPath: { InputDevices.resolve(link) })
      output = try MatrixOutput(
        instance: instance,
        transport: { SerialMatrixTransport(path: { link }, baud: 1_000_000, framing: .adalight) },
        hotplug: hotplug)
      engine = try WorkoutEngine(
        plan: WorkoutPlan(name: "AMRAP", mode: .amrap(AMRAPParameters(time: .seconds(600)))))
      _ = try engine.apply(.start, at: EngineInstant(nanoseconds: 0))
      let logger = Logger(minimumLevel: .debug)
      logger.sink = { [lines] _, line in lines.values.append(line) }
      try output.start(
        PluginContext(id: "matrix", logger: logger, speed: 1, claimTerminal: { _ in }))
    }

    /// Renders the running AMRAP at `now` and returns the bytes the controller received.
    @discardableResult
    func render(at now: Int64) throws -> [UInt8] {
      let instant = EngineInstant(nanoseconds: now)
      _ = engine.advance(to: instant)
      let frame = DaemonTests.frame(engine.snapshot(at: instant), at: now, hour: 10)
      var bytes: [UInt8] = []
      for _ in 0..<200 {
        try output.render(frame)
        bytes += try controller.received()
        if bytes.count % MatrixHotplugTests.frameLength == 0 { break }
        usleep(500)
      }
      return bytes
    }

    func count(_ text: String) -> Int { lines.values.filter { $0.contains(text) }.count }
  }

  @Test(.timeLimit(.minutes(1)))
  func withUdevALostControllerIsReopenedOnItsAddEventAfterTheStartupDelay() throws {
    let controller = try Controller()
    try controller.plug()
    let monitor = try FakeSerialMonitor()
    let rig = try Rig(controller, monitor: { monitor }, startupDelay: .seconds(1))
    defer { rig.output.stop() }
    #expect(rig.output.watchedDescriptors == [WatchedDescriptor(monitor.fileDescriptor)])
    var now = 100 * Self.second
    #expect(try rig.render(at: now).isEmpty, "the board is given its start-up delay")
    now += Self.second
    #expect(try rig.render(at: now).count == Self.frameLength)

    try controller.unplug(heldAs: rig.output.serialDescriptor)
    // The next second's picture finds the line hung up.
    now += Self.second
    try rig.render(at: now)
    #expect(!rig.output.isConnected)
    #expect(rig.count("controller lost") == 1)
    #expect(rig.lines.values.last?.contains("hotplug=udev") == true)
    // One quick retry (a replug faster than the loss was noticed), then the slow fallback.
    #expect(rig.output.nextRetry == now + MatrixOutput.minimumBackoff)
    now += MatrixOutput.minimumBackoff
    try rig.render(at: now)
    #expect(!rig.output.isConnected)
    #expect(rig.output.nextRetry == now + MatrixOutput.monitoredRetry)
    #expect(rig.output.nextWakeUp(after: now) == now + MatrixOutput.monitoredRetry)

    // Another serial device comes: not this one.
    monitor.announce(
      "add", SerialDeviceInfo(devnode: "/dev/ttyUSB3", vendorID: 0x1A86, productID: 0x7523))
    now += Self.second
    try rig.output.handleReady(monitor.fileDescriptor, .readable, at: now)
    #expect(!monitor.isReadable, "the events are drained")
    #expect(!rig.output.isConnected)
    // Plugged back: nothing happens before udev has processed it.
    let device = try controller.plug()
    now += Self.second
    try rig.render(at: now)
    #expect(!rig.output.isConnected)
    monitor.announce("add", device)
    now += 200 * Self.millisecond
    try rig.output.handleReady(monitor.fileDescriptor, .readable, at: now)
    #expect(rig.output.isConnected)
    #expect(rig.lines.values.last?.contains("controller back") == true)
    #expect(rig.lines.values.last?.contains("via=monitor") == true)
    #expect(rig.output.nextWakeUp(after: now) == now + Self.second)
    #expect(try rig.render(at: now).isEmpty)
    now += Self.second
    #expect(try rig.render(at: now).count == Self.frameLength)
    #expect(rig.count("controller lost") == 1)
    #expect(rig.count("controller back") == 1)
  }

  @Test(.timeLimit(.minutes(1)))
  func anAddEventMatchesTheNodeALinkPointsTo() throws {
    let controller = try Controller()
    let monitor = try FakeSerialMonitor()
    let rig = try Rig(controller, monitor: { monitor })
    defer { rig.output.stop() }
    #expect(rig.count("not available") == 1)
    var now = 10 * Self.second
    try rig.render(at: now)
    #expect(rig.output.nextRetry == now + MatrixOutput.monitoredRetry)
    // Without udev's links in the event: the node behind the configured path is the one.
    let device = try controller.plug()
    monitor.announce("add", SerialDeviceInfo(devnode: device.devnode))
    now += Self.second
    try rig.output.handleReady(monitor.fileDescriptor, .readable, at: now)
    #expect(rig.output.isConnected)
    #expect(try rig.render(at: now).count == Self.frameLength)
  }

  @Test(.timeLimit(.minutes(1)))
  func anAnnouncedControllerThatCannotBeOpenedYetIsRetriedSoon() throws {
    let controller = try Controller()
    try controller.plug()
    let monitor = try FakeSerialMonitor()
    let rig = try Rig(controller, monitor: { monitor })
    defer { rig.output.stop() }
    var now = 10 * Self.second
    #expect(try rig.render(at: now).count == Self.frameLength)
    try controller.unplug(heldAs: rig.output.serialDescriptor)
    // The next second's picture finds the line hung up.
    now += Self.second
    try rig.render(at: now)
    #expect(!rig.output.isConnected)
    // udev announces it, but its node is not there yet (the link comes a moment later).
    monitor.announce("add", SerialDeviceInfo(devnode: "/dev/pts/9999", links: [controller.link]))
    now += 100 * Self.millisecond
    try rig.output.handleReady(monitor.fileDescriptor, .readable, at: now)
    #expect(!rig.output.isConnected)
    #expect(rig.output.nextRetry == now + 2 * MatrixOutput.minimumBackoff)
    try controller.plug()
    now += 2 * MatrixOutput.minimumBackoff
    #expect(try rig.render(at: now).count == Self.frameLength)
    #expect(rig.lines.values.last?.contains("via=retry") == true)
  }

  @Test(.timeLimit(.minutes(1)))
  func withoutUdevTheControllerIsFoundByRetriesWithBackoff() throws {
    let controller = try Controller()
    try controller.plug()
    let rig = try Rig(controller, monitor: nil)
    defer { rig.output.stop() }
    #expect(rig.output.watchedDescriptors.isEmpty)
    var now = 10 * Self.second
    #expect(try rig.render(at: now).count == Self.frameLength)
    try controller.unplug(heldAs: rig.output.serialDescriptor)
    // The next second's picture finds the line hung up.
    now += Self.second
    try rig.render(at: now)
    #expect(rig.lines.values.last?.contains("hotplug=retry") == true)
    // 250 ms, then doubling up to 2 s.
    var waits: [Int64] = []
    for _ in 0..<6 {
      let due = try #require(rig.output.nextRetry)
      waits.append((due - now) / Self.millisecond)
      now = due
      try rig.render(at: now)
    }
    #expect(waits == [250, 500, 1000, 2000, 2000, 2000])
    try controller.plug()
    now = try #require(rig.output.nextRetry)
    #expect(try rig.render(at: now).count == Self.frameLength)
    #expect(rig.lines.values.last?.contains("via=retry") == true)
    #expect(rig.count("controller lost") == 1)
  }

  @Test func aMonitorThatCannotBeOpenedFallsBackToRetries() throws {
    let controller = try Controller()
    try controller.plug()
    let rig = try Rig(
      controller,
      monitor: {
        throw SystemError(operation: "udev_monitor_new_from_netlink", errno: Errno(rawValue: EPERM))
      })
    defer { rig.output.stop() }
    #expect(rig.count("no hotplug monitor") == 1)
    #expect(rig.output.watchedDescriptors.isEmpty)
    #expect(try rig.render(at: Self.second).count == Self.frameLength)
  }

  @Test func stoppingReleasesTheMonitorAndStartingMakesANewOne() throws {
    let controller = try Controller()
    try controller.plug()
    var made: [FakeSerialMonitor] = []
    let rig = try Rig(
      controller,
      monitor: {
        let monitor = try FakeSerialMonitor()
        made.append(monitor)
        return monitor
      })
    #expect(rig.output.watchedDescriptors == [WatchedDescriptor(made[0].fileDescriptor)])
    rig.output.stop()
    #expect(rig.output.watchedDescriptors.isEmpty)
    try rig.output.start(
      PluginContext(id: "matrix", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    defer { rig.output.stop() }
    #expect(made.count == 2)
    #expect(rig.output.watchedDescriptors == [WatchedDescriptor(made[1].fileDescriptor)])
  }
}

/// The real wodclockd with a serial matrix on a pseudo-terminal: unplugged and plugged back
/// under the running clock, and its claim on the port seen by another user.
@Suite(.serialized) struct MatrixHotplugDaemonTests {
  static let frameLength = 6 + 32 * 16 * 3

  static func config(device: String) -> String {
    testConfig + """

        - type: serial-matrix
          id: wall
          device: \(device)
          baud: 1000000
          width: 32
          height: 16
          startup_delay: 0s
      """
  }

  /// Reads what the controller received until `count` complete frames arrived or 5 s passed.
  static func frames(from controller: MatrixHotplugTests.Controller, count: Int) throws -> Int {
    var bytes: [UInt8] = []
    _ = try eventually(timeoutMilliseconds: 5_000) {
      bytes += try controller.received()
      return bytes.count >= count * frameLength
    }
    return stride(from: 0, to: bytes.count - bytes.count % frameLength, by: frameLength)
      .compactMap { decodeAdalight(Array(bytes[$0..<($0 + frameLength)])) }.count
  }

  static func lines(_ daemon: DaemonHarness, _ text: String) -> [String] {
    daemon.log.split(separator: "\n").map(String.init).filter { $0.contains(text) }
  }

  @Test(.timeLimit(.minutes(1)))
  func anUnpluggedControllerIsReportedOnceAndTheClockAndOtherOutputsCarryOn() throws {
    let controller = try MatrixHotplugTests.Controller()
    try controller.plug()
    let daemon = try DaemonHarness(config: Self.config(device: controller.link))
    try daemon.start()
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)
    #expect(try Self.frames(from: controller, count: 2) >= 2, "log:\n\(daemon.log)")

    try controller.unplug(heldAs: nil)
    let lost = eventually { Self.lines(daemon, "controller lost").count == 1 }
    #expect(lost, "log:\n\(daemon.log)")
    #expect(Self.lines(daemon, "controller lost").first?.contains("plugin=wall") == true)
    // The clock runs on and the log output still shows what happens.
    let elapsed = try daemon.status()["elapsed_s"]?.doubleValue ?? 0
    #expect(try daemon.request(["cmd": "pause"])["ok"]?.boolValue == true)
    #expect(eventually { Self.lines(daemon, "state=paused").count == 1 })
    #expect(try (daemon.status()["elapsed_s"]?.doubleValue ?? 0) > elapsed)
    #expect(try daemon.request(["cmd": "resume"])["ok"]?.boolValue == true)
    // Retries while it is away say nothing more.
    pause(milliseconds: 1_500)
    #expect(Self.lines(daemon, "controller lost").count == 1)

    try controller.plug()
    let back = eventually { Self.lines(daemon, "controller back").count == 1 }
    #expect(back, "log:\n\(daemon.log)")
    // No udevd here: found by a retry.
    #expect(Self.lines(daemon, "controller back").first?.contains("via=retry") == true)
    #expect(try Self.frames(from: controller, count: 2) >= 2, "log:\n\(daemon.log)")
    #expect(Self.lines(daemon, "output failed").isEmpty)
    try daemon.signal(.terminate)
    try daemon.waitForExit()
  }

  /// Tries to open `path` for reading and writing as user nobody (65534).
  static func openAsNobody(_ path: String) throws -> (opened: Bool, error: String) {
    let result = try run(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", "exec 3<>\"$0\"", path]
    )
    return (result.status == 0, result.error)
  }

  // TIOCEXCL does not stop a process with CAP_SYS_ADMIN (tty_ioctl(4)): the claim is checked
  // against an opener without it, which only root can start as another user.
  @Test(
    .timeLimit(.minutes(1)),
    .enabled(if: geteuid() == 0, "opening as user nobody needs root (setpriv --reuid)"))
  func theClaimedPortRefusesASecondOpener() throws {
    let controller = try MatrixHotplugTests.Controller()
    let device = try controller.plug()
    #expect(chmod(device.devnode, 0o666) == 0)
    // Unclaimed, the port opens for anybody: a refusal below is the claim, not the mode.
    let before = try Self.openAsNobody(device.devnode)
    #expect(before.opened, "\(before.error)")

    let daemon = try DaemonHarness(config: Self.config(device: device.devnode))
    try daemon.start()
    #expect(try Self.frames(from: controller, count: 1) >= 1, "log:\n\(daemon.log)")
    let during = try Self.openAsNobody(device.devnode)
    #expect(!during.opened)
    #expect(during.error.contains("Device or resource busy"), "\(during.error)")  // EBUSY
    try daemon.signal(.terminate)
    try daemon.waitForExit()
    // A pty's secondary side lives on with its primary, and so does the claim: that it ends
    // with the daemon is checked on a real USB serial port (Tests/hil/serial-matrix-check.sh).
  }
}
