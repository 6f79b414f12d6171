// SPDX-License-Identifier: MIT
// Serial ports found through libudev: a USB-serial LED controller named by vendor:product (and
// serial number) rather than by a ttyACM/ttyUSB number that changes with the plug order
// (libudev(3); the tty subsystem in sysfs).

import CUDev
import Glibc

/// A serial device node and what identifies it.
public struct SerialDeviceInfo: Hashable, Sendable {
  /// `/dev/ttyACM0`, `/dev/ttyUSB1`.
  public var devnode: String
  /// The USB device's `idVendor` and `idProduct`, nil for a port that is not on USB.
  public var vendorID: UInt16?
  public var productID: UInt16?
  /// `ID_SERIAL_SHORT`, else the USB device's `serial` attribute.
  public var serial: String?
  /// udev's symlinks (`/dev/serial/by-id/usb-…`); empty without udevd.
  public var links: [String]

  public init(
    devnode: String, vendorID: UInt16? = nil, productID: UInt16? = nil, serial: String? = nil,
    links: [String] = []
  ) {
    self.devnode = devnode
    self.vendorID = vendorID
    self.productID = productID
    self.serial = serial
    self.links = links
  }
}

/// How the config names a serial device.
public enum SerialDeviceSelector: Hashable, Sendable, CustomStringConvertible {
  /// A node or a symlink to one: `/dev/ttyACM0`, `/dev/serial/by-id/usb-…-if00`.
  case path(String)
  /// `usb:VVVV:PPPP` or `usb:VVVV:PPPP:SERIAL` (hex ids, as `lsusb` prints them).
  case usb(vendor: UInt16, product: UInt16, serial: String?)

  /// A path starts with `/`; a USB id with `usb:`. Nil for anything else.
  public init?(parsing text: String) {
    if text.hasPrefix("/") {
      self = .path(text)
      return
    }
    guard text.hasPrefix("usb:"),
      case .usb(let vendor, let product, let serial)? = InputDeviceSelector(
        parsing: String(text.dropFirst(4)))
    else { return nil }
    self = .usb(vendor: vendor, product: product, serial: serial)
  }

  public var description: String {
    switch self {
    case .path(let path): path
    case .usb(let vendor, let product, let serial):
      "usb:" + InputDeviceSelector.hex(vendor) + ":" + InputDeviceSelector.hex(product)
        + (serial.map { ":" + $0 } ?? "")
    }
  }

  /// Whether the selector names `device`. `resolvedPath` is the node a `.path` selector's
  /// symlink points to, for links udev did not make (`InputDevices.resolve`).
  public func matches(_ device: SerialDeviceInfo, resolvedPath: String? = nil) -> Bool {
    switch self {
    case .path(let path):
      return device.devnode == path || device.links.contains(path)
        || (resolvedPath != nil && device.devnode == resolvedPath)
    case .usb(let vendor, let product, let serial):
      guard device.vendorID == vendor, device.productID == product else { return false }
      return serial == nil || device.serial == serial
    }
  }
}

/// Finding serial ports.
public enum SerialDevices {
  /// The node to open for `selector`: a path as written (symlinks are followed by open), or
  /// the first node, in name order, of a USB device with the ids.
  public static func resolve(_ selector: SerialDeviceSelector) throws(SystemError) -> String {
    switch selector {
    case .path(let path):
      return path
    case .usb:
      let found = try scan().filter { selector.matches($0) }.map(\.devnode).sorted()
      guard let first = found.first else {
        throw SystemError(
          operation: "find", path: selector.description, errno: Errno(rawValue: ENODEV),
          hint: "no USB serial device with these ids is plugged in (lsusb lists them)")
      }
      return first
    }
  }

  /// Every node of the tty subsystem that has a device node and a USB parent.
  ///
  /// The corresponding C functions are `udev_enumerate_add_match_subsystem` and
  /// `udev_enumerate_scan_devices`.
  public static func scan() throws(SystemError) -> [SerialDeviceInfo] {
    try UdevEnumeration.devices(subsystem: "tty", sysname: nil) { device in
      describe(device).flatMap { $0.vendorID == nil ? nil : $0 }
    }
  }

  /// A tty node, with the ids of its USB parent when it has one (not a virtual console or an
  /// on-board UART); nil for a tty without a device node.
  ///
  /// The corresponding C functions are `udev_device_get_parent_with_subsystem_devtype` and
  /// `udev_device_get_sysattr_value`.
  static func describe(_ device: OpaquePointer) -> SerialDeviceInfo? {
    guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }) else {
      return nil
    }
    // A parent is owned by its child.
    let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
    func attribute(_ name: String) -> String? {
      guard let usb, let value = udev_device_get_sysattr_value(usb, name) else { return nil }
      let text = String(cString: value)
      return text.isEmpty ? nil : text
    }
    let property = udev_device_get_property_value(device, "ID_SERIAL_SHORT").map {
      String(cString: $0)
    }
    var links: [String] = []
    var link = udev_device_get_devlinks_list_entry(device)
    while let current = link {
      if let name = udev_list_entry_get_name(current) { links.append(String(cString: name)) }
      link = udev_list_entry_get_next(current)
    }
    return SerialDeviceInfo(
      devnode: devnode, vendorID: attribute("idVendor").flatMap { UInt16($0, radix: 16) },
      productID: attribute("idProduct").flatMap { UInt16($0, radix: 16) },
      serial: property ?? attribute("serial"), links: links.sorted())
  }
}

/// A serial port that came or went.
public struct SerialHotplugEvent: Hashable, Sendable {
  /// `add`, `remove`, `change` ...
  public var action: String
  /// The port; on `remove` usually without USB ids (its sysfs parents are gone by then).
  public var device: SerialDeviceInfo

  public init(action: String, device: SerialDeviceInfo) {
    self.action = action
    self.device = device
  }
}

/// Hotplug notifications for serial ports.
public protocol SerialHotplugMonitor: AnyObject {
  /// Readable when something happened.
  var fileDescriptor: FileDescriptor { get }
  /// Takes the queued notifications.
  func drain() -> [SerialHotplugEvent]
}

/// Serial ports (the tty subsystem) coming and going, through udev: an `add` arrives after
/// udevd ran its rules, so the node and its `/dev/serial/by-id` links exist. Owned by one thread.
public final class SerialPortMonitor: SerialHotplugMonitor {
  private let monitor: UdevMonitor
  /// The monitor's socket: non-blocking; poll it for readability.
  public var fileDescriptor: FileDescriptor { monitor.fileDescriptor }

  /// Opens the monitor. It only receives anything while udevd runs (`UdevMonitor.udevIsRunning`).
  public init() throws(SystemError) { monitor = try UdevMonitor(subsystem: "tty") }

  public func drain() -> [SerialHotplugEvent] {
    monitor.receive(SerialDevices.describe).map {
      SerialHotplugEvent(action: $0.action, device: $0.device)
    }
  }
}
