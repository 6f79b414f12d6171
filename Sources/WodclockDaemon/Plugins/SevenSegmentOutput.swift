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
    let segmentKind = try Kind(of: instance)
    options = try Self.displayOptions(settings, kind: segmentKind)
    let consumer = "wodclock:\(instance.id)"
    makeDriver = try Self.driverFactory(kind: segmentKind, settings: settings, consumer: consumer)
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
    guard driver.digitCount == options.layout.digitCount || kind == Kind.shiftRegister.rawValue
    else {
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
    let picture =
      frame.overlay.map {
        SegmentRenderer.render(
          text: $0.narrow, layout: options.layout, tokens: frame.tokens, timeOfDay: time)
      }
      ?? SegmentRenderer.render(
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

  /// The 7-segment kinds, by the name written after `type:`.
  enum Kind: String, CaseIterable, Sendable {
    case tm1637
    case max7219
    case shiftRegister = "shift-register"
    case ht16k33
    case sparkFunSerial = "sparkfun-serial"

    /// The kind of a config entry.
    init(of instance: PluginInstance) throws {
      guard let kind = Kind(rawValue: instance.kind) else {
        throw PluginError("unknown 7-segment kind \(instance.kind)")
      }
      self = kind
    }

    /// The `layout:` of this kind, whose default fills its display.
    var layout: Setting<String> { self == .max7219 ? MAX7219Setting.layout : standardLayout }
  }

  static func displayOptions(_ settings: PluginSettings, kind: Kind) throws
    -> SegmentDisplayOptions
  {
    let template = try settings[kind.layout]
    let layout: SegmentLayout
    do {
      layout = try SegmentLayout(parsing: template)
    } catch {
      throw PluginError(error.description)
    }
    return SegmentDisplayOptions(
      layout: layout, rounds: try settings[rounds], roundPrefix: try settings[roundPrefix])
  }

  /// The line a line setting names; nil when it is empty (not wired).
  private static func line(_ settings: PluginSettings, _ setting: Setting<String>) throws
    -> GPIOLine?
  {
    let text = try settings[setting]
    return text.isEmpty ? nil : GPIOLine(parsing: text)
  }

  private static func openChip(_ settings: PluginSettings) throws -> () throws -> any GPIOChip {
    let spec = try settings[chip]
    return { try GPIOChips.open(spec) }
  }

  private static func halfPeriod(_ settings: PluginSettings, _ setting: Setting<Int>) throws
    -> Int64
  {
    Int64(try settings[setting]) * 1_000
  }

  static func driverFactory(kind: Kind, settings: PluginSettings, consumer: String) throws
    -> () throws -> any SegmentDriver
  {
    let digits = try displayOptions(settings, kind: kind).layout.digitCount
    switch kind {
    case .tm1637:
      guard let clk = try line(settings, TM1637Setting.clk),
        let dio = try line(settings, TM1637Setting.dio)
      else {
        throw PluginError("tm1637 needs clk and dio")
      }
      let openChip = try openChip(settings)
      let moduleDigits = try settings[TM1637Setting.digits]
      let half = try halfPeriod(settings, TM1637Setting.halfPeriod)
      return {
        TM1637Driver(
          chip: try openChip(), clock: clk, data: dio, digits: moduleDigits,
          halfPeriodNanoseconds: half, consumer: consumer)
      }
    case .max7219:
      let openChip = try openChip(settings)
      let chips = try settings[MAX7219Setting.chips]
      let perChip = try settings[MAX7219Setting.digitsPerChip]
      let rightToLeft = try settings[MAX7219Setting.digitZeroOnTheRight]
      let device = try settings[MAX7219Setting.device]
      let speed = try settings[MAX7219Setting.speed]
      let half = try halfPeriod(settings, MAX7219Setting.halfPeriod)
      let lines = (
        try line(settings, MAX7219Setting.din), try line(settings, MAX7219Setting.clk),
        try line(settings, MAX7219Setting.load)
      )
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
    case .shiftRegister:
      guard let data = try line(settings, ShiftRegisterSetting.data),
        let clock = try line(settings, ShiftRegisterSetting.clock),
        let latch = try line(settings, ShiftRegisterSetting.latch)
      else { throw PluginError("shift-register needs data, clock and latch") }
      let openChip = try openChip(settings)
      let enable = try line(settings, ShiftRegisterSetting.outputEnable)
      guard let map = SegmentBitMap(parsing: try settings[ShiftRegisterSetting.segmentMap]) else {
        throw PluginError("segment_map is not a map")
      }
      let invert = try settings[ShiftRegisterSetting.invert]
      let nearestLeft = try settings[ShiftRegisterSetting.nearestIsLeftmost]
      let half = try halfPeriod(settings, ShiftRegisterSetting.halfPeriod)
      let pwmChip = parsePWMChip(try settings[ShiftRegisterSetting.pwmChip])
      let pwmChannel = try settings[ShiftRegisterSetting.pwmChannel]
      let pwmPeriod =
        1_000_000_000 / Int64(max(1, try settings[ShiftRegisterSetting.pwmFrequency]))
      return {
        ShiftRegisterDriver(
          chip: try openChip(), data: data, clock: clock, latch: latch, outputEnable: enable,
          pwm: pwmChip.map { PWMChannel(chip: $0, channel: pwmChannel) },
          pwmPeriodNanoseconds: pwmPeriod, digits: digits, map: map, invert: invert,
          nearestIsLeftmost: nearestLeft, halfPeriodNanoseconds: half, consumer: consumer)
      }
    case .ht16k33:
      let bus = try settings[HT16K33Setting.bus]
      guard let address = parseAddress(try settings[HT16K33Setting.address]) else {
        throw PluginError("address must be 0x70 to 0x77")
      }
      return { HT16K33Driver { try I2CDevice(path: bus, address: address) } }
    case .sparkFunSerial:
      let device = try settings[SparkFunSerialSetting.device]
      let baud = try settings[SparkFunSerialSetting.baud]
      return { SparkFunSerialDriver(path: device, baud: baud) }
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

  // MARK: settings

  private static func layoutSetting(_ template: String) -> Setting<String> {
    Setting(
      "layout", .string, default: template,
      "digits left to right: R counter, H/M/S time, _ unused, ':' colon, '.' dot")
  }

  /// `layout:` of every kind but the MAX7219, whose chain has eight digits.
  static let standardLayout = layoutSetting("MM:SS")
  static let rounds = Setting(
    "rounds", .choice(among: SegmentDisplayOptions.RoundCount.allCases), default: .current,
    "interval modes: show the current round or the rounds left")
  static let roundPrefix = Setting(
    "round_prefix", .boolean, default: false, "an 'r' before a round number when a digit is spare")

  private static func displaySettings(layout: Setting<String>) -> [SettingSpec] {
    [layout.spec, rounds.spec, roundPrefix.spec]
  }

  /// `chip:` of the kinds on GPIO lines.
  static let chip = Setting(
    "chip", .string, default: "gpiochip0", "GPIO chip: path, name, label (pinctrl-rp1) or number")

  /// A GPIO line; an optional one is empty when not wired.
  private static func lineSetting(_ name: String, required: Bool, _ summary: String)
    -> Setting<String>
  {
    Setting(name, .string, default: required ? nil : "", summary)
  }

  private static func halfPeriodSetting(_ value: Int, _ range: ClosedRange<Int>) -> Setting<Int> {
    Setting(
      "half_period_us", .integer(range), default: value, "microseconds between clock edges")
  }

  enum TM1637Setting {
    static let clk = lineSetting("clk", required: true, "the CLK line (offset or name)")
    static let dio = lineSetting("dio", required: true, "the DIO line (offset or name)")
    static let digits = Setting("digits", .integer(4...6), default: 4, "4 or 6")
    static let halfPeriod = halfPeriodSetting(20, 1...1000)
  }

  enum MAX7219Setting {
    static let device = Setting(
      "device", .string, default: "",
      "a spidev device (/dev/spidev0.0); empty: bit-bang din, clk, load")
    static let speed = Setting(
      "speed_hz", .integer(1_000...10_000_000), default: 1_000_000, "spidev clock")
    static let din = lineSetting("din", required: false, "the DIN line when bit-banging")
    static let clk = lineSetting("clk", required: false, "the CLK line when bit-banging")
    static let load = lineSetting("load", required: false, "the LOAD (CS) line when bit-banging")
    static let halfPeriod = halfPeriodSetting(1, 0...1000)
    static let chips = Setting("chips", .integer(1...8), default: 1, "chips in the chain")
    static let digitsPerChip = Setting(
      "digits_per_chip", .integer(1...8), default: 8, "digits per chip (the scan limit + 1)")
    static let digitZeroOnTheRight = Setting(
      "digit_order", .choice(among: [("right-to-left", true), ("left-to-right", false)]),
      default: true, "where DIG0 is: most modules have it on the right")
    static let layout = layoutSetting("RR__MM:SS")
  }

  enum ShiftRegisterSetting {
    static let data = lineSetting("data", required: true, "SER")
    static let clock = lineSetting("clock", required: true, "SRCK / SRCLK")
    static let latch = lineSetting("latch", required: true, "RCK / RCLK")
    static let outputEnable = lineSetting(
      "output_enable", required: false, "/OE or /G, if wired: dark at 0 % brightness")
    static let pwmChip = Setting(
      "pwm_chip", .string, default: "",
      "instead of output_enable: the /sys/class/pwm/pwmchipN on /OE, to dim (Pi: pwm-2chan)")
    static let pwmChannel = Setting(
      "pwm_channel", .integer(0...15), default: 0, "its channel (pwmN)")
    static let pwmFrequency = Setting(
      "pwm_frequency_hz", .integer(100...100_000), default: 1000,
      "the PWM frequency; above ~200 Hz nobody sees flicker")
    static let segmentMap = Setting(
      "segment_map", .string, default: "sparkfun",
      "bit 0..7 segments: sparkfun, standard, or eight of a b c d e f g dp")
    static let invert = Setting("invert", .boolean, default: false, "a 0 bit lights a segment")
    static let nearestIsLeftmost = Setting(
      "chain", .choice(among: [("left-to-right", true), ("right-to-left", false)]),
      default: true, "left-to-right: the register wired to the Pi drives the leftmost digit")
    static let halfPeriod = halfPeriodSetting(1, 0...1000)
  }

  enum HT16K33Setting {
    static let bus = Setting("bus", .string, default: "/dev/i2c-1", "the i2c-dev bus")
    static let address = Setting(
      "address", .string, default: "0x70", "0x70 to 0x77 (jumpers A0-A2)")
  }

  enum SparkFunSerialSetting {
    static let device = Setting(
      "device", .string, default: nil, "the serial port (/dev/serial0)")
    static let baud = Setting(
      "baud", .integer(2400...115_200), default: 9600,
      "the display's baud rate (9600 from the factory)")
  }

  // MARK: schemas

  /// GPIO lines claimed as `<chip>:<line>`, so two plugins on one line collide.
  private static func gpioClaims(_ lines: [Setting<String>])
    -> @Sendable (PluginSettings) throws -> [ResourceClaim]
  {
    { settings in
      let chip = try settings[chip]
      return try lines.compactMap { line in
        let text = try settings[line]
        guard !text.isEmpty else { return nil }
        return ResourceClaim(kind: "GPIO line", identity: "\(chip):\(text)", key: line.name)
      }
    }
  }

  /// The layout parses and has `expected` digits (nil: any number).
  private static func checkLayout(
    _ settings: PluginSettings, _ bag: inout DiagnosticBag, layout: Setting<String>,
    expected: Int?, what: String
  ) throws {
    guard let range = settings.location(of: layout) else { return }
    let template = try settings[layout]
    do {
      let layout = try SegmentLayout(parsing: template)
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
    kind: Kind.tm1637.rawValue, direction: .output,
    summary: "a TM1637 4- or 6-digit 7-segment module on two GPIO lines",
    settings: [
      chip.spec, TM1637Setting.clk.spec, TM1637Setting.dio.spec, TM1637Setting.digits.spec,
      TM1637Setting.halfPeriod.spec,
    ] + displaySettings(layout: standardLayout),
    crossCheck: { settings, bag in
      let digits = try settings[TM1637Setting.digits]
      if digits == 5, let range = settings.location(of: TM1637Setting.digits) {
        bag.error("TM1637 modules have 4 or 6 digits", at: range)
      }
      try checkLayout(
        settings, &bag, layout: standardLayout, expected: digits, what: "the module")
    },
    claims: gpioClaims([TM1637Setting.clk, TM1637Setting.dio]))

  static let max7219Schema = PluginSchema(
    kind: Kind.max7219.rawValue, direction: .output,
    summary: "a chain of MAX7219 7-segment drivers, bit-banged or on spidev",
    settings: [
      MAX7219Setting.device.spec, MAX7219Setting.speed.spec, chip.spec, MAX7219Setting.din.spec,
      MAX7219Setting.clk.spec, MAX7219Setting.load.spec, MAX7219Setting.halfPeriod.spec,
      MAX7219Setting.chips.spec, MAX7219Setting.digitsPerChip.spec,
      MAX7219Setting.digitZeroOnTheRight.spec,
    ] + displaySettings(layout: MAX7219Setting.layout),
    crossCheck: { settings, bag in
      if try settings[MAX7219Setting.device].isEmpty {
        for line in [MAX7219Setting.din, MAX7219Setting.clk, MAX7219Setting.load]
        where try settings[line].isEmpty {
          bag.error(
            "max7219 needs '\(line.name)' when no spidev 'device' is given",
            at: settings.location(of: line) ?? settings.range(of: MAX7219Setting.device))
        }
      }
      let digits = try settings[MAX7219Setting.chips] * settings[MAX7219Setting.digitsPerChip]
      try checkLayout(
        settings, &bag, layout: MAX7219Setting.layout, expected: digits, what: "the chain")
    },
    claims: { settings in
      let device = try settings[MAX7219Setting.device]
      if !device.isEmpty {
        return [
          ResourceClaim(kind: "SPI device", identity: device, key: MAX7219Setting.device.name)
        ]
      }
      return try gpioClaims([MAX7219Setting.din, MAX7219Setting.clk, MAX7219Setting.load])(
        settings)
    })

  static let shiftRegisterSchema = PluginSchema(
    kind: Kind.shiftRegister.rawValue, direction: .output,
    summary: "74HC595 / TPIC6B595 chains, one register per digit (SparkFun Large Digit Driver)",
    settings: [
      chip.spec, ShiftRegisterSetting.data.spec, ShiftRegisterSetting.clock.spec,
      ShiftRegisterSetting.latch.spec, ShiftRegisterSetting.outputEnable.spec,
      ShiftRegisterSetting.pwmChip.spec, ShiftRegisterSetting.pwmChannel.spec,
      ShiftRegisterSetting.pwmFrequency.spec, ShiftRegisterSetting.segmentMap.spec,
      ShiftRegisterSetting.invert.spec, ShiftRegisterSetting.nearestIsLeftmost.spec,
      ShiftRegisterSetting.halfPeriod.spec,
    ] + displaySettings(layout: standardLayout),
    crossCheck: { settings, bag in
      if SegmentBitMap(parsing: try settings[ShiftRegisterSetting.segmentMap]) == nil,
        let range = settings.location(of: ShiftRegisterSetting.segmentMap)
      {
        bag.error(
          "segment_map must be sparkfun, standard, max7219 or eight distinct segments", at: range,
          hint: "bit 0 first, such as a,f,g,e,d,c,b,dp")
      }
      let pwmChip = try settings[ShiftRegisterSetting.pwmChip]
      if !pwmChip.isEmpty, let range = settings.location(of: ShiftRegisterSetting.pwmChip) {
        if parsePWMChip(pwmChip) == nil {
          bag.error(
            "pwm_chip must be a number (0) or a controller name (pwmchip0)", at: range,
            hint: "`ls /sys/class/pwm` lists the controllers")
        } else if try !settings[ShiftRegisterSetting.outputEnable].isEmpty {
          bag.error(
            "output_enable and pwm_chip both drive /OE; give one", at: range,
            hint: "pwm_chip dims the digits, output_enable only switches them on and off")
        }
      }
      try checkLayout(settings, &bag, layout: standardLayout, expected: nil, what: "the chain")
    },
    claims: { settings in
      var claims = try gpioClaims([
        ShiftRegisterSetting.data, ShiftRegisterSetting.clock, ShiftRegisterSetting.latch,
        ShiftRegisterSetting.outputEnable,
      ])(settings)
      if let chip = parsePWMChip(try settings[ShiftRegisterSetting.pwmChip]) {
        claims.append(
          ResourceClaim(
            kind: "PWM channel",
            identity: "pwmchip\(chip):\(try settings[ShiftRegisterSetting.pwmChannel])",
            key: ShiftRegisterSetting.pwmChip.name))
      }
      return claims
    })

  static let ht16k33Schema = PluginSchema(
    kind: Kind.ht16k33.rawValue, direction: .output,
    summary: "an HT16K33 4-digit backpack (Adafruit) on i2c-dev",
    settings: [HT16K33Setting.bus.spec, HT16K33Setting.address.spec]
      + displaySettings(layout: standardLayout),
    crossCheck: { settings, bag in
      if parseAddress(try settings[HT16K33Setting.address]) == nil,
        let range = settings.location(of: HT16K33Setting.address)
      {
        bag.error("an HT16K33 address is 0x70 to 0x77", at: range)
      }
      try checkLayout(settings, &bag, layout: standardLayout, expected: 4, what: "the backpack")
    },
    claims: { settings in
      let bus = try settings[HT16K33Setting.bus]
      let address =
        parseAddress(try settings[HT16K33Setting.address]).map { String($0, radix: 16) } ?? "?"
      return [
        ResourceClaim(
          kind: "I2C address", identity: "\(bus):0x\(address)", key: HT16K33Setting.address.name)
      ]
    })

  static let sparkFunSerialSchema = PluginSchema(
    kind: Kind.sparkFunSerial.rawValue, direction: .output,
    summary: "a SparkFun Serial 7-Segment Display on a UART",
    settings: [SparkFunSerialSetting.device.spec, SparkFunSerialSetting.baud.spec]
      + displaySettings(layout: standardLayout),
    crossCheck: { settings, bag in
      try checkLayout(settings, &bag, layout: standardLayout, expected: 4, what: "the display")
    },
    claims: { settings in
      [
        ResourceClaim(
          kind: "serial device", identity: try settings[SparkFunSerialSetting.device],
          key: SparkFunSerialSetting.device.name)
      ]
    })

  /// Every 7-segment schema.
  static let schemas = [
    tm1637Schema, max7219Schema, shiftRegisterSchema, ht16k33Schema, sparkFunSerialSchema,
  ]
}
