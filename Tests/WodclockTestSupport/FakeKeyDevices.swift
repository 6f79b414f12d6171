// SPDX-License-Identifier: MIT
// In-process input devices for tests: a test plugs in a "clicker", sends it evdev bytes, pulls
// it out, with the same protocols as the Linux input subsystem (HardwareKit's EvdevDevice.swift).

public import HardwareKit

/// Input devices that live in memory.
///
/// Each plugged device is a non-blocking pipe: the plugin reads `struct input_event` bytes from
/// its read end, the test writes them (whole, or torn in two). Unplugging closes the write end,
/// which the reader sees as end of file, as a real node reports `ENODEV`. A hotplug monitor, when
/// enabled, is a pipe that gets a byte per change.
///
/// Not thread-safe: use it on the thread of the code under test.
public final class FakeKeyDevices: KeyDeviceSystem {
  private struct Plugged {
    var info: InputDeviceInfo
    var keyboard: Bool
    var monotonicClock: Bool
    var readEnd: FileDescriptor
    var writeEnd: FileDescriptor
    var held: Set<UInt16> = []
  }

  private var plugged: [String: Plugged] = [:]
  private var monitors: [FakeMonitor] = []
  /// Nodes currently grabbed by an open fake device.
  public var grabbed: Set<String> { Set(grabOwners.keys) }
  private var grabOwners: [String: ObjectIdentifier] = [:]
  /// How many times `scan()` ran (rescans after an unplug without udevd).
  public private(set) var scanCount = 0
  /// Whether monitors hear anything, as when udevd runs.
  public var canMonitorHotplug: Bool
  /// The layout written by `send`.
  public let layout: EvdevEventLayout

  /// Creates an empty system; `udevRunning` decides whether hotplug monitors work.
  public init(udevRunning: Bool = true, layout: EvdevEventLayout = .native) {
    canMonitorHotplug = udevRunning
    self.layout = layout
  }

  /// Plugs in a device. `keyboard` false makes a buttons-only node (a presenter's mouse);
  /// `monotonicClock` false one whose events cannot be stamped on the monotonic clock (a
  /// kernel refusing `EVIOCSCLOCKID`).
  public func plug(_ info: InputDeviceInfo, keyboard: Bool = true, monotonicClock: Bool = true)
    throws(SystemError)
  {
    let pipe = try FileDescriptor.pipe(nonBlocking: true)
    plugged[info.devnode] = Plugged(
      info: info, keyboard: keyboard, monotonicClock: monotonicClock, readEnd: pipe.readEnd,
      writeEnd: pipe.writeEnd)
    notify()
  }

  /// Pulls a device out: its reader sees end of file.
  public func unplug(_ devnode: String) {
    guard let device = plugged.removeValue(forKey: devnode) else { return }
    try? device.writeEnd.close()
    grabOwners[devnode] = nil
    notify()
  }

  /// Writes raw bytes to a device's reader (a torn event, a recording).
  public func sendBytes(_ bytes: [UInt8], to devnode: String) throws(SystemError) {
    guard let device = plugged[devnode] else {
      throw SystemError(operation: "write", path: devnode, errno: .noSuchDevice)
    }
    try device.writeEnd.writeAll(bytes)
  }

  /// Writes events, in `layout`.
  public func send(_ events: [EvdevEvent], to devnode: String) throws(SystemError) {
    for event in events where event.type == EvdevEvent.typeKey {
      if event.value == 0 {
        plugged[devnode]?.held.remove(event.code)
      } else {
        plugged[devnode]?.held.insert(event.code)
      }
    }
    try sendBytes(events.flatMap { $0.bytes(layout) }, to: devnode)
  }

  /// A key packet as a keyboard sends it: the key event and a `SYN_REPORT`, at `instant` ns.
  public static func key(_ code: UInt16, _ value: Int32, at instant: Int64) -> [EvdevEvent] {
    let seconds = instant / 1_000_000_000
    let micros = (instant % 1_000_000_000) / 1_000
    return [
      EvdevEvent(
        seconds: seconds, microseconds: micros, type: EvdevEvent.typeKey, code: code, value: value),
      EvdevEvent(
        seconds: seconds, microseconds: micros, type: EvdevEvent.typeSync,
        code: EvdevEvent.syncReport, value: 0),
    ]
  }

  public func scan() throws(SystemError) -> [InputDeviceInfo] {
    scanCount += 1
    return plugged.values.map(\.info).sorted { $0.devnode < $1.devnode }
  }

  public func open(_ device: InputDeviceInfo) throws(SystemError) -> any KeyDevice {
    guard let entry = plugged[device.devnode] else {
      throw SystemError(operation: "open", path: device.devnode, errno: .noSuchFile)
    }
    return FakeKeyDevice(
      system: self, info: entry.info, keyboard: entry.keyboard,
      monotonicClock: entry.monotonicClock, fd: entry.readEnd)
  }

  public func makeMonitor() throws(SystemError) -> any KeyHotplugMonitor {
    let monitor = try FakeMonitor()
    monitors.append(monitor)
    return monitor
  }

  public func resolve(_ path: String) -> String? {
    plugged.values.first { $0.info.links.contains(path) }?.info.devnode
      ?? (plugged[path] != nil ? path : nil)
  }

  fileprivate func setGrabbed(_ devnode: String, by owner: ObjectIdentifier, _ isGrabbed: Bool)
    throws(SystemError)
  {
    if isGrabbed {
      guard grabOwners[devnode] == nil else {
        throw SystemError(operation: "ioctl EVIOCGRAB", path: devnode, errno: .resourceBusy)
      }
      grabOwners[devnode] = owner
    } else if grabOwners[devnode] == owner {
      // A device opened before an unplug releases only its own grab, not the new device's.
      grabOwners[devnode] = nil
    }
  }

  fileprivate func held(_ devnode: String) -> Set<UInt16> { plugged[devnode]?.held ?? [] }

  private func notify() {
    guard canMonitorHotplug else { return }
    for monitor in monitors { monitor.poke() }
  }

  private final class FakeMonitor: KeyHotplugMonitor {
    let fileDescriptor: FileDescriptor
    let writeEnd: FileDescriptor
    init() throws(SystemError) {
      let pipe = try FileDescriptor.pipe(nonBlocking: true)
      fileDescriptor = pipe.readEnd
      writeEnd = pipe.writeEnd
    }
    func poke() { _ = try? writeEnd.write([1]) }
    func drain() -> [String] {
      var bytes: [UInt8] = []
      while case .bytes? = try? fileDescriptor.read(appendingTo: &bytes, maximumCount: 64) {}
      return bytes.map { _ in "change" }
    }
    deinit {
      try? fileDescriptor.close()
      try? writeEnd.close()
    }
  }
}

/// One opened fake device.
final class FakeKeyDevice: KeyDevice {
  let info: InputDeviceInfo
  let fileDescriptor: FileDescriptor
  let usesMonotonicClock: Bool
  let hasKeyboardKeys: Bool
  private weak var system: FakeKeyDevices?
  private var isGrabbed = false

  init(
    system: FakeKeyDevices, info: InputDeviceInfo, keyboard: Bool, monotonicClock: Bool,
    fd: FileDescriptor
  ) {
    self.system = system
    self.info = info
    hasKeyboardKeys = keyboard
    usesMonotonicClock = monotonicClock
    fileDescriptor = fd
  }

  func grab() throws(SystemError) {
    try system?.setGrabbed(info.devnode, by: ObjectIdentifier(self), true)
    isGrabbed = true
  }

  func read(appendingTo bytes: inout [UInt8]) throws(SystemError) -> FileDescriptor.ReadResult {
    try fileDescriptor.read(appendingTo: &bytes, maximumCount: 4096)
  }

  func pressedKeys() throws(SystemError) -> Set<UInt16> { system?.held(info.devnode) ?? [] }

  func close() {
    if isGrabbed { try? system?.setGrabbed(info.devnode, by: ObjectIdentifier(self), false) }
    isGrabbed = false
  }
}
