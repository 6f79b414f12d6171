// SPDX-License-Identifier: MIT
// GPIO errors: what went wrong, on which chip and line, and what exists instead.
//
// The texts are built here, once, so the Linux chip and the fake chip say exactly the same thing
// and tests of the plugins can match them.

/// A GPIO operation that failed.
///
/// Its description names the chip and line and what exists, for example
/// `gpiochip0 has 54 lines; no line named GPIO99; hint: line names include GPIO0, GPIO1, …` or
/// `line 17 of gpiochip0 is used by 'other-program'`.
public struct GPIOError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is, for code that reacts to it.
  public enum Kind: Hashable, Sendable {
    /// No chip matches the spec.
    case noSuchChip
    /// The chip has no such line.
    case noSuchLine
    /// A line is held by someone else (`EBUSY`).
    case lineBusy
    /// The process may not open the chip (`EACCES`, `EPERM`).
    case permissionDenied
    /// The request itself is wrong: an empty spec, a line listed twice, too many lines, or a
    /// setting the kernel rejects (`EINVAL`).
    case invalidRequest
    /// Any other failure of the operating system; see `errno`.
    case system
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// The sentence users read, without the hint.
  public var message: String
  /// The error number behind it, when an operating-system call failed.
  public var errno: Errno?
  /// What the user can do about it, if known.
  public var hint: String?

  /// Creates an error value.
  public init(_ kind: Kind, _ message: String, errno: Errno? = nil, hint: String? = nil) {
    self.kind = kind
    self.message = message
    self.errno = errno
    self.hint = hint
  }

  /// The message, plus `; hint: …` when there is a hint.
  public var description: String {
    guard let hint else { return message }
    return "\(message); hint: \(hint)"
  }
}

extension GPIOError {
  /// `no GPIO chip with label 'pinctrl-rp1'; chips: gpiochip0 (gpio-sim.0-node0, 8 lines)`.
  static func noSuchChip(_ spec: GPIOChipSpec, chips: [GPIOChipInfo]) -> GPIOError {
    let what: String
    switch spec {
    case .path(let path): what = "no GPIO chip at \(path)"
    case .name(let name): what = "no GPIO chip \(name)"
    case .label(let label): what = "no GPIO chip with label '\(label)'"
    case .number(let number): what = "no GPIO chip number \(number)"
    }
    if chips.isEmpty {
      return GPIOError(
        .noSuchChip, "\(what); chips: none",
        hint: "the kernel shows no /dev/gpiochip* (no GPIO driver, or no access to /dev)")
    }
    return GPIOError(
      .noSuchChip, "\(what); chips: \(chips.map(\.description).joined(separator: ", "))")
  }

  /// `cannot open /dev/gpiochip0: Permission denied (EACCES)` with a hint about the group.
  static func cannotOpen(_ path: String, _ error: Errno) -> GPIOError {
    if error == .permissionDenied || error == .notPermitted {
      return GPIOError(
        .permissionDenied, "cannot open \(path): \(error)", errno: error,
        hint: "the user needs read-write access to \(path): add it to the group that owns it"
          + " (gpio; `make install` adds a udev rule for that)")
    }
    if error == .notATerminal || error == .noSuchDevice || error == .invalidArgument {
      return GPIOError(.noSuchChip, "\(path) is not a GPIO chip: \(error)", errno: error)
    }
    return GPIOError(.system, "cannot open \(path): \(error)", errno: error)
  }

  /// `gpiochip0 has 8 lines; no line 17`.
  public static func noSuchOffset(_ offset: Int, chip: GPIOChipInfo) -> GPIOError {
    GPIOError(
      .noSuchLine, "\(chip.name) has \(lineCount(chip)); no line \(offset)",
      hint: chip.lineCount > 0 ? "offsets run from 0 to \(chip.lineCount - 1)" : nil)
  }

  /// `gpiochip0 has 54 lines; no line named GPIO99` with a hint listing a few names.
  /// - Parameter names: the names of the chip's lines, in offset order (`nil` for unnamed).
  public static func noSuchName(_ name: String, chip: GPIOChipInfo, names: [String?]) -> GPIOError {
    let message = "\(chip.name) has \(lineCount(chip)); no line named \(name)"
    let named = names.compactMap { $0 }.filter { !$0.isEmpty }
    if named.isEmpty {
      return GPIOError(
        .noSuchLine, message,
        hint: "no line of \(chip.name) has a name; give an offset"
          + (chip.lineCount > 0 ? " from 0 to \(chip.lineCount - 1)" : ""))
    }
    // Names that differ only in case come first: `gpio17` for `GPIO17`.
    let folded = named.filter { $0.lowercased() == name.lowercased() }
    let shown = Array((folded + named.filter { !folded.contains($0) }).prefix(6))
    let more = named.count > shown.count ? ", … (\(named.count) named lines)" : ""
    return GPIOError(
      .noSuchLine, message,
      hint: "line names include \(shown.joined(separator: ", "))\(more); "
        + "`gpioinfo \(chip.name)` lists them")
  }

  /// `line 17 of gpiochip0 is used by 'other-program'`.
  public static func lineBusy(_ offset: Int, chip: String, consumer: String?) -> GPIOError {
    let message =
      if let consumer, !consumer.isEmpty {
        "line \(offset) of \(chip) is used by '\(consumer)'"
      } else {
        "line \(offset) of \(chip) is used by another program (it gave no name)"
      }
    return GPIOError(
      .lineBusy, message, errno: .resourceBusy,
      hint: "stop the other user or choose another line; `gpioinfo \(chip)` shows who holds what")
  }

  /// `line 3 of gpiochip0 is listed twice in one request`.
  static func duplicateLine(_ offset: Int, chip: String) -> GPIOError {
    GPIOError(.invalidRequest, "line \(offset) of \(chip) is listed twice in one request")
  }

  /// `cannot request 70 lines of gpiochip0 at once; the most is 64`.
  static func tooManyLines(_ count: Int, chip: String) -> GPIOError {
    GPIOError(
      .invalidRequest,
      "cannot request \(count) lines of \(chip) at once; the most is \(GPIOLimits.maximumLines)")
  }

  /// `cannot request line 3 of gpiochip0 as input: Invalid argument (EINVAL)`.
  static func requestFailed(
    _ offsets: [Int], chip: String, direction: String, _ error: Errno
  ) -> GPIOError {
    let lines =
      offsets.count == 1
      ? "line \(offsets[0])" : "lines \(offsets.map(String.init).joined(separator: ", "))"
    return GPIOError(
      error == .invalidArgument ? .invalidRequest : .system,
      "cannot request \(lines) of \(chip) as \(direction): \(error)", errno: error,
      hint: error == .invalidArgument
        ? "the driver rejects a setting; bias needs Linux 5.5 or later and a chip that has pulls"
        : nil)
  }

  /// `cannot read events of gpiochip0: … (EIO)` and friends.
  static func operationFailed(_ operation: String, chip: String, _ error: Errno) -> GPIOError {
    GPIOError(
      error == .noSuchDevice ? .noSuchChip : .system,
      "cannot \(operation) on \(chip): \(error)", errno: error,
      hint: error == .noSuchDevice ? "the chip is gone (driver unbound or device removed)" : nil)
  }

  private static func lineCount(_ chip: GPIOChipInfo) -> String {
    chip.lineCount == 1 ? "1 line" : "\(chip.lineCount) lines"
  }
}

/// Limits shared by every GPIO implementation (the Linux one and the tests' in-memory chip).
public enum GPIOLimits {
  /// The most lines in one request: the kernel's `GPIO_V2_LINES_MAX` and v1's
  /// `GPIOD_LINE_BULK_MAX_LINES` (libgpiod.md §2, §5).
  public static let maximumLines = 64

  /// The checks every `requestInputs`/`requestOutputs` makes before asking the kernel:
  /// offsets resolved, each listed once, at most `maximumLines`.
  public static func resolve(
    _ lines: [GPIOLine], on chip: some GPIOChip
  ) throws(GPIOError) -> [Int] {
    if lines.count > maximumLines { throw .tooManyLines(lines.count, chip: chip.info.name) }
    if lines.isEmpty {
      throw GPIOError(.invalidRequest, "a request of \(chip.info.name) needs at least one line")
    }
    var offsets: [Int] = []
    for line in lines {
      let offset = try chip.offset(of: line)
      if offsets.contains(offset) { throw .duplicateLine(offset, chip: chip.info.name) }
      offsets.append(offset)
    }
    return offsets
  }
}
