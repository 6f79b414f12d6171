// SPDX-License-Identifier: MIT
// Input event nodes (/dev/input/eventN) found through libudev, chosen by name, USB
// vendor:product (and serial) or path, and watched for hotplug (libudev(3); kernel
// Documentation/input/input.rst).

import CUDev
import Glibc

/// An input event node and what identifies it.
public struct InputDeviceInfo: Hashable, Sendable {
  /// The device node, `/dev/input/event3`.
  public var devnode: String
  /// The node's sysfs path (`/sys/devices/.../input/input7/event3`); unique while plugged in.
  public var syspath: String
  /// The name the driver gives the device: `Logitech USB Receiver`, the sysfs attribute `name`
  /// of the parent `inputN` (the same as `EVIOCGNAME`).
  public var name: String
  /// The vendor id of the parent `inputN` (`id/vendor`; for USB the USB vendor id).
  public var vendorID: UInt16?
  /// The product id of the parent `inputN` (`id/product`).
  public var productID: UInt16?
  /// The USB serial number (`ID_SERIAL_SHORT`, else the USB device's `serial` attribute, else
  /// the input device's `uniq`), if the device has one.
  public var serial: String?
  /// udev's symlinks to the node (`/dev/input/by-id/usb-...-event-kbd`); empty without udevd.
  public var links: [String]

  /// Creates a description.
  public init(
    devnode: String, syspath: String, name: String, vendorID: UInt16? = nil,
    productID: UInt16? = nil, serial: String? = nil, links: [String] = []
  ) {
    self.devnode = devnode
    self.syspath = syspath
    self.name = name
    self.vendorID = vendorID
    self.productID = productID
    self.serial = serial
    self.links = links
  }

  /// `046d:c52d`, or nil when the ids are unknown.
  public var usbID: String? {
    guard let vendorID, let productID else { return nil }
    return InputDeviceSelector.hex(vendorID) + ":" + InputDeviceSelector.hex(productID)
  }
}

/// Which devices a remote plugin takes, as the configuration writes it.
public enum InputDeviceSelector: Hashable, Sendable, CustomStringConvertible {
  /// A device name (`Logitech USB Receiver`). It also matches the receiver's further nodes,
  /// whose names add a word (`Logitech USB Receiver Consumer Control`); case is ignored.
  case name(String)
  /// USB vendor and product id, optionally a serial number: `046d:c52d` or `046d:c52d:1234`.
  case usb(vendor: UInt16, product: UInt16, serial: String?)
  /// A node or a symlink to one: `/dev/input/by-id/usb-Logitech_USB_Receiver-event-kbd`.
  case path(String)

  /// Reads a selector: a path starts with `/`, `vvvv:pppp[:serial]` (hex) is a USB id, anything
  /// else is a name.
  public init?(parsing text: String) {
    let trimmed = text.trimmingSpaces
    guard !trimmed.isEmpty else { return nil }
    if trimmed.hasPrefix("/") {
      self = .path(trimmed)
      return
    }
    let parts = trimmed.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    if parts.count >= 2, parts[0].count == 4, parts[1].count == 4,
      let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16)
    {
      let serial = parts.count == 3 ? String(parts[2]) : nil
      self = .usb(vendor: vendor, product: product, serial: serial?.isEmpty == true ? nil : serial)
      return
    }
    self = .name(trimmed)
  }

  /// The selector as written, normalised (lower-case hex ids), for claims and log lines.
  public var description: String {
    switch self {
    case .name(let name): return name
    case .usb(let vendor, let product, let serial):
      return Self.hex(vendor) + ":" + Self.hex(product) + (serial.map { ":" + $0 } ?? "")
    case .path(let path): return path
    }
  }

  /// Whether `device` is one this selector names. `resolvedPath` is the node a `.path`
  /// selector's symlink points to (see `InputDevices.resolve`).
  public func matches(_ device: InputDeviceInfo, resolvedPath: String? = nil) -> Bool {
    switch self {
    case .name(let name):
      let wanted = name.lowercased()
      let actual = device.name.lowercased()
      return actual == wanted || actual.hasPrefix(wanted + " ")
    case .usb(let vendor, let product, let serial):
      guard device.vendorID == vendor, device.productID == product else { return false }
      guard let serial else { return true }
      return device.serial == serial
    case .path(let path):
      return device.devnode == path || device.links.contains(path)
        || (resolvedPath != nil && device.devnode == resolvedPath)
    }
  }

  static func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}

/// Finding input event nodes.
public enum InputDevices {
  /// Whether udevd runs (see `UdevMonitor.udevIsRunning`).
  public static var udevIsRunning: Bool { UdevMonitor.udevIsRunning }

  /// The node a path resolves to through its symlinks, or nil when it does not exist.
  ///
  /// The corresponding C function is `realpath`.
  public static func resolve(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Every input event node (`/dev/input/event*`) there is now.
  ///
  /// The corresponding C functions are `udev_enumerate_add_match_subsystem`,
  /// `udev_enumerate_add_match_sysname` and `udev_enumerate_scan_devices`.
  public static func scan() throws(SystemError) -> [InputDeviceInfo] {
    try UdevEnumeration.devices(subsystem: "input", sysname: "event*") { describe($0) }.sorted {
      $0.devnode < $1.devnode
    }
  }

  /// What identifies an event node; nil for a node without a device file.
  ///
  /// The corresponding C functions are `udev_device_get_devnode`,
  /// `udev_device_get_parent_with_subsystem_devtype` and `udev_device_get_sysattr_value`.
  static func describe(_ device: OpaquePointer) -> InputDeviceInfo? {
    guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }),
      let syspath = udev_device_get_syspath(device).map({ String(cString: $0) })
    else { return nil }
    // The event node's parent inputN carries the name and ids; a parent is owned by its child.
    let input = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
    func attribute(_ owner: OpaquePointer?, _ name: String) -> String? {
      guard let owner, let value = udev_device_get_sysattr_value(owner, name) else { return nil }
      let text = String(cString: value)
      return text.isEmpty ? nil : text
    }
    func property(_ name: String) -> String? {
      guard let value = udev_device_get_property_value(device, name) else { return nil }
      let text = String(cString: value)
      return text.isEmpty ? nil : text
    }
    let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
    let serial = property("ID_SERIAL_SHORT") ?? attribute(usb, "serial") ?? attribute(input, "uniq")
    var links: [String] = []
    var link = udev_device_get_devlinks_list_entry(device)
    while let current = link {
      if let name = udev_list_entry_get_name(current) { links.append(String(cString: name)) }
      link = udev_list_entry_get_next(current)
    }
    return InputDeviceInfo(
      devnode: devnode, syspath: syspath, name: attribute(input, "name") ?? "",
      vendorID: attribute(input, "id/vendor").flatMap { UInt16($0, radix: 16) },
      productID: attribute(input, "id/product").flatMap { UInt16($0, radix: 16) },
      serial: serial, links: links.sorted())
  }
}

/// Hotplug of input event nodes: readable when one was added or removed, after udevd ran its
/// rules (so the node exists with its permissions). Owned by one thread.
public final class InputHotplugMonitor {
  private let monitor: UdevMonitor
  /// The monitor's socket: non-blocking; poll it for readability.
  public var fileDescriptor: FileDescriptor { monitor.fileDescriptor }

  /// Opens the monitor. It only receives anything while udevd runs (`InputDevices.udevIsRunning`);
  /// otherwise libudev silently leaves it deaf.
  public init() throws(SystemError) { monitor = try UdevMonitor(subsystem: "input") }

  /// Takes every queued event; returns the actions (`add`, `remove` ...) of event nodes (the
  /// parent `inputN` devices have no node).
  ///
  /// The corresponding C function is `udev_device_get_devnode`.
  public func drain() -> [String] {
    monitor.receive { udev_device_get_devnode($0) != nil ? true : nil }.map(\.action)
  }
}
