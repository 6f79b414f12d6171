// SPDX-License-Identifier: MIT
// The pure parts of the GPIO layer: chip specs, line specs and the error texts users read.

import HardwareKit
import Testing

@Suite struct GPIOSpecTests {
  @Test(arguments: [
    ("/dev/gpiochip4", GPIOChipSpec.path("/dev/gpiochip4")),
    ("gpiochip0", .name("gpiochip0")),
    ("gpiochip11", .name("gpiochip11")),
    ("4", .number(4)),
    ("pinctrl-rp1", .label("pinctrl-rp1")),
    ("gpiochip", .label("gpiochip")),
    ("gpiochipX", .label("gpiochipX")),
    ("gpio-sim.0-node0", .label("gpio-sim.0-node0")),
    ("99999999999", .label("99999999999")),
  ])
  func chipSpecs(text: String, expected: GPIOChipSpec) throws {
    #expect(try GPIOChipSpec(parsing: text) == expected)
  }

  @Test func emptyChipSpecIsAnError() {
    let error = #expect(throws: GPIOError.self) { try GPIOChipSpec(parsing: "") }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message == "no GPIO chip given")
  }

  @Test func chipSpecDescriptions() {
    #expect(GPIOChipSpec.label("pinctrl-rp1").description == "label 'pinctrl-rp1'")
    #expect(GPIOChipSpec.number(4).description == "number 4")
    #expect(GPIOChipSpec.path("/dev/gpiochip4").description == "/dev/gpiochip4")
  }

  @Test func lineSpecs() {
    #expect(GPIOLine(parsing: "17") == .offset(17))
    #expect(GPIOLine(parsing: "GPIO17") == .name("GPIO17"))
    #expect(GPIOLine(parsing: "") == .name(""))
    #expect(GPIOLine(parsing: "-1") == .name("-1"))
    let literal: GPIOLine = 4
    let named: GPIOLine = "GPIO4"
    #expect(literal == .offset(4) && named == .name("GPIO4"))
    #expect(GPIOLine.name("GPIO4").description == "line named GPIO4")
  }

  @Test func chipInfoDescription() {
    let info = GPIOChipInfo(name: "gpiochip0", label: "gpio-sim.0-node0", lineCount: 8)
    #expect(info.description == "gpiochip0 (gpio-sim.0-node0, 8 lines)")
    #expect(info.path == "/dev/gpiochip0")
    #expect(
      GPIOChipInfo(name: "gpiochip1", label: "x", lineCount: 1).description
        == "gpiochip1 (x, 1 line)")
  }

  @Test func edgeDetection() {
    #expect(GPIOEdgeDetection.both.reports(.rising) && GPIOEdgeDetection.both.reports(.falling))
    #expect(
      GPIOEdgeDetection.rising.reports(.rising) && !GPIOEdgeDetection.rising.reports(.falling))
    #expect(!GPIOEdgeDetection.none.reports(.rising))
  }

  @Test func libraryIsNamed() {
    // Built against Debian's 1.6.x by default, or a 2.x through PKG_CONFIG_PATH.
    let text = GPIOChips.libraryDescription
    #expect(
      text.hasPrefix("libgpiod 1.") && text.hasSuffix("(API v1)")
        || text.hasPrefix("libgpiod 2.") && text.hasSuffix("(API v2)"))
  }

  /// The real Linux path: this machine may have no GPIO chips at all (build machines, CI), in
  /// which case the error says so; on a Pi it lists them.
  @Test func missingChipListsWhatExists() {
    let chips = GPIOChips.list()
    let error = #expect(throws: GPIOError.self) { try GPIOChips.open("no-such-label-here") }
    #expect(error?.kind == .noSuchChip)
    if chips.isEmpty {
      #expect(error?.message == "no GPIO chip with label 'no-such-label-here'; chips: none")
      #expect(error?.hint?.contains("/dev/gpiochip") == true)
    } else {
      #expect(
        error?.message.hasPrefix(
          "no GPIO chip with label 'no-such-label-here'; chips: "
            + chips[0].description) == true)
    }
    let byPath = #expect(throws: GPIOError.self) { try GPIOChips.open("/dev/gpiochip999") }
    #expect(byPath?.message.hasPrefix("no GPIO chip at /dev/gpiochip999; chips: ") == true)
  }

  @Test func notAChip() {
    let error = #expect(throws: GPIOError.self) { try GPIOChips.open("/dev/null") }
    #expect(error?.kind == .noSuchChip)
    #expect(error?.message.hasPrefix("/dev/null is not a GPIO chip: ") == true)
  }
}
