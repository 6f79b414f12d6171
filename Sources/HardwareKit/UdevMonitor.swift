// SPDX-License-Identifier: MIT
// The one libudev hotplug monitor every device family uses (input event nodes, serial ports):
// a "udev" netlink socket filtered to one subsystem (libudev(3), udev_monitor_new_from_netlink).

import CUDev
import Glibc

/// A "udev" netlink monitor for one subsystem: its descriptor becomes readable when a device of
/// that subsystem was added, removed or changed, after udevd ran its rules (so a new node exists
/// with its permissions and by-id links). Owned by one thread.
public final class UdevMonitor {
  private let udev: OpaquePointer
  private let monitor: OpaquePointer
  /// The monitor's socket: non-blocking; poll it for readability.
  public let fileDescriptor: FileDescriptor

  /// Whether udevd runs: its control socket exists. Without it a "udev" monitor silently
  /// receives nothing (libudev then disables it: systemd's sd-device/device-monitor.c checks the
  /// same path) and devices carry no `ID_*` properties or by-id links.
  public static var udevIsRunning: Bool { FileSystem.fileExists("/run/udev/control") }

  /// Opens a monitor for `subsystem` (`input`, `tty`). It only receives anything while udevd
  /// runs (`udevIsRunning`).
  ///
  /// The corresponding C functions are `udev_monitor_new_from_netlink`,
  /// `udev_monitor_filter_add_match_subsystem_devtype` and `udev_monitor_enable_receiving`.
  public init(subsystem: String) throws(SystemError) {
    guard let udev = udev_new() else { throw SystemError(operation: "udev_new", errno: .current) }
    // "udev", not "kernel": kernel events come before the rules made the node usable.
    guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
      let error = Errno.current
      udev_unref(udev)
      throw SystemError(
        operation: "udev_monitor_new_from_netlink", errno: error,
        hint: "the systemd unit must allow AF_NETLINK (RestrictAddressFamilies=)")
    }
    // The filter runs in the kernel and must be set before receiving is enabled.
    var status = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
    if status >= 0 { status = udev_monitor_enable_receiving(monitor) }
    if status < 0 {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      throw SystemError(
        operation: "udev_monitor_enable_receiving", errno: Errno(rawValue: -status))
    }
    self.udev = udev
    self.monitor = monitor
    fileDescriptor = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
  }

  /// Takes every queued event and describes each device with `describe`; events it returns nil
  /// for are dropped. A device handed to `describe` is valid only during the call.
  ///
  /// The corresponding C functions are `udev_monitor_receive_device` and
  /// `udev_device_get_action`.
  func receive<Device>(_ describe: (OpaquePointer) -> Device?) -> [(action: String, device: Device)]
  {
    var events: [(action: String, device: Device)] = []
    while let device = udev_monitor_receive_device(monitor) {
      if let action = udev_device_get_action(device), let described = describe(device) {
        events.append((String(cString: action), described))
      }
      udev_device_unref(device)
    }
    return events
  }

  deinit {
    // Closes the socket too: `fileDescriptor` belongs to the monitor.
    udev_monitor_unref(monitor)
    udev_unref(udev)
  }
}
