// SPDX-License-Identifier: MIT
// One libudev enumeration loop for every subsystem the daemon looks at (input, tty).

import CUDev
import Glibc

/// Lists the devices of a subsystem through libudev and describes each with `describe`.
enum UdevEnumeration {
  /// The corresponding C functions are `udev_enumerate_add_match_subsystem`,
  /// `udev_enumerate_add_match_sysname` and `udev_enumerate_scan_devices`.
  static func devices<Info>(
    subsystem: String, sysname: String? = nil,
    describe: (OpaquePointer) -> Info?
  ) throws(SystemError) -> [Info] {
    guard let udev = udev_new() else {
      throw SystemError(operation: "udev_new", errno: .current)
    }
    defer { udev_unref(udev) }
    guard let enumerate = udev_enumerate_new(udev) else {
      throw SystemError(operation: "udev_enumerate_new", errno: .current)
    }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, subsystem)
    if let sysname { udev_enumerate_add_match_sysname(enumerate, sysname) }
    let status = udev_enumerate_scan_devices(enumerate)
    guard status >= 0 else {
      throw SystemError(
        operation: "udev_enumerate_scan_devices", path: "/sys/class/\(subsystem)",
        errno: Errno(rawValue: -status))
    }
    var devices: [Info] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      if let syspath = udev_list_entry_get_name(current),
        let device = udev_device_new_from_syspath(udev, syspath)
      {
        if let info = describe(device) { devices.append(info) }
        udev_device_unref(device)
      }
      entry = udev_list_entry_get_next(current)
    }
    return devices
  }
}
