// SPDX-License-Identifier: MIT
// A hardware PWM channel through the kernel's sysfs interface
// (Documentation/ABI/testing/sysfs-class-pwm): write the channel number to
// `pwmchipN/export`, which creates `pwmchipN/pwmM/` with `period`, `duty_cycle` (both in
// nanoseconds), `polarity` and `enable`; write it to `unexport` to give the channel back.
//
// The controller makes the waveform, so it does not flicker when the daemon's single-threaded
// loop is busy; the daemon only writes a file when the brightness changes.

import Glibc

/// One channel of a `/sys/class/pwm/pwmchipN` controller. Writes only what changed.
public final class PWMChannel {
  /// Where the kernel shows PWM controllers.
  public static let defaultRoot = "/sys/class/pwm"

  /// The controller, N of `pwmchipN`.
  public let chip: Int
  /// The channel of the controller, M of `pwmM`.
  public let channel: Int
  /// The directory holding `pwmchipN` (a temporary tree in tests).
  public let root: String
  private let wait: (Int64) -> Void
  private let trace: ((String, String) -> Void)?
  private var isOpen = false
  private var period: Int64?
  private var duty: Int64?
  private var enabled: Bool?

  /// How long `open` waits for udev to hand a freshly exported channel's files to the daemon's
  /// group: the kernel creates them root-only and emits a change uevent on the chip, and the
  /// udev rule runs a moment later.
  static let permissionWait: (tries: Int, nanoseconds: Int64) = (100, 10_000_000)

  /// - Parameters:
  ///   - root: the directory holding `pwmchipN`; `/sys/class/pwm` except in tests.
  ///   - wait: sleeps between looks for the exported files (tests create them here).
  ///   - trace: told every write, as the path below `pwmchipN` and the value, in order.
  public init(
    chip: Int, channel: Int, root: String = PWMChannel.defaultRoot,
    wait: @escaping (Int64) -> Void = PWMChannel.sleep,
    trace: ((_ attribute: String, _ value: String) -> Void)? = nil
  ) {
    self.chip = chip
    self.channel = channel
    self.root = root
    self.wait = wait
    self.trace = trace
  }

  deinit { close() }

  /// `…/pwmchipN`.
  public var chipPath: String { "\(root)/pwmchip\(chip)" }
  /// `…/pwmchipN/pwmM`.
  public var channelPath: String { "\(chipPath)/pwm\(channel)" }

  /// Exports the channel (unless a previous run left it exported) and sets normal polarity.
  /// The output stays as it was until `set`.
  public func open() throws(SystemError) {
    guard !isOpen else { return }
    guard FileSystem.isDirectory(chipPath) else {
      throw SystemError(
        operation: "open", path: chipPath, errno: .noSuchFile,
        hint: "no such PWM controller; on a Raspberry Pi add dtoverlay=pwm-2chan to config.txt "
          + "(GPIO18 and GPIO19; pin=12,func=4,pin2=13,func2=4 for GPIO12 and GPIO13) and reboot; "
          + "`ls \(root)` shows the controllers")
    }
    if !FileSystem.isDirectory(channelPath) {
      if let count = try? FileSystem.readTextFile("\(chipPath)/npwm"),
        let channels = Int(trimmed(count)),
        channel >= channels
      {
        throw SystemError(
          operation: "export", path: chipPath, errno: .invalidArgument,
          hint:
            "pwmchip\(chip) has \(channels) channel\(channels == 1 ? "" : "s"), 0 to \(channels - 1)"
        )
      }
      do {
        try write("export", String(channel))
      } catch  where error.errno == .resourceBusy && FileSystem.isDirectory(channelPath) {
        // Exported between our look and our write: it is there, which is all we need.
      }
    }
    // Until udev's rule has run the new files belong to root: wait for write access.
    var tries = 0
    while access("\(channelPath)/period", W_OK) != 0, tries < Self.permissionWait.tries {
      wait(Self.permissionWait.nanoseconds)
      tries += 1
    }
    period = try? readNumber("period")
    duty = try? readNumber("duty_cycle")
    enabled = (try? readNumber("enable")).map { $0 != 0 }
    // A channel left inversed by someone else would light what should be dark. The polarity can
    // only change while the channel is disabled.
    if let polarity = try? FileSystem.readTextFile("\(channelPath)/polarity"),
      trimmed(polarity) != "normal"
    {
      if enabled != false { try write("pwm\(channel)/enable", "0") }
      enabled = false
      try write("pwm\(channel)/polarity", "normal")
    }
    isOpen = true
  }

  /// Runs the channel with `periodNanoseconds` and `dutyNanoseconds` of high time per period
  /// (normal polarity: the active time is the high time). Writes the period before the duty
  /// cycle, which must never exceed it, and enables last, so the output never runs with a
  /// half-set waveform; writes nothing that already has the value.
  public func set(periodNanoseconds: Int64, dutyNanoseconds: Int64) throws(SystemError) {
    let newPeriod = max(1, periodNanoseconds)
    let newDuty = min(max(0, dutyNanoseconds), newPeriod)
    if newPeriod != period {
      // The kernel refuses a period shorter than the present duty cycle (EINVAL).
      if let duty, duty > newPeriod {
        try write("pwm\(channel)/duty_cycle", "0")
        self.duty = 0
      }
      try write("pwm\(channel)/period", String(newPeriod))
      period = newPeriod
    }
    if newDuty != duty {
      try write("pwm\(channel)/duty_cycle", String(newDuty))
      duty = newDuty
    }
    if enabled != true {
      try write("pwm\(channel)/enable", "1")
      enabled = true
    }
  }

  /// Disables and unexports the channel; safe to call twice. What level a disabled output
  /// drives is up to the controller, so callers make the outputs safe another way first.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    if enabled != false { try? write("pwm\(channel)/enable", "0") }
    try? write("unexport", String(channel))
    period = nil
    duty = nil
    enabled = nil
  }

  /// Sleeps `nanoseconds` (the default wait).
  public static func sleep(_ nanoseconds: Int64) {
    var request = timespec(
      tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  private func readNumber(_ attribute: String) throws(SystemError) -> Int64 {
    let text = try FileSystem.readTextFile("\(channelPath)/\(attribute)")
    guard let value = Int64(trimmed(text)) else {
      throw SystemError(
        operation: "read", path: "\(channelPath)/\(attribute)", errno: .invalidArgument)
    }
    return value
  }

  /// Writes `value` and a newline to `attribute` below `pwmchipN`, in one write(2): a sysfs
  /// attribute takes the whole value in one call.
  private func write(_ attribute: String, _ value: String) throws(SystemError) {
    let path = "\(chipPath)/\(attribute)"
    do {
      let fd = try FileDescriptor.open(path, .writeOnly, options: .truncate)
      defer { try? fd.close() }
      try fd.writeAll(Array((value + "\n").utf8))
    } catch {
      throw SystemError(
        operation: "write \(value) to", path: path, errno: error.errno,
        hint: hint(for: error.errno, attribute: attribute))
    }
    trace?(attribute, value)
  }

  private func hint(for error: Errno, attribute: String) -> String? {
    switch error {
    case .permissionDenied, .notPermitted:
      return "the daemon's user needs the gpio group and the udev rule of 60-wodclock.rules "
        + "(SUBSYSTEM==\"pwm\") that hands the PWM files to it; reload udev and re-plug or reboot"
    case .readOnlyFileSystem:
      return "sysfs is read-only for the service (ProtectKernelTunables=): the unit needs "
        + "ReadWritePaths=/sys/devices/platform"
    case .resourceBusy where attribute == "export":
      return "a kernel driver (or another program) holds pwm\(channel) of pwmchip\(chip)"
    case .invalidArgument where attribute.hasSuffix("period"):
      return "the controller cannot make this period; choose another pwm_frequency_hz"
    case .noSuchFile where attribute.hasPrefix("pwm"):
      return "the channel vanished (its controller's driver was unbound)"
    default:
      return nil
    }
  }

  private func trimmed(_ text: String) -> String {
    String(text.filter { $0 != "\n" && $0 != " " })
  }
}
