// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import Testing
import WodclockTestSupport
import WorkoutCore

/// The plugin kinds the tests load against: the daemon's real catalog (terminal, log, keyboard),
/// restated here because the tests must not import the daemon, plus test-only kinds that claim
/// hardware, need a key, and use every setting type.
enum TestPlugins {
  static let terminal = PluginSchema(
    kind: "terminal", direction: .output, summary: "a full-screen view in the terminal",
    settings: [
      SettingSpec(
        "color", .choice(["auto", "always", "never"]), default: .string("auto"), "colours")
    ])

  static let log = PluginSchema(
    kind: "log", direction: .output, summary: "a journal line on every state change",
    settings: [SettingSpec("cues", .boolean, default: .boolean(true), "log every cue too")])

  static let keyboard = PluginSchema(
    kind: "keyboard", direction: .input, summary: "the terminal's keyboard",
    settings: [
      SettingSpec(
        "confirm_reset", .boolean, default: .boolean(true), "press r twice to reset")
    ])

  /// A button on a GPIO line: `line` is required and claimed; `hold` must exceed `debounce`.
  static let button = PluginSchema(
    kind: "test-button", direction: .input, summary: "a push button on a GPIO line",
    settings: [
      SettingSpec("line", .string, default: nil, "the GPIO line, as in 'GPIO17'"),
      SettingSpec("control", .string, default: .string("start"), "the control it presses"),
      SettingSpec(
        "debounce", .duration(TimeSpan.zero...TimeSpan.seconds(1)),
        default: .duration(.milliseconds(30)), "ignore bounces shorter than this"),
      SettingSpec(
        "hold", .duration(TimeSpan.milliseconds(100)...TimeSpan.seconds(10)),
        default: .duration(.seconds(1)), "a long press lasts at least this"),
    ],
    crossCheck: { settings, bag in
      if case .duration(let debounce)? = settings["debounce"],
        case .duration(let hold)? = settings["hold"], debounce >= hold,
        let location = settings.locations["hold"]
      {
        bag.error(
          "'hold' must be longer than 'debounce'", at: location,
          hint: "a long press cannot be shorter than a bounce")
      }
    },
    claims: { settings in
      guard case .string(let line)? = settings["line"] else { return [] }
      // GPIO17, gpio17 and 17 are the same line.
      var identity = line.lowercased()
      if identity.hasPrefix("gpio") { identity.removeFirst(4) }
      return [ResourceClaim(kind: "GPIO line", identity: identity, key: "line")]
    })

  /// An LED lamp that uses the remaining setting types.
  static let lamp = PluginSchema(
    kind: "test-lamp", direction: .output, summary: "an LED lamp",
    settings: [
      SettingSpec(
        "color", .color, default: .color(RGBColor(red: 255, green: 255, blue: 255)), "lit"),
      SettingSpec("brightness", .percentage, default: .percentage(100), "how bright"),
      SettingSpec("pins", .list(.integer(0...40)), default: .list([]), "driver pins"),
      SettingSpec(
        "cues", .map(.duration(TimeSpan.zero...TimeSpan.seconds(5))), default: .map([]),
        "flash per cue"),
      SettingSpec(
        "serial",
        .section([
          SettingSpec("device", .string, default: .string("/dev/ttyUSB0"), "device"),
          SettingSpec("baud", .integer(1200...115_200), default: .integer(9600), "speed"),
        ]),
        default: .map([
          KeyedSetting(key: "device", value: .string("/dev/ttyUSB0")),
          KeyedSetting(key: "baud", value: .integer(9600)),
        ]), "the serial link"),
    ],
    claims: { settings in
      guard case .map(let serial)? = settings["serial"],
        case .string(let device)? = serial.first(where: { $0.key == "device" })?.value
      else { return [] }
      return [ResourceClaim(kind: "serial device", identity: device, key: "serial")]
    })

  static let all = [terminal, log, keyboard, button, lamp]
}

/// Loads `text` as `test.yaml` against the test plugins.
func load(_ text: String, file: String = "test.yaml") -> ConfigurationLoadResult {
  ConfigurationLoader.load(text: text, file: file, plugins: TestPlugins.all)
}

/// The configuration of `text`, recording an issue with the rendered diagnostics when it fails.
func configuration(
  _ text: String, file: String = "test.yaml",
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> WodclockConfiguration? {
  let result = load(text, file: file)
  if result.configuration == nil || !result.diagnostics.isEmpty {
    let rendered = DiagnosticRenderer(file: file, source: text).render(result.diagnostics)
    Issue.record("unexpected diagnostics:\n\(rendered)", sourceLocation: sourceLocation)
  }
  return result.configuration
}

/// A copy without anything that depends on where the text came from, for comparing the
/// configuration of a file with that of its printed form.
func withoutLocations(_ configuration: WodclockConfiguration) -> WodclockConfiguration {
  var copy = configuration
  let nowhere = ConfigFormat.SourceLocation(file: "", line: 0, column: 0)
  copy.file = ""
  copy.presets = copy.presets.map { Preset(name: $0.name, plan: $0.plan, location: nowhere) }
  func strip(_ instance: PluginInstance) -> PluginInstance {
    var instance = instance
    instance.location = nowhere
    instance.settings.locations = [:]
    instance.settings.entryLocations = [:]
    instance.settings.itemLocations = [:]
    return instance
  }
  copy.inputs = copy.inputs.map(strip)
  copy.outputs = copy.outputs.map(strip)
  return copy
}

// MARK: Files

/// The repository's shipped configuration file.
func shippedConfigPath() -> String {
  sourceDirectory() + "/../../Config/wodclock.yaml"
}
