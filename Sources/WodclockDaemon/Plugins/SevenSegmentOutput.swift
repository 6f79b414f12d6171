// SPDX-License-Identifier: MIT
// The 7-segment output kinds: `tm1637`, `max7219`, `shift-register`, `ht16k33` and
// `sparkfun-serial`. One plugin class renders a frame (SevenSegment) and hands it to the kind's
// driver (SegmentDrivers), which writes only what changed.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import SegmentDrivers
import SevenSegment
import WorkoutCore

/// A 7-segment display output.
public final class SevenSegmentOutput: OutputPlugin {
  public let id: String
  public let kind: String
  private let options: SegmentDisplayOptions
  private let makeDriver: () throws -> any SegmentDriver
  private var driver: (any SegmentDriver)?
  private var lastFrame: OutputFrame?

  /// An output from a validated config entry of one of the 7-segment kinds.
  public init(instance: PluginInstance) throws {
    id = instance.id
    kind = instance.kind
    let settings = instance.settings
    options = try Self.displayOptions(settings)
    let consumer = "wodclock:\(instance.id)"
    makeDriver = try Self.driverFactory(kind: instance.kind, settings: settings, consumer: consumer)
  }

  /// An output around a ready driver (tests, and the check tools).
  public init(
    id: String, kind: String, options: SegmentDisplayOptions,
    driver: @escaping () throws -> any SegmentDriver
  ) {
    self.id = id
    self.kind = kind
    self.options = options
    makeDriver = driver
  }

  public func start(_ context: PluginContext) throws {
    let driver = try makeDriver()
    guard driver.digitCount == options.layout.digitCount || kind == "shift-register" else {
      throw PluginError(
        "layout '\(options.layout.template)' has \(options.layout.digitCount) digits, the display \(driver.digitCount)"
      )
    }
    try driver.start()
    self.driver = driver
  }

  public func render(_ frame: OutputFrame) throws {
    guard let driver else { return }
    lastFrame = frame
    let time = TimeOfDay(
      hour: frame.civilTime.hour, minute: frame.civilTime.minute, second: frame.civilTime.second)
    let picture = SegmentRenderer.render(
      frame.snapshot, options: options, tokens: frame.tokens, timeOfDay: time,
      face: frame.clock.face, milliseconds: frame.monotonicNow / 1_000_000)
    try driver.show(picture)
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    guard let frame = lastFrame else { return nil }
    // The night brightness switches at a wall-clock minute the loop knows nothing of: look at
    // least once a minute.
    var next = now + 60_000_000_000
    if let period = SegmentRenderer.blinkPeriodMilliseconds(
      frame.snapshot, options: options, tokens: frame.tokens)
    {
      let half = Int64(period) * 500_000
      next = min(next, (now / half + 1) * half)
    }
    return next
  }

  public func stop() {
    driver?.shutDown()
    driver = nil
    lastFrame = nil
  }

  /// Blanks the display and turns it off, as a stopping daemon does (`shutDown`). A display
  /// that cannot be reached fails `start`, which claims the lines or opens the bus and writes
  /// the chip's first commands. No frame is shown: the SparkFun display would store a
  /// brightness in its EEPROM at every stop.
  public func driveSafe() throws -> SafeState {
    let driver = try makeDriver()
    try driver.start()
    driver.shutDown()
    return .driven("blank, display off")
  }

  // MARK: configuration

  static func displayOptions(_ settings: PluginSettings) throws -> SegmentDisplayOptions {
    let layout: SegmentLayout
    do {
      layout = try SegmentLayout(parsing: settings.string("layout") ?? "MM:SS")
    } catch {
      throw PluginError(error.description)
    }
    return SegmentDisplayOptions(
      layout: layout,
      rounds: SegmentDisplayOptions.RoundCount(rawValue: settings.string("rounds") ?? "")
        ?? .current,
      roundPrefix: settings.bool("round_prefix") ?? false)
  }

  private static func line(_ settings: PluginSettings, _ key: String) -> GPIOLine? {
    guard let text = settings.string(key), !text.isEmpty else { return nil }
    return GPIOLine(parsing: text)
  }

  private static func chip(_ settings: PluginSettings) -> () throws -> any GPIOChip {
    let spec = settings.string("chip") ?? "gpiochip0"
    return { try GPIOChips.open(spec) }
  }

  private static func halfPeriod(_ settings: PluginSettings) -> Int64 {
    Int64(settings.integer("half_period_us") ?? 1) * 1_000
  }

  static func driverFactory(kind: String, settings: PluginSettings, consumer: String) throws
    -> () throws -> any SegmentDriver
  {
    let openChip = chip(settings)
    let digits = try displayOptions(settings).layout.digitCount
    switch kind {
    case "tm1637":
      guard let clk = line(settings, "clk"), let dio = line(settings, "dio") else {
        throw PluginError("tm1637 needs clk and dio")
      }
      let moduleDigits = settings.integer("digits") ?? 4
      let half = halfPeriod(settings)
      return {
        TM1637Driver(
          chip: try openChip(), clock: clk, data: dio, digits: moduleDigits,
          halfPeriodNanoseconds: half, consumer: consumer)
      }
    case "max7219":
      let chips = settings.integer("chips") ?? 1
      let perChip = settings.integer("digits_per_chip") ?? 8
      let rightToLeft = settings.string("digit_order") != "left-to-right"
      let device = settings.string("device") ?? ""
      let speed = settings.integer("speed_hz") ?? 1_000_000
      let half = halfPeriod(settings)
      let lines = (line(settings, "din"), line(settings, "clk"), line(settings, "load"))
      return {
        MAX7219Driver(chips: chips, digitsPerChip: perChip, rightToLeft: rightToLeft) {
          if !device.isEmpty {
            return SPIFrameTransport(device: try SPIDevice(path: device, mode: 0, speed: speed))
          }
          guard let din = lines.0, let clk = lines.1, let load = lines.2 else {
            throw PluginError("max7219 needs device, or din, clk and load")
          }
          return try BitBangFrameTransport(
            chip: try openChip(), data: din, clock: clk, load: load, halfPeriodNanoseconds: half,
            consumer: consumer)
        }
      }
    case "shift-register":
      guard let data = line(settings, "data"), let clock = line(settings, "clock"),
        let latch = line(settings, "latch")
      else { throw PluginError("shift-register needs data, clock and latch") }
      let enable = line(settings, "output_enable")
      guard let map = SegmentBitMap(parsing: settings.string("segment_map") ?? "sparkfun") else {
        throw PluginError("segment_map is not a map")
      }
      let invert = settings.bool("invert") ?? false
      let nearestLeft = settings.string("chain") != "right-to-left"
      let half = halfPeriod(settings)
      let pwmChip = parsePWMChip(settings.string("pwm_chip") ?? "")
      let pwmChannel = settings.integer("pwm_channel") ?? 0
      let pwmPeriod = 1_000_000_000 / Int64(max(1, settings.integer("pwm_frequency_hz") ?? 1000))
      return {
        ShiftRegisterDriver(
          chip: try openChip(), data: data, clock: clock, latch: latch, outputEnable: enable,
          pwm: pwmChip.map { PWMChannel(chip: $0, channel: pwmChannel) },
          pwmPeriodNanoseconds: pwmPeriod, digits: digits, map: map, invert: invert,
          nearestIsLeftmost: nearestLeft, halfPeriodNanoseconds: half, consumer: consumer)
      }
    case "ht16k33":
      let bus = settings.string("bus") ?? "/dev/i2c-1"
      guard let address = parseAddress(settings.string("address") ?? "0x70") else {
        throw PluginError("address must be 0x70 to 0x77")
      }
      return { HT16K33Driver { try I2CDevice(path: bus, address: address) } }
    case "sparkfun-serial":
      let device = settings.string("device") ?? ""
      let baud = settings.integer("baud") ?? 9600
      return { SparkFunSerialDriver(path: device, baud: baud) }
    default:
      throw PluginError("unknown 7-segment kind \(kind)")
    }
  }

  /// `0` or `pwmchip0` → 0; nil for empty or anything else.
  static func parsePWMChip(_ text: String) -> Int? {
    let number = text.hasPrefix("pwmchip") ? String(text.dropFirst("pwmchip".count)) : text
    guard let value = Int(number), value >= 0 else { return nil }
    return value
  }

  static func parseAddress(_ text: String) -> Int? {
    let lower = text.lowercased()
    let value = lower.hasPrefix("0x") ? Int(lower.dropFirst(2), radix: 16) : Int(lower)
    guard let value, (0x70...0x77).contains(value) else { return nil }
    return value
  }

  // MARK: schemas

  private static func displaySpecs(layout: String) -> [SettingSpec] {
    [
      SettingSpec(
        "layout", .string, default: .string(layout),
        "digits left to right: R counter, H/M/S time, _ unused, ':' colon, '.' dot"),
      SettingSpec(
        "rounds", .choice(SegmentDisplayOptions.RoundCount.allCases.map(\.rawValue)),
        default: .string("current"), "interval modes: show the current round or the rounds left"),
      SettingSpec(
        "round_prefix", .boolean, default: .boolean(false),
        "an 'r' before a round number when a digit is spare"),
    ]
  }

  private static let chipSpec = SettingSpec(
    "chip", .string, default: .string("gpiochip0"),
    "GPIO chip: path, name, label (pinctrl-rp1) or number")

  private static func lineSpec(_ name: String, required: Bool, _ summary: String) -> SettingSpec {
    SettingSpec(name, .string, default: required ? nil : .string(""), summary)
  }

  private static func halfPeriodSpec(_ value: Int, _ range: ClosedRange<Int>) -> SettingSpec {
    SettingSpec(
      "half_period_us", .integer(range), default: .integer(value),
      "microseconds between clock edges")
  }

  /// GPIO lines claimed as `<chip>:<line>`, so two plugins on one line collide.
  private static func gpioClaims(_ keys: [String]) -> @Sendable (PluginSettings) -> [ResourceClaim]
  {
    { settings in
      let chip = settings.string("chip") ?? "gpiochip0"
      return keys.compactMap { key in
        guard let line = settings.string(key), !line.isEmpty else { return nil }
        return ResourceClaim(kind: "GPIO line", identity: "\(chip):\(line)", key: key)
      }
    }
  }

  /// The layout parses and has `expected` digits (nil: any number).
  private static func checkLayout(
    _ settings: PluginSettings, _ bag: inout DiagnosticBag, expected: Int?, what: String
  ) {
    guard let range = settings.locations["layout"] else { return }
    do {
      let layout = try SegmentLayout(parsing: settings.string("layout") ?? "")
      if let expected, layout.digitCount != expected {
        bag.error(
          "layout '\(layout.template)' has \(layout.digitCount) digits; \(what) has \(expected)",
          at: range, hint: "use _ for a digit that stays blank")
      }
    } catch {
      bag.error(error.description, at: range)
    }
  }

  static let tm1637Schema = PluginSchema(
    kind: "tm1637", direction: .output,
    summary: "a TM1637 4- or 6-digit 7-segment module on two GPIO lines",
    settings: [
      chipSpec,
      lineSpec("clk", required: true, "the CLK line (offset or name)"),
      lineSpec("dio", required: true, "the DIO line (offset or name)"),
      SettingSpec("digits", .integer(4...6), default: .integer(4), "4 or 6"),
      halfPeriodSpec(20, 1...1000),
    ] + displaySpecs(layout: "MM:SS"),
    crossCheck: { settings, bag in
      let digits = settings.integer("digits") ?? 4
      if digits == 5, let range = settings.locations["digits"] {
        bag.error("TM1637 modules have 4 or 6 digits", at: range)
      }
      checkLayout(settings, &bag, expected: digits, what: "the module")
    },
    claims: gpioClaims(["clk", "dio"]))

  static let max7219Schema = PluginSchema(
    kind: "max7219", direction: .output,
    summary: "a chain of MAX7219 7-segment drivers, bit-banged or on spidev",
    settings: [
      SettingSpec(
        "device", .string, default: .string(""),
        "a spidev device (/dev/spidev0.0); empty: bit-bang din, clk, load"),
      SettingSpec(
        "speed_hz", .integer(1_000...10_000_000), default: .integer(1_000_000), "spidev clock"),
      chipSpec,
      lineSpec("din", required: false, "the DIN line when bit-banging"),
      lineSpec("clk", required: false, "the CLK line when bit-banging"),
      lineSpec("load", required: false, "the LOAD (CS) line when bit-banging"),
      halfPeriodSpec(1, 0...1000),
      SettingSpec("chips", .integer(1...8), default: .integer(1), "chips in the chain"),
      SettingSpec(
        "digits_per_chip", .integer(1...8), default: .integer(8),
        "digits per chip (the scan limit + 1)"),
      SettingSpec(
        "digit_order", .choice(["right-to-left", "left-to-right"]),
        default: .string("right-to-left"), "where DIG0 is: most modules have it on the right"),
    ] + displaySpecs(layout: "RR__MM:SS"),
    crossCheck: { settings, bag in
      let device = settings.string("device") ?? ""
      if device.isEmpty {
        for key in ["din", "clk", "load"] where (settings.string(key) ?? "").isEmpty {
          bag.error(
            "max7219 needs '\(key)' when no spidev 'device' is given",
            at: settings.locations[key] ?? settings.locations["device"]!)
        }
      }
      let digits = (settings.integer("chips") ?? 1) * (settings.integer("digits_per_chip") ?? 8)
      checkLayout(settings, &bag, expected: digits, what: "the chain")
    },
    claims: { settings in
      let device = settings.string("device") ?? ""
      if !device.isEmpty {
        return [ResourceClaim(kind: "SPI device", identity: device, key: "device")]
      }
      return gpioClaims(["din", "clk", "load"])(settings)
    })

  static let shiftRegisterSchema = PluginSchema(
    kind: "shift-register", direction: .output,
    summary: "74HC595 / TPIC6B595 chains, one register per digit (SparkFun Large Digit Driver)",
    settings: [
      chipSpec,
      lineSpec("data", required: true, "SER"),
      lineSpec("clock", required: true, "SRCK / SRCLK"),
      lineSpec("latch", required: true, "RCK / RCLK"),
      lineSpec("output_enable", required: false, "/OE or /G, if wired: dark at 0 % brightness"),
      SettingSpec(
        "pwm_chip", .string, default: .string(""),
        "instead of output_enable: the /sys/class/pwm/pwmchipN on /OE, to dim (Pi: pwm-2chan)"),
      SettingSpec("pwm_channel", .integer(0...15), default: .integer(0), "its channel (pwmN)"),
      SettingSpec(
        "pwm_frequency_hz", .integer(100...100_000), default: .integer(1000),
        "the PWM frequency; above ~200 Hz nobody sees flicker"),
      SettingSpec(
        "segment_map", .string, default: .string("sparkfun"),
        "bit 0..7 segments: sparkfun, standard, or eight of a b c d e f g dp"),
      SettingSpec("invert", .boolean, default: .boolean(false), "a 0 bit lights a segment"),
      SettingSpec(
        "chain", .choice(["left-to-right", "right-to-left"]), default: .string("left-to-right"),
        "left-to-right: the register wired to the Pi drives the leftmost digit"),
      halfPeriodSpec(1, 0...1000),
    ] + displaySpecs(layout: "MM:SS"),
    crossCheck: { settings, bag in
      if SegmentBitMap(parsing: settings.string("segment_map") ?? "") == nil,
        let range = settings.locations["segment_map"]
      {
        bag.error(
          "segment_map must be sparkfun, standard, max7219 or eight distinct segments", at: range,
          hint: "bit 0 first, such as a,f,g,e,d,c,b,dp")
      }
      let pwmChip = settings.string("pwm_chip") ?? ""
      if !pwmChip.isEmpty, let range = settings.locations["pwm_chip"] {
        if parsePWMChip(pwmChip) == nil {
          bag.error(
            "pwm_chip must be a number (0) or a controller name (pwmchip0)", at: range,
            hint: "`ls /sys/class/pwm` lists the controllers")
        } else if !(settings.string("output_enable") ?? "").isEmpty {
          bag.error(
            "output_enable and pwm_chip both drive /OE; give one", at: range,
            hint: "pwm_chip dims the digits, output_enable only switches them on and off")
        }
      }
      checkLayout(settings, &bag, expected: nil, what: "the chain")
    },
    claims: { settings in
      var claims = gpioClaims(["data", "clock", "latch", "output_enable"])(settings)
      if let chip = parsePWMChip(settings.string("pwm_chip") ?? "") {
        claims.append(
          ResourceClaim(
            kind: "PWM channel", identity: "pwmchip\(chip):\(settings.integer("pwm_channel") ?? 0)",
            key: "pwm_chip"))
      }
      return claims
    })

  static let ht16k33Schema = PluginSchema(
    kind: "ht16k33", direction: .output,
    summary: "an HT16K33 4-digit backpack (Adafruit) on i2c-dev",
    settings: [
      SettingSpec("bus", .string, default: .string("/dev/i2c-1"), "the i2c-dev bus"),
      SettingSpec("address", .string, default: .string("0x70"), "0x70 to 0x77 (jumpers A0-A2)"),
    ] + displaySpecs(layout: "MM:SS"),
    crossCheck: { settings, bag in
      if parseAddress(settings.string("address") ?? "") == nil,
        let range = settings.locations["address"]
      {
        bag.error("an HT16K33 address is 0x70 to 0x77", at: range)
      }
      checkLayout(settings, &bag, expected: 4, what: "the backpack")
    },
    claims: { settings in
      let bus = settings.string("bus") ?? ""
      let address =
        parseAddress(settings.string("address") ?? "").map { String($0, radix: 16) } ?? "?"
      return [ResourceClaim(kind: "I2C address", identity: "\(bus):0x\(address)", key: "address")]
    })

  static let sparkFunSerialSchema = PluginSchema(
    kind: "sparkfun-serial", direction: .output,
    summary: "a SparkFun Serial 7-Segment Display on a UART",
    settings: [
      SettingSpec("device", .string, default: nil, "the serial port (/dev/serial0)"),
      SettingSpec(
        "baud", .integer(2400...115_200), default: .integer(9600),
        "the display's baud rate (9600 from the factory)"),
    ] + displaySpecs(layout: "MM:SS"),
    crossCheck: { settings, bag in
      checkLayout(settings, &bag, expected: 4, what: "the display")
    },
    claims: { settings in
      [
        ResourceClaim(
          kind: "serial device", identity: settings.string("device") ?? "", key: "device")
      ]
    })

  /// Every 7-segment schema.
  static let schemas = [
    tm1637Schema, max7219Schema, shiftRegisterSchema, ht16k33Schema, sparkFunSerialSchema,
  ]
}
