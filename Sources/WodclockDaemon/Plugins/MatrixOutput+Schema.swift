// SPDX-License-Identifier: MIT
// The config schemas of the LED-matrix kinds.

import ConfigFormat
import Configuration
import HardwareKit
import MatrixKit
import WorkoutCore

extension MatrixOutput {
  /// The LED-matrix kinds, by the name written after `type:`.
  enum Kind: String, CaseIterable, Sendable {
    /// WLED or an Arduino on a serial port.
    case serial = "serial-matrix"
    /// A network controller speaking DDP.
    case ddp = "ddp-matrix"

    /// The kind of a config entry.
    init(of instance: PluginInstance) throws {
      guard let kind = Kind(rawValue: instance.kind) else {
        throw PluginError("'\(instance.kind)' is not an LED-matrix kind")
      }
      self = kind
    }
  }

  /// How the LEDs of a panel are chained.
  enum Wiring: String, CaseIterable, Sendable {
    /// Every row starts on the same side.
    case progressive
    /// Every other row runs back.
    case serpentine
  }

  // MARK: Settings of both kinds

  static let width = Setting("width", .integer(1...1024), default: nil, "LEDs across")
  static let height = Setting("height", .integer(1...1024), default: nil, "LEDs down")
  static let wiring = Setting(
    "wiring", .choice(among: Wiring.allCases), default: .progressive,
    "serpentine: every other row runs back (most flexible WS2812 panels)")
  static let origin = Setting(
    "origin", .choice(among: WiringMap.Corner.allCases), default: .topLeft,
    "the corner of each panel where its data line enters")
  static let rotation = Setting(
    "rotation", .choice(among: [("0", 0), ("90", 90), ("180", 180), ("270", 270)]), default: 0,
    "degrees the picture is turned clockwise on the wall")
  static let panelWidth = Setting(
    "panel_width", .integer(0...1024), default: 0,
    "LEDs across one panel of several chained left to right, top to bottom; 0: one panel")
  static let panelHeight = Setting(
    "panel_height", .integer(0...1024), default: 0, "LEDs down one panel")
  static let gamma = Setting(
    "gamma", .string, default: "2.2",
    "perceptual correction, 1.0 (none) to 3.0; WLED does not correct live data")
  static let maxBrightness = Setting(
    "max_brightness", .percentage, default: 100, "scales the design tokens' day and night levels")
  static let maxCurrent = Setting(
    "max_current_ma", .integer(0...200_000), default: defaultCurrentLimitMilliamps,
    "the 5 V supply's budget for the LEDs, estimated at 1 mA per LED idle and 20 mA per colour "
      + "at full (61 mA a white LED); 0: no limit")
  static let keepAlive = Setting(
    "keepalive", .duration(.milliseconds(100)...(.seconds(60))), default: .seconds(1),
    "resend an unchanged picture this often (WLED leaves live mode after 2.5 s)")
  static let font = Setting(
    "font", .string, default: "",
    "a BDF font for the words and counters (rpi-rgb-led-matrix's fonts, X11's 5x8, 6x10 …), "
      + "relative to this file's directory; empty: the built-in 5-row font")

  private static let commonSettings = [
    width.spec, height.spec, wiring.spec, origin.spec, rotation.spec, panelWidth.spec,
    panelHeight.spec, gamma.spec, maxBrightness.spec, maxCurrent.spec,
    keepAlive.spec, font.spec,
  ]

  // MARK: Settings of serial-matrix

  static let device = Setting(
    "device", .string, default: nil,
    "the serial port: /dev/ttyACM0, /dev/serial/by-id/…, or usb:VID:PID[:SERIAL]")
  static let framing = Setting(
    "protocol", .choice(among: SerialFraming.allCases), default: .adalight,
    "adalight (WLED, Adalight sketches), tpm2, or raw bytes")
  static let baud = Setting(
    "baud", .integer(300...4_000_000), default: 115_200,
    "115200 is WLED's default; it also takes 921600, 1000000 and 1500000")
  static let startupDelay = Setting(
    "startup_delay", .duration(.zero...(.seconds(10))), default: .seconds(2),
    "wait after opening: opening the port resets most ESP and Arduino boards")

  // MARK: Settings of ddp-matrix

  static let host = Setting("host", .string, default: nil, "the controller's address or name")
  static let port = Setting("port", .integer(1...65535), default: DDP.port, "UDP port (4048)")

  /// A 5 V 5 A supply: a 64×32 panel idles at 2,048 mA by the current model, which leaves it
  /// about 3 A for the picture.
  static let defaultCurrentLimitMilliamps = 5_000

  /// The gamma of a `gamma:` text, nil unless it is a number from 1 to 3.
  static func gammaValue(_ text: String) -> Double? {
    guard let value = Double(text), value >= 1, value <= 3 else { return nil }
    return value
  }

  private static func checkCommon(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    let width = try settings[Self.width]
    let height = try settings[Self.height]
    let panelWidth = try settings[Self.panelWidth]
    let panelHeight = try settings[Self.panelHeight]
    let rotation = try settings[Self.rotation]
    do {
      _ = try WiringMap(
        width: width, height: height, rotation: rotation,
        panelWidth: panelWidth == 0 ? nil : panelWidth,
        panelHeight: panelHeight == 0 ? nil : panelHeight)
    } catch {
      if let range = settings.location(of: Self.panelWidth) ?? settings.location(of: Self.width) {
        bag.error(
          error.description, at: range,
          hint: "panel sizes are as mounted, after rotation; both or neither are given")
      }
    }
    let gammaText = try settings[gamma]
    if gammaValue(gammaText) == nil, let range = settings.location(of: gamma) {
      bag.error("gamma '\(gammaText)' is not a number from 1.0 to 3.0", at: range)
    }
    try checkFont(settings, width: width, height: height, &bag)
    try checkCurrentLimit(settings, width: width, height: height, &bag)
  }

  /// A budget the LEDs' idle draw alone uses up cannot light anything: the output then shows
  /// the picture at its lowest visible level, over the budget (see OutputPipeline). Said here,
  /// with the budget the panel needs.
  private static func checkCurrentLimit(
    _ settings: PluginSettings, width: Int, height: Int, _ bag: inout DiagnosticBag
  ) throws {
    let limit = try settings[maxCurrent]
    guard limit > 0, let range = settings.location(of: maxCurrent) else { return }
    // The current model alone: no gamma table is needed.
    let model = OutputPipeline(gamma: 1)
    let ledCount = width * height
    let idle = model.idleMilliamps(ledCount: ledCount)
    guard limit <= idle else { return }
    let size = "\(width)x\(height)"
    bag.warning(
      "max_current_ma (\(limit) mA) does not cover the \(idle) mA the \(ledCount) LEDs of a "
        + "\(size) panel draw idle (1 mA each): the picture is shown at its lowest visible "
        + "level, over the budget", at: range,
      hint: "a \(size) panel needs max_current_ma: \(model.neededMilliamps(ledCount: ledCount)) "
        + "or more (its idle draw, and as much again for the picture), from a supply that "
        + "delivers it; 0 sets no limit")
  }

  /// The font file is read and parsed here, so --check-config and a reload find a missing or
  /// broken font before the clock uses it; then whether it can show the clock on this panel.
  private static func checkFont(
    _ settings: PluginSettings, width: Int, height: Int, _ bag: inout DiagnosticBag
  ) throws {
    guard let source = try MatrixFont.source(in: settings), let range = settings.location(of: font)
    else { return }
    let font: CaptionFont
    switch MatrixFont.load(source) {
    case .failure(let problem):
      bag.error(problem.message, at: range, hint: problem.hint)
      return
    case .success(let loaded):
      font = loaded
    }
    // The installed unit's ProtectHome=yes hides these from the service, although a check run
    // from a login shell reads them.
    if let hidden = ["/home/", "/root/", "/run/user/"].first(where: source.path.hasPrefix) {
      bag.warning(
        "the wodclockd service cannot read files under \(hidden) (its unit has ProtectHome=yes)",
        at: range, hint: "copy the font to /etc/wodclock/fonts/ and name it there")
    }
    let digits = "0123456789".filter { !font.supports(String($0)) }
    if !digits.isEmpty {
      bag.error(
        "the font '\(source.setting)' has no glyph for \(listed(digits))", at: range,
        hint: "the counters (R 3/10) need every digit: pick a text font, such as 6x10.bdf")
    }
    let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ/".filter { !font.supports(String($0)) }
    if !letters.isEmpty {
      bag.warning(
        "the font '\(source.setting)' has no glyph for \(listed(letters)); they show as '?'",
        at: range, hint: "the phase words and counters are written in capitals A to Z and '/'")
    }
    if !MatrixLayout.fits(textHeight: font.height, width: width, height: height) {
      let tallest = MatrixLayout.tallestFittingText(width: width, height: height)
      bag.warning(
        "the font's lines are \(font.height) rows tall, which leaves the digits of a "
          + "\(width)x\(height) panel too little room: the built-in 5-row font is used",
        at: range,
        hint: tallest >= 1
          ? "a font of at most \(tallest) rows fits this panel (X11's fonts are named by width "
            + "and height: 5x8, 6x10, 7x13)" : "this panel is too small for any font")
    }
    if let set = font.characterSet, !["ISO10646-1", "ISO8859-1"].contains(set.uppercased()) {
      bag.warning(
        "the font's characters are coded in \(set), not Unicode: letters beyond ASCII may show "
          + "as others", at: range,
        hint: "use the font's ISO10646-1 version (X11's fonts without a suffix, like 6x10)")
    }
  }

  /// `'1', '2' and '3'`.
  private static func listed(_ characters: String) -> String {
    let quoted = characters.map { "'\($0)'" }
    guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " and " + last
  }

  static let serialSchema = PluginSchema(
    kind: Kind.serial.rawValue, direction: .output,
    summary: "an RGB LED matrix behind WLED or an Arduino on a serial port (Adalight, TPM2, raw)",
    settings: [device.spec, framing.spec, baud.spec, startupDelay.spec] + commonSettings,
    crossCheck: { settings, bag in
      try checkCommon(settings, &bag)
      let device = try settings[MatrixOutput.device]
      if SerialDeviceSelector(parsing: device) == nil,
        let range = settings.location(of: MatrixOutput.device)
      {
        bag.error(
          "'\(device)' is not a device path or a USB id", at: range,
          hint: "write /dev/ttyACM0, /dev/serial/by-id/…, or usb:303a:1001 (lsusb's ids)")
      }
      let leds = try settings[width] * settings[height]
      let framing = try settings[MatrixOutput.framing]
      if framing == .tpm2, !SerialFraming.tpm2ReadRightByWLED(ledCount: leds),
        let range = settings.location(of: MatrixOutput.framing)
      {
        bag.warning(
          "WLED misreads the length of a TPM2 frame of \(leds) LEDs", at: range,
          hint: "use protocol: adalight with WLED")
      }
      let baud = try settings[MatrixOutput.baud]
      let milliseconds = framing.frameLength(ledCount: leds) * 10 * 1000 / max(1, baud)
      if milliseconds > 500,
        let range = settings.location(of: MatrixOutput.baud) ?? settings.location(of: width)
      {
        bag.warning(
          "a frame of \(leds) LEDs takes \(milliseconds) ms at \(baud) baud", at: range,
          hint: "raise the baud rate (WLED takes 1000000), or use ddp-matrix over the network")
      }
    },
    claims: { settings in
      [ResourceClaim(kind: "serial device", identity: try settings[device], key: device.name)]
    })

  static let ddpSchema = PluginSchema(
    kind: Kind.ddp.rawValue, direction: .output,
    summary: "an RGB LED matrix behind a network controller speaking DDP (WLED, xLights, Falcon)",
    settings: [host.spec, port.spec] + commonSettings,
    crossCheck: { settings, bag in try checkCommon(settings, &bag) },
    claims: { settings in
      [
        ResourceClaim(
          kind: "DDP output", identity: "\(try settings[host]):\(try settings[port])",
          key: host.name)
      ]
    })
}
