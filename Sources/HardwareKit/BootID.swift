// SPDX-License-Identifier: MIT
// The kernel's per-boot random id, to tell a daemon restart from a machine reboot.

/// The identity of the current boot.
public enum BootID {
  /// The kernel's random id of this boot, such as `"0f6c…-…"`; it changes at every boot, so a
  /// state file stamped with it tells a restart of the daemon from a reboot of the machine.
  ///
  /// The corresponding file is `/proc/sys/kernel/random/boot_id` (proc(5)).
  public static func current() throws(SystemError) -> String {
    let text = try FileSystem.readTextFile("/proc/sys/kernel/random/boot_id")
    return String(text.filter { !$0.isWhitespace })
  }
}
