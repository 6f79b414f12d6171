// SPDX-License-Identifier: MIT
// What the GPIO plugins share: where chips come from, how a line's chip is found when the
// config leaves it out, how a line is claimed, and where a setting stands for a diagnostic.

import ConfigFormat
import Configuration
import HardwareKit
import WorkoutCore

/// Where the GPIO plugins get their chips: the kernel's (`system`), or whatever opener a caller
/// injects (the tests give their in-memory chips this way; the product carries no fake).
public struct GPIOChipSource {
  /// Opens a chip by spec text (path, name, label or number).
  public var open: (String) throws(GPIOError) -> any GPIOChip
  /// The names of the chips there are, in number order (`gpiochip0` ...).
  public var chipNames: () -> [String]

  /// Creates a source.
  public init(
    open: @escaping (String) throws(GPIOError) -> any GPIOChip,
    chipNames: @escaping () -> [String]
  ) {
    self.open = open
    self.chipNames = chipNames
  }

  /// The chips of this machine, through libgpiod.
  public static var system: GPIOChipSource {
    GPIOChipSource(
      open: { (spec: String) throws(GPIOError) -> any GPIOChip in try GPIOChips.open(spec) },
      chipNames: { GPIOChips.list().map(\.name) })
  }
}

/// Finding a line's chip and naming lines for claims.
enum GPIOLines {
  /// The `chip:` value that means "find it".
  static let automatic = "auto"

  /// The labels of the 40-pin header's chip on each Raspberry Pi: the Pi 5's moved from
  /// `gpiochip4` to `gpiochip0` between kernels, its label did not (libgpiod.md §6).
  static let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]

  /// Opens the chip of `line`. With `auto`, a named line is looked up on every chip (the first
  /// that has it, as libgpiod's `gpiod_line_find` does) and an offset goes to the Raspberry Pi
  /// header's chip, found by label, or else to the first chip.
  static func openChip(
    _ spec: String, for line: GPIOLine, source: GPIOChipSource
  ) throws(GPIOError) -> any GPIOChip {
    guard spec == automatic else { return try source.open(spec) }
    let names = source.chipNames()
    var chips: [any GPIOChip] = []
    for name in names {
      if let chip = try? source.open(name) { chips.append(chip) }
    }
    switch line {
    case .name(let lineName):
      for chip in chips where (try? chip.offset(of: line)) != nil { return chip }
      throw GPIOError(
        .noSuchLine, "no GPIO chip has a line named \(lineName)",
        hint: chips.isEmpty
          ? "this machine shows no GPIO chips (/dev/gpiochip*)"
          : "chips: " + chips.map(\.info.description).joined(separator: ", ")
            + "; see `gpioinfo` for line names, or give 'chip:' and an offset")
    case .offset:
      for label in headerLabels {
        if let chip = chips.first(where: { $0.info.label == label }) { return chip }
      }
      guard let first = chips.first else {
        throw GPIOError(
          .noSuchChip, "no GPIO chips found",
          hint: "this machine shows no /dev/gpiochip*; is the user in the 'gpio' group?")
      }
      return first
    }
  }

  /// The identity of a line for `ResourceClaim`, the same for spellings that are the same line
  /// as far as the config shows: `/dev/gpiochip0`, `gpiochip0` and `0` are one chip; on the
  /// Raspberry Pi header (`auto` or a header label) line `17` is the line named `GPIO17`
  /// (offsets equal BCM numbers, libgpiod.md §6).
  static func identity(chip: String, line: String) -> String {
    var chipName: String
    switch try? GPIOChipSpec(parsing: chip) {
    case .path(let path)?:
      chipName = path.hasPrefix("/dev/gpiochip") ? String(path.dropFirst(5)) : path
    case .name(let name)?: chipName = name
    case .number(let number)?: chipName = "gpiochip\(number)"
    case .label(let label)?: chipName = label
    case nil: chipName = chip
    }
    let onHeader = chipName == automatic || headerLabels.contains(chipName)
    var lineName = line
    switch GPIOLine(parsing: line) {
    case .offset(let offset):
      if onHeader {
        chipName = "header"
        lineName = "GPIO\(offset)"
      }
    case .name(let name):
      let digits = name.dropFirst(4)
      if onHeader, name.hasPrefix("GPIO"), !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit),
        let offset = Int(digits)
      {
        chipName = "header"
        lineName = "GPIO\(offset)"
      }
    }
    return "\(chipName):\(lineName)"
  }

  /// Checks a `chip:` value; reports at `range`.
  static func checkChip(_ text: String, at range: SourceRange, _ bag: inout DiagnosticBag) {
    guard text != automatic else { return }
    do {
      _ = try GPIOChipSpec(parsing: text)
    } catch {
      bag.error(
        "invalid GPIO chip '\(text)'", at: range,
        hint: "write auto, a path (/dev/gpiochip0), a name (gpiochip0) or a label (pinctrl-rp1)")
    }
  }

  /// Checks a `line:` value; reports at `range`.
  static func checkLine(_ text: String, at range: SourceRange, _ bag: inout DiagnosticBag) {
    if text.isEmpty || text.contains(" ") {
      bag.error(
        "invalid GPIO line '\(text)'", at: range,
        hint: "write an offset such as 17 or a line name such as GPIO17")
    }
  }

  /// The electrical level of an output line that is off: high on an active-low wiring.
  static func inactiveLevel(activeLow: Bool) -> String { activeLow ? "high" : "low" }

  /// `wodclockd:<id>`, what `gpioinfo` shows as the holder (31 bytes at most are kept).
  static func consumer(_ id: String) -> String { String("wodclockd:\(id)".utf8.prefix(31))! }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Output lines held by a plugin: one request per chip, written only when a value changes.
final class GPIOOutputLines {
  private struct Held {
    var request: any GPIOOutputRequest
    var offset: Int
  }
  private var held: [Held] = []
  /// The value last written to each line (logical), in the order the lines were given.
  private(set) var values: [Bool] = []

  /// Requests `lines` (line text, chip text) as outputs, all inactive.
  init(
    _ lines: [(line: String, chip: String)], activeLow: Bool, consumer: String,
    source: GPIOChipSource
  ) throws(GPIOError) {
    var chips: [String: any GPIOChip] = [:]
    var grouped: [(chip: any GPIOChip, indices: [Int], lines: [GPIOLine])] = []
    for (index, entry) in lines.enumerated() {
      let line = GPIOLine(parsing: entry.line)
      let chip: any GPIOChip
      if entry.chip != GPIOLines.automatic, let known = chips[entry.chip] {
        chip = known
      } else {
        chip = try GPIOLines.openChip(entry.chip, for: line, source: source)
        chips[entry.chip] = chip
      }
      if let group = grouped.firstIndex(where: { $0.chip === chip }) {
        grouped[group].indices.append(index)
        grouped[group].lines.append(line)
      } else {
        grouped.append((chip, [index], [line]))
      }
    }
    var slots = [Held?](repeating: nil, count: lines.count)
    do {
      for group in grouped {
        let request = try group.chip.requestOutputs(
          group.lines, consumer: consumer, activeLow: activeLow,
          initialValues: group.lines.map { _ in false })
        for (index, offset) in zip(group.indices, request.offsets) {
          slots[index] = Held(request: request, offset: offset)
        }
      }
    } catch {
      for slot in slots { slot?.request.release() }
      throw error
    }
    held = slots.compactMap { $0 }
    values = lines.map { _ in false }
  }

  /// Sets line `index` (in the order given) to `value` when it differs from what it has.
  func set(_ index: Int, _ value: Bool) throws(GPIOError) {
    guard values[index] != value else { return }
    try held[index].request.setValue(value, at: held[index].offset)
    values[index] = value
  }

  /// Drives every line inactive (errors ignored: this is the way out) and gives them back.
  func releaseSafely() {
    for (index, line) in held.enumerated() {
      try? line.request.setValue(false, at: line.offset)
      values[index] = false
    }
    for line in held { line.request.release() }
    held = []
  }

  /// The chip offsets, in the order given.
  var offsets: [Int] { held.map(\.offset) }
}
