// SPDX-License-Identifier: MIT
// A test's set of in-memory chips, opened by spec text as `GPIOChips.open` opens the kernel's:
// the chip opener a GPIO plugin under test is given instead of the system's.

public import HardwareKit

/// In-memory chips found by path, name, label or number, as the real ones are.
///
/// ```swift
/// let chips = FakeGPIOChips([FakeGPIOChip.raspberryPi()])
/// let source = GPIOChipSource(open: chips.open, chipNames: chips.names)
/// ```
public struct FakeGPIOChips {
  /// The chips, in number order.
  public let chips: [FakeGPIOChip]

  /// A set of `chips`, in number order (`gpiochip0` first).
  public init(_ chips: [FakeGPIOChip]) {
    self.chips = chips
  }

  /// The chip `text` names (a path, name, label or number; see `GPIOChipSpec`).
  public func open(_ text: String) throws(GPIOError) -> any GPIOChip {
    let spec = try GPIOChipSpec(parsing: text)
    let found = chips.first { chip in
      switch spec {
      case .path(let path): path == chip.info.path
      case .name(let name): name == chip.info.name
      case .label(let label): label == chip.info.label
      case .number(let number): "gpiochip\(number)" == chip.info.name
      }
    }
    guard let found else {
      throw GPIOError(
        .noSuchChip, "no GPIO chip \(spec)",
        hint: "chips: " + chips.map(\.info.description).joined(separator: ", "))
    }
    return found
  }

  /// The names of the chips (`gpiochip0` ...), as `GPIOChips.list()` gives the kernel's.
  public func names() -> [String] { chips.map(\.info.name) }
}
