// SPDX-License-Identifier: MIT
// A temporary directory tree laid out like /sys/class/pwm (Documentation/ABI/testing/
// sysfs-class-pwm), for the PWM channel and the drivers that dim through one.

import HardwareKit

/// `pwmchip0/` with `export`, `unexport` and `npwm`; `addChannel` makes what the kernel creates
/// on export.
public final class FakePWMTree {
  private let scratch: ScratchDirectory
  /// The directory standing for /sys/class/pwm.
  public var root: String { scratch.path }
  /// Its `pwmchip0`.
  public var chip: String { root + "/pwmchip0" }

  /// A chip with `channels` channels, none exported.
  public init(channels: Int = 2) throws {
    // An explicit parent: the environment tests change TMPDIR on other threads.
    scratch = try ScratchDirectory(prefix: "wodclock-pwm-", in: "/tmp")
    try FileSystem.makeDirectories(chip)
    try FileSystem.writeFileAtomically(chip + "/export", text: "")
    try FileSystem.writeFileAtomically(chip + "/unexport", text: "")
    try FileSystem.writeFileAtomically(chip + "/npwm", text: "\(channels)\n")
  }

  /// Makes `pwm<channel>/` as the kernel does on an export.
  public func addChannel(_ channel: Int, polarity: String = "normal", enabled: Bool = false)
    throws
  {
    let directory = chip + "/pwm\(channel)"
    try FileSystem.makeDirectories(directory)
    for (name, value) in [
      ("period", "0"), ("duty_cycle", "0"), ("polarity", polarity), ("enable", enabled ? "1" : "0"),
    ] {
      try FileSystem.writeFileAtomically(directory + "/" + name, text: value + "\n")
    }
  }

  /// The text of `attribute` under `pwmchip0/` (`export`, `pwm0/period` ...).
  public func read(_ attribute: String) throws -> String {
    try FileSystem.readTextFile(chip + "/" + attribute)
  }

  /// Removes the tree.
  public func remove() { scratch.remove() }
}
