// SPDX-License-Identifier: MIT
// An open input event node (/dev/input/eventN): its name and keys, the exclusive grab, and
// non-blocking reads (kernel include/uapi/linux/input.h; drivers/input/evdev.c).

import CEvdevShim
import Glibc

/// A keyboard-like device a remote plugin reads: the Linux event node, or a fake in tests.
public protocol KeyDevice: AnyObject {
  /// What identifies it.
  var info: InputDeviceInfo { get }
  /// Readable when events are queued; hung up when the device is unplugged.
  var fileDescriptor: FileDescriptor { get }
  /// Whether event timestamps are on the monotonic clock (`EVIOCSCLOCKID` succeeded).
  var usesMonotonicClock: Bool { get }
  /// Whether it has keyboard keys (codes below `BTN_MISC`, 0x100): a presenter's mouse node
  /// (buttons only) has none and is left alone.
  var hasKeyboardKeys: Bool { get }
  /// Takes the device for this reader alone, so its keys do not also type on a console.
  func grab() throws(SystemError)
  /// Appends what is queued. `ENODEV` (thrown) or end of file means the device is gone.
  func read(appendingTo bytes: inout [UInt8]) throws(SystemError) -> FileDescriptor.ReadResult
  /// The keys held down now.
  func pressedKeys() throws(SystemError) -> Set<UInt16>
  /// Releases the grab and closes the node.
  func close()
}

/// Where a remote plugin finds its devices: the Linux input subsystem, or a fake in tests.
public protocol KeyDeviceSystem: AnyObject {
  /// Every input event node there is now.
  func scan() throws(SystemError) -> [InputDeviceInfo]
  /// Opens one of them, non-blocking.
  func open(_ device: InputDeviceInfo) throws(SystemError) -> any KeyDevice
  /// Whether a hotplug monitor would hear anything (udevd runs).
  var canMonitorHotplug: Bool { get }
  /// A monitor whose descriptor becomes readable when input devices come or go.
  func makeMonitor() throws(SystemError) -> any KeyHotplugMonitor
  /// The node a path resolves to, for path selectors (by-id symlinks).
  func resolve(_ path: String) -> String?
}

/// Hotplug notifications for input devices.
public protocol KeyHotplugMonitor: AnyObject {
  /// Readable when something happened.
  var fileDescriptor: FileDescriptor { get }
  /// Takes the queued notifications; returns their actions (`add`, `remove` ...).
  func drain() -> [String]
}

extension InputHotplugMonitor: KeyHotplugMonitor {}

/// The machine's input devices through libudev and evdev.
public final class LinuxKeyDevices: KeyDeviceSystem {
  /// Creates the system.
  public init() {}

  public func scan() throws(SystemError) -> [InputDeviceInfo] { try InputDevices.scan() }

  public func open(_ device: InputDeviceInfo) throws(SystemError) -> any KeyDevice {
    try EvdevDevice(device)
  }

  public var canMonitorHotplug: Bool { InputDevices.udevIsRunning }

  public func makeMonitor() throws(SystemError) -> any KeyHotplugMonitor {
    try InputHotplugMonitor()
  }

  public func resolve(_ path: String) -> String? { InputDevices.resolve(path) }
}

/// An open event node.
public final class EvdevDevice: KeyDevice {
  public let info: InputDeviceInfo
  public let fileDescriptor: FileDescriptor
  public let usesMonotonicClock: Bool
  public let hasKeyboardKeys: Bool
  private var isOpen = true

  /// The first code that is a button rather than a key (`BTN_MISC`, input-event-codes.h).
  static let firstButtonCode = 0x100
  /// Bytes of a key bitmap: `KEY_MAX` is 0x2ff (input-event-codes.h).
  static let keyBitmapSize = 0x300 / 8

  /// Opens `device`'s node read-only and non-blocking, and sets its timestamps to the monotonic
  /// clock.
  ///
  /// The corresponding C functions are `open` and `ioctl(EVIOCSCLOCKID)`.
  public init(_ device: InputDeviceInfo) throws(SystemError) {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(device.devnode, .readOnly, options: .nonBlocking)
    } catch {
      var error = error
      if error.errno == .permissionDenied {
        error.hint = "the daemon's user must be in the 'input' group (SupplementaryGroups=input)"
      }
      throw error
    }
    info = device
    fileDescriptor = descriptor
    // CLOCK_MONOTONIC = 1: the default CLOCK_REALTIME jumps when NTP sets the clock.
    usesMonotonicClock = cevdev_set_clock(descriptor.rawValue, 1) == 0
    var bitmap = [UInt8](repeating: 0, count: Self.keyBitmapSize)
    let length = bitmap.withUnsafeMutableBufferPointer {
      cevdev_key_bits(descriptor.rawValue, $0.baseAddress, $0.count)
    }
    hasKeyboardKeys =
      length > 0 && bitmap.prefix(Self.firstButtonCode / 8).contains { $0 != 0 }
  }

  /// The name the driver reports.
  ///
  /// The corresponding C function is `ioctl(EVIOCGNAME)`.
  public func name() throws(SystemError) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = try check("ioctl EVIOCGNAME", path: info.devnode) {
      buffer.withUnsafeMutableBufferPointer {
        cevdev_name(fileDescriptor.rawValue, $0.baseAddress, $0.count)
      }
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Takes the device for this descriptor alone.
  ///
  /// The corresponding C function is `ioctl(EVIOCGRAB)`.
  public func grab() throws(SystemError) {
    _ = try check(
      "ioctl EVIOCGRAB", path: info.devnode,
      hint: "another program (or another wodclock input) has grabbed this device"
    ) { cevdev_grab(fileDescriptor.rawValue, 1) }
  }

  public func read(appendingTo bytes: inout [UInt8]) throws(SystemError)
    -> FileDescriptor.ReadResult
  {
    // A whole number of events: evdev refuses buffers smaller than one (EINVAL).
    try fileDescriptor.read(
      appendingTo: &bytes, maximumCount: 64 * EvdevEventLayout.native.size)
  }

  /// The keys held down now.
  ///
  /// The corresponding C function is `ioctl(EVIOCGKEY)`.
  public func pressedKeys() throws(SystemError) -> Set<UInt16> {
    var bitmap = [UInt8](repeating: 0, count: Self.keyBitmapSize)
    _ = try check("ioctl EVIOCGKEY", path: info.devnode) {
      bitmap.withUnsafeMutableBufferPointer {
        cevdev_key_state(fileDescriptor.rawValue, $0.baseAddress, $0.count)
      }
    }
    var keys: Set<UInt16> = []
    for (index, byte) in bitmap.enumerated() where byte != 0 {
      for bit in 0..<8 where byte & (1 << bit) != 0 { keys.insert(UInt16(index * 8 + bit)) }
    }
    return keys
  }

  /// Closes the node; the kernel drops the grab with it.
  ///
  /// The corresponding C function is `close`.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    try? fileDescriptor.close()
  }

  deinit { close() }
}
