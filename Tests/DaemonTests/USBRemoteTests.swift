// SPDX-License-Identifier: MIT
// The usb-remote input on fake devices: recorded evdev byte streams (auto-repeat, a torn read)
// through the reader and the gesture recogniser, the profiles, hotplug with and without udevd,
// and the config checks of key names.

import ButtonKit
import ConfigFormat
import Configuration
import HardwareKit
import Testing
import WodclockTestSupport
import WorkoutCore

@testable import WodclockDaemon

@Suite struct USBRemoteTests {
  static let clicker = InputDeviceInfo(
    devnode: "/dev/input/event5", syspath: "/sys/devices/x/input/input9/event5",
    name: "Logitech USB Receiver", vendorID: 0x046D, productID: 0xC52D,
    links: ["/dev/input/by-id/usb-Logitech_USB_Receiver-event-kbd"])
  static let mouse = InputDeviceInfo(
    devnode: "/dev/input/event6", syspath: "/sys/devices/x/input/input10/event6",
    name: "Logitech USB Receiver Mouse", vendorID: 0x046D, productID: 0xC52D)
  static let other = InputDeviceInfo(
    devnode: "/dev/input/event0", syspath: "/sys/devices/platform/i8042/input0/event0",
    name: "AT Translated Set 2 keyboard", vendorID: 1, productID: 1)

  static let second: Int64 = 1_000_000_000
  static let ms: Int64 = 1_000_000

  /// A config with one usb-remote entry, loaded through the real loader and schemas.
  static func load(_ entry: String) -> ConfigurationLoadResult {
    let text = """
      presets:
        one:
          mode: amrap
          time: 12m
      inputs:
        - type: usb-remote
      \(entry.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))

      """
    return ConfigurationLoader.load(text: text, file: "remote.yaml", plugins: PluginCatalog.schemas)
  }

  static func instance(_ entry: String) throws -> PluginInstance {
    let result = load(entry)
    let configuration = try #require(
      result.configuration, "\(result.diagnostics.map(\.message))")
    return try #require(configuration.inputs.first)
  }

  /// A started plugin on fake devices, and the lines it logged.
  final class Rig {
    let devices: FakeKeyDevices
    let plugin: USBRemoteInput
    var lines: [String] = []

    init(_ entry: String = "device: Logitech USB Receiver", udev: Bool = true, plugged: Bool = true)
      throws
    {
      devices = FakeKeyDevices(udevRunning: udev)
      try devices.plug(USBRemoteTests.other)
      if plugged { try devices.plug(USBRemoteTests.clicker) }
      plugin = try USBRemoteInput(
        instance: USBRemoteTests.instance(entry), system: devices, clock: { 0 })
      let logger = Logger(minimumLevel: .debug)
      logger.sink = { [weak self] level, line in self?.lines.append(line) }
      try plugin.start(
        PluginContext(id: plugin.id, logger: logger, speed: 1, claimTerminal: { _ in }))
    }

    /// Sends key packets and lets the plugin read them at `now`.
    func keys(_ packets: [(UInt16, Int32, Int64)], now: Int64) throws -> [InputEvent] {
      for (code, value, instant) in packets {
        try devices.send(
          FakeKeyDevices.key(code, value, at: instant), to: USBRemoteTests.clicker.devnode)
      }
      return try readAll(now: now)
    }

    func readAll(now: Int64) throws -> [InputEvent] {
      var events: [InputEvent] = []
      for watched in plugin.watchedDescriptors {
        events += try plugin.handleReady(watched.descriptor, .readable, at: now)
      }
      return events
    }

    func wake(at now: Int64) -> [InputEvent] {
      guard let due = plugin.nextWakeUp(after: now), due <= now else { return [] }
      return plugin.handleWakeUp(at: now)
    }
  }

  // Key codes, include/uapi/linux/input-event-codes.h.
  static let pageDown: UInt16 = 109
  static let pageUp: UInt16 = 104
  static let f5: UInt16 = 63
  static let esc: UInt16 = 1
  static let dot: UInt16 = 52

  @Test func aClickIsAPressOfItsControl() throws {
    let rig = try Rig()
    let events = try rig.keys(
      [(Self.pageDown, 1, 10 * Self.second), (Self.pageDown, 0, 10 * Self.second + 90 * Self.ms)],
      now: 11 * Self.second)
    // Dated by the key-down event's own timestamp, not by when it was read.
    #expect(events == [.control("next", .press, pressedAt: 10 * Self.second)])
    #expect(rig.devices.grabbed == [Self.clicker.devnode])
    #expect(
      rig.lines.contains { $0.contains("remote connected") && $0.contains("usb_id=046d:c52d") })
  }

  @Test func theR400sStartKeyWorksAsF5AndAsEscape() throws {
    let rig = try Rig()
    var events = try rig.keys(
      [(Self.f5, 1, Self.second), (Self.f5, 0, Self.second + 50 * Self.ms)], now: 2 * Self.second)
    events += try rig.keys(
      [(Self.esc, 1, 3 * Self.second), (Self.esc, 0, 3 * Self.second + 50 * Self.ms)],
      now: 4 * Self.second)
    events += try rig.keys(
      [(Self.pageUp, 1, 5 * Self.second), (Self.pageUp, 0, 5 * Self.second + 50 * Self.ms)],
      now: 6 * Self.second)
    events += try rig.keys(
      [(Self.dot, 1, 7 * Self.second), (Self.dot, 0, 7 * Self.second + 50 * Self.ms)],
      now: 8 * Self.second)
    #expect(
      events == [
        .control("start", .press, pressedAt: Self.second),
        .control("start", .press, pressedAt: 3 * Self.second), .action(.engine(.previous)),
        .control("lap", .press, pressedAt: 7 * Self.second),
      ])
  }

  @Test func aHeldKeyIsOneLongPressWhateverItsAutoRepeat() throws {
    let rig = try Rig("device: Logitech USB Receiver\nlong_press: 800ms")
    let start = 20 * Self.second
    var events = try rig.keys([(Self.f5, 1, start)], now: start)
    #expect(events.isEmpty)
    #expect(rig.plugin.nextWakeUp(after: start) == start + 800 * Self.ms)
    // The input core repeats after 250 ms, then every 33 ms.
    events += try rig.keys(
      [(Self.f5, 2, start + 250 * Self.ms), (Self.f5, 2, start + 283 * Self.ms)],
      now: start + 300 * Self.ms)
    #expect(events.isEmpty)
    events += rig.wake(at: start + 800 * Self.ms)
    #expect(events == [.control("start", .longPress, pressedAt: start)])
    events += try rig.keys(
      [(Self.f5, 2, start + 850 * Self.ms), (Self.f5, 0, start + Self.second)],
      now: start + Self.second)
    #expect(events == [.control("start", .longPress, pressedAt: start)])
  }

  @Test func aRepeatingKeyCountsEachRepeatAsAPress() throws {
    let rig = try Rig("device: Logitech USB Receiver\nrepeat: [KEY_PAGEDOWN]")
    let events = try rig.keys(
      [
        (Self.pageDown, 1, Self.second), (Self.pageDown, 2, Self.second + 250 * Self.ms),
        (Self.pageDown, 2, Self.second + 283 * Self.ms),
        (Self.pageDown, 0, Self.second + 300 * Self.ms),
      ],
      now: 2 * Self.second)
    // Each repeat is a press of its own, dated by its own event.
    #expect(
      events
        == [0, 250, 283].map { .control("next", .press, pressedAt: Self.second + $0 * Self.ms) })
  }

  @Test func aKeyDownTimestampIsKeptToTheMicrosecondHoweverLateItIsRead() throws {
    let rig = try Rig()
    let down = 42 * Self.second + 123_456_000
    // Read 3 s later (a loop held up): the press is still the key-down event's instant.
    let events = try rig.keys(
      [(Self.pageDown, 1, down), (Self.pageDown, 0, down + 90 * Self.ms)],
      now: down + 3 * Self.second)
    #expect(events == [.control("next", .press, pressedAt: down)])
  }

  @Test func aDeviceOffTheMonotonicClockGivesNoPressInstant() throws {
    let devices = FakeKeyDevices()
    try devices.plug(Self.clicker, monotonicClock: false)
    let plugin = try USBRemoteInput(
      instance: Self.instance("device: Logitech USB Receiver"), system: devices, clock: { 0 })
    try plugin.start(PluginContext(id: "r", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    // Its timestamps are wall-clock time: the loop's instant decides, and no press instant is
    // claimed.
    for event in FakeKeyDevices.key(Self.pageDown, 1, at: 1_767_592_800 * Self.second)
      + FakeKeyDevices.key(Self.pageDown, 0, at: 1_767_592_800 * Self.second + 80 * Self.ms)
    {
      try devices.send([event], to: Self.clicker.devnode)
    }
    var events: [InputEvent] = []
    for watched in plugin.watchedDescriptors {
      events += try plugin.handleReady(watched.descriptor, .readable, at: 5 * Self.second)
    }
    #expect(events == [.control("next", .press, pressedAt: nil)])
  }

  @Test func aTornReadIsCompletedByTheNextRead() throws {
    let rig = try Rig()
    let bytes =
      FakeKeyDevices.key(Self.pageDown, 1, at: Self.second).flatMap { $0.bytes(.native) }
      + FakeKeyDevices.key(Self.pageDown, 0, at: Self.second + 80 * Self.ms).flatMap {
        $0.bytes(.native)
      }
    // The release's key event is torn: the press is whole, the release is not.
    let cut = 2 * EvdevEventLayout.native.size + 10
    try rig.devices.sendBytes(Array(bytes[..<cut]), to: Self.clicker.devnode)
    #expect(try rig.readAll(now: 2 * Self.second).isEmpty)
    try rig.devices.sendBytes(Array(bytes[cut...]), to: Self.clicker.devnode)
    #expect(
      try rig.readAll(now: 2 * Self.second) == [.control("next", .press, pressedAt: Self.second)])
  }

  @Test func theKeypadProfileComposesAndRunsTheWorkout() throws {
    let rig = try Rig(
      "device: 046d:c52d\nprofile: keypad\nkeys:\n  KEY_KPSLASH: action lap\n  KEY_KP9: none")
    var events: [InputEvent] = []
    for (index, code) in ([79, 80, 96, 14, 98, 73] as [UInt16]).enumerated() {
      let at = Int64(index + 1) * Self.second
      events += try rig.keys(
        [(code, 1, at), (code, 0, at + 50 * Self.ms)], now: at + 100 * Self.ms)
    }
    #expect(
      events == [
        .compose(.digit(1), otherwise: nil), .compose(.digit(2), otherwise: nil),
        .compose(.confirm, otherwise: .control("start", .press, pressedAt: 3 * Self.second)),
        .compose(.delete, otherwise: .action(.engine(.reset))), .action(.engine(.lap)),
      ])
    #expect(rig.lines.contains { $0.contains("unmapped key") && $0.contains("KEY_KP9") })
  }

  @Test func composerKeysAreWrittenComposeKeyElseTarget() {
    #expect(
      RemoteKeyTarget(parsing: "compose amrap else next")
        == .compose(.mode(.amrap), otherwise: .control("next")))
    #expect(RemoteKeyTarget(parsing: "compose 7") == .compose(.digit(7), otherwise: nil))
    #expect(
      RemoteKeyTarget(parsing: "compose x else action finish")
        == .compose(.times, otherwise: .action(.finish)))
    #expect(RemoteKeyTarget(parsing: "compose for_time")?.description == "compose for_time")
    for bad in ["compose", "compose amrapp", "compose 1 next", "compose 1 else compose 2"] {
      #expect(RemoteKeyTarget(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func onlyNodesWithKeyboardKeysAreTakenAndOtherDevicesAreLeftAlone() throws {
    let devices = FakeKeyDevices()
    try devices.plug(Self.other)
    try devices.plug(Self.clicker)
    try devices.plug(Self.mouse, keyboard: false)
    let plugin = try USBRemoteInput(
      instance: Self.instance("device: Logitech USB Receiver"), system: devices, clock: { 0 })
    try plugin.start(PluginContext(id: "r", logger: Logger(), speed: 1, claimTerminal: { _ in }))
    #expect(devices.grabbed == [Self.clicker.devnode])
    #expect(plugin.watchedDescriptors.count == 2)  // the monitor and the keyboard node
    plugin.stop()
    #expect(devices.grabbed.isEmpty)
  }

  @Test func aPathSelectorFollowsTheByIdLink() throws {
    let rig = try Rig("device: /dev/input/by-id/usb-Logitech_USB_Receiver-event-kbd")
    #expect(rig.devices.grabbed == [Self.clicker.devnode])
  }

  @Test func withUdevTheRemovalIsReportedOnceAndTheMonitorFindsItAgain() throws {
    let rig = try Rig()
    rig.devices.unplug(Self.clicker.devnode)
    #expect(try rig.readAll(now: Self.second).isEmpty)
    #expect(rig.plugin.watchedDescriptors.count == 1)  // the monitor only
    #expect(rig.lines.filter { $0.contains("remote disconnected") }.count == 1)
    // A slow safety rescan only; the monitor does the work.
    #expect(
      rig.plugin.nextWakeUp(after: Self.second) == Self.second + USBRemoteInput.monitoredRescan)
    try rig.devices.plug(Self.clicker)
    #expect(try rig.readAll(now: 2 * Self.second).isEmpty)
    #expect(rig.lines.last?.contains("remote connected") == true)
    #expect(rig.lines.last?.contains("via=hotplug") == true)
    #expect(rig.plugin.watchedDescriptors.count == 2)
    let events = try rig.keys(
      [(Self.pageDown, 1, 3 * Self.second), (Self.pageDown, 0, 3 * Self.second + 50 * Self.ms)],
      now: 4 * Self.second)
    #expect(events == [.control("next", .press, pressedAt: 3 * Self.second)])
  }

  @Test func withoutUdevRescansWithBackoffFindItAgain() throws {
    let rig = try Rig(udev: false)
    #expect(rig.plugin.watchedDescriptors.count == 1)  // no monitor: it would hear nothing
    rig.devices.unplug(Self.clicker.devnode)
    _ = try rig.readAll(now: Self.second)
    #expect(rig.plugin.watchedDescriptors.isEmpty)
    var now = Self.second
    var waits: [Int64] = []
    for _ in 0..<5 {
      let due = try #require(rig.plugin.nextWakeUp(after: now))
      waits.append(due - now)
      now = due
      _ = rig.wake(at: now)
    }
    #expect(waits == [250, 500, 1_000, 2_000, 4_000].map { $0 * Self.ms })
    try rig.devices.plug(Self.clicker)
    let due = try #require(rig.plugin.nextWakeUp(after: now))
    _ = rig.wake(at: due)
    #expect(rig.plugin.watchedDescriptors.count == 1)
    #expect(rig.plugin.nextWakeUp(after: due) == nil)
    #expect(rig.lines.filter { $0.contains("remote disconnected") }.count == 1)
    #expect(rig.lines.last?.contains("via=rescan") == true)
  }

  @Test func aMissingRemoteAtStartIsWaitedFor() throws {
    let rig = try Rig(udev: true, plugged: false)
    #expect(rig.lines.contains { $0.contains("remote not found") })
    try rig.devices.plug(Self.clicker)
    _ = try rig.readAll(now: Self.second)
    #expect(rig.devices.grabbed == [Self.clicker.devnode])
  }

  @Test func aDeviceGrabbedElsewhereIsLoggedOnce() throws {
    let devices = FakeKeyDevices(udevRunning: false)
    try devices.plug(Self.clicker)
    let holder = try devices.open(Self.clicker)
    try holder.grab()
    let plugin = try USBRemoteInput(
      instance: Self.instance("device: Logitech USB Receiver"), system: devices, clock: { 0 })
    var lines: [String] = []
    let logger = Logger()
    logger.sink = { _, line in lines.append(line) }
    try plugin.start(PluginContext(id: "r", logger: logger, speed: 1, claimTerminal: { _ in }))
    for step in 1...3 { _ = plugin.handleWakeUp(at: Int64(step) * 10 * Self.second) }
    #expect(lines.filter { $0.contains("cannot grab") }.count == 1)
    holder.close()
    _ = plugin.handleWakeUp(at: 100 * Self.second)
    #expect(devices.grabbed == [Self.clicker.devnode])
  }

  @Test func unknownKeyNamesAreConfigErrorsWithADidYouMean() {
    let result = Self.load(
      "device: Logitech USB Receiver\nkeys:\n  KEY_PAGEDWN: next\nrepeat: [KEY_PGUP]")
    #expect(result.configuration == nil)
    let messages = result.diagnostics.map(\.message)
    #expect(messages.contains("unknown key 'KEY_PAGEDWN' in 'keys'"))
    #expect(
      result.diagnostics.first { $0.message.contains("KEY_PAGEDWN") }?.hint?.hasPrefix(
        "did you mean 'KEY_PAGEDOWN'?") == true)
    #expect(messages.contains("unknown key 'KEY_PGUP' in 'repeat'"))
  }

  @Test func unreadableTargetsAreConfigErrors() {
    let result = Self.load("device: x\nkeys:\n  KEY_A: preset 12\n  KEY_B: reset now")
    let messages = result.diagnostics.map(\.message)
    #expect(messages.contains("cannot read 'preset 12' for key 'KEY_A'"))
    #expect(messages.contains("cannot read 'reset now' for key 'KEY_B'"))
    #expect(
      result.diagnostics.contains {
        $0.hint == "write 'action reset' for the action, or name a control"
      })
  }

  @Test func aMisspeltComposerKeyIsAConfigErrorWithADidYouMean() {
    let result = Self.load("device: x\nkeys:\n  KEY_A: compose amarp else next")
    #expect(result.configuration == nil)
    let problem = result.diagnostics.first {
      $0.message == "cannot read 'compose amarp else next' for key 'KEY_A'"
    }
    #expect(problem?.hint?.hasPrefix("did you mean 'compose amrap'?") == true)
    #expect(problem?.hint?.contains("for_time, intervals") == true)
  }

  @Test func twoEntriesCannotTakeOneDevice() {
    let text = """
      presets:
        one:
          mode: amrap
          time: 12m
      inputs:
        - type: usb-remote
          device: Logitech USB Receiver
        - type: usb-remote
          device: logitech usb receiver

      """
    let result = ConfigurationLoader.load(
      text: text, file: "remote.yaml", plugins: PluginCatalog.schemas)
    #expect(result.diagnostics.contains { $0.message.contains("already taken") })
  }
}
