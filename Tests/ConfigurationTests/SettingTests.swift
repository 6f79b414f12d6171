// SPDX-License-Identifier: MIT
// Typed settings: one declaration per key gives the schema its spec (type, default, summary)
// and reads the checked value back as a Swift value, for every setting type; reading settings
// that lack a key throws, naming it, and a check that does so is reported, not trapped.

import ConfigFormat
import Configuration
import Testing
import WorkoutCore

/// A lamp whose settings are declared typed, one of each setting type.
enum TypedLamp {
  enum Mode: String, CaseIterable, Sendable {
    case steady
    case blink
  }

  /// One entry of `links:`.
  struct Link: Equatable {
    var device: String
    var baud: Int

    init(device: String, baud: Int) {
      self.device = device
      self.baud = baud
    }

    init(section: PluginSettings) throws(SettingReadError) {
      device = try section[TypedLamp.device]
      baud = try section[TypedLamp.baud]
    }
  }

  static let label = Setting("label", .string, default: nil, "what it says")
  static let lit = Setting("lit", .boolean, default: true, "on at all")
  static let pins = Setting("pins", .list(.integer(0...40)), default: [], "driver pins")
  static let fade = Setting(
    "fade", .duration(.zero...(.seconds(5))), default: .milliseconds(200), "fade time")
  static let brightness = Setting("brightness", .percentage, default: 80, "how bright")
  static let mode = Setting("mode", .choice(among: Mode.allCases), default: .steady, "how lit")
  static let side = Setting(
    "side", .choice(among: [("left", -1), ("right", 1)]), default: 1, "where it hangs")
  static let color = Setting(
    "color", .color, default: RGBColor(red: 255, green: 255, blue: 255), "its colour")
  static let pattern = Setting(
    "pattern", .oneOrList(.duration(.zero...(.seconds(5)))), default: [.seconds(1)],
    "on/off times")
  static let cues = Setting(
    "cues", .map(.duration(.zero...(.seconds(5)))), default: [], "flash per cue")
  static let device = Setting("device", .string, default: nil, "device")
  static let baud = Setting("baud", .integer(1200...115_200), default: 9600, "speed")
  static let links = Setting(
    "links", .list(.section([device.spec, baud.spec], read: Link.init(section:))), default: [],
    "serial links")

  static let schema = PluginSchema(
    kind: "typed-lamp", direction: .output, summary: "a lamp",
    settings: [
      label.spec, lit.spec, pins.spec, fade.spec, brightness.spec, mode.spec, side.spec,
      color.spec, pattern.spec, cues.spec, links.spec,
    ])

  /// The settings of the one lamp of `entry`'s config.
  static func settings(_ entry: String) throws -> PluginSettings {
    let result = ConfigurationLoader.load(
      text: "presets: {t: {mode: tabata}}\noutputs: [\(entry)]\n", file: "test.yaml",
      plugins: [schema])
    let configuration = try #require(
      result.configuration, "\(result.diagnostics.map(\.message))")
    return try #require(configuration.outputs.first).settings
  }
}

@Suite("typed plugin settings") struct SettingTests {
  @Test("a declaration gives its schema the key, the type and the default as checked values")
  func specOfADeclaration() {
    #expect(TypedLamp.label.spec.defaultValue == nil)
    #expect(TypedLamp.fade.spec.defaultValue == .duration(.milliseconds(200)))
    #expect(TypedLamp.brightness.spec.defaultValue == .percentage(80))
    #expect(TypedLamp.mode.spec.defaultValue == .string("steady"))
    #expect(TypedLamp.side.spec.defaultValue == .string("right"))
    #expect(TypedLamp.pattern.spec.defaultValue == .list([.duration(.seconds(1))]))
    #expect(TypedLamp.cues.spec.defaultValue == .map([]))
    #expect(TypedLamp.links.spec.defaultValue == .list([]))
    #expect(TypedLamp.schema.settings.map(\.name).first == "label")
    if case .choice(let words) = TypedLamp.side.spec.type {
      #expect(words == ["left", "right"])
    } else {
      Issue.record("side is not a choice")
    }
  }

  @Test("every type reads back as the Swift value written")
  func everyTypeReadsBack() throws {
    let settings = try TypedLamp.settings(
      """
      {type: typed-lamp, label: Box 1, lit: false, pins: [4, 17], fade: 1s, brightness: 40%,
       mode: blink, side: left, color: "#ff8000", pattern: [100ms, 50ms], cues: {finish: 2s},
       links: [{device: /dev/ttyUSB0}, {device: /dev/ttyUSB1, baud: 115200}]}
      """)
    #expect(try settings[TypedLamp.label] == "Box 1")
    #expect(try settings[TypedLamp.lit] == false)
    #expect(try settings[TypedLamp.pins] == [4, 17])
    #expect(try settings[TypedLamp.fade] == .seconds(1))
    #expect(try settings[TypedLamp.brightness] == 40)
    #expect(try settings[TypedLamp.mode] == .blink)
    #expect(try settings[TypedLamp.side] == -1)
    #expect(try settings[TypedLamp.color] == RGBColor(red: 255, green: 128, blue: 0))
    #expect(try settings[TypedLamp.pattern] == [.milliseconds(100), .milliseconds(50)])
    let cues = try settings[TypedLamp.cues]
    #expect(cues.map(\.key) == ["finish"] && cues.map(\.value) == [.seconds(2)])
    #expect(
      try settings[TypedLamp.links] == [
        TypedLamp.Link(device: "/dev/ttyUSB0", baud: 9600),
        TypedLamp.Link(device: "/dev/ttyUSB1", baud: 115_200),
      ])
    // One value where a list may stand reads as a list of one.
    #expect(
      try TypedLamp.settings("{type: typed-lamp, label: x, pattern: 3s}")[TypedLamp.pattern] == [
        .seconds(3)
      ])
  }

  @Test("an absent key reads as the default its declaration gives")
  func defaultsReadBack() throws {
    let settings = try TypedLamp.settings("{type: typed-lamp, label: x}")
    #expect(try settings[TypedLamp.lit] == true)
    #expect(try settings[TypedLamp.pins] == [])
    #expect(try settings[TypedLamp.fade] == .milliseconds(200))
    #expect(try settings[TypedLamp.brightness] == 80)
    #expect(try settings[TypedLamp.mode] == .steady)
    #expect(try settings[TypedLamp.side] == 1)
    #expect(try settings[TypedLamp.color] == RGBColor(red: 255, green: 255, blue: 255))
    #expect(try settings[TypedLamp.pattern] == [.seconds(1)])
    #expect(try settings[TypedLamp.cues].isEmpty)
    #expect(try settings[TypedLamp.links] == [])
  }

  @Test("settings that lack a key, or hold another type there, throw and name it")
  func readingWhatIsNotThereThrows() throws {
    let settings = try TypedLamp.settings(
      "{type: typed-lamp, label: x, links: [{device: a}, {device: b}]}")
    var missing = settings
    missing.values.removeAll { $0.key == "fade" }
    #expect(throws: SettingReadError(key: "fade", problem: "missing")) {
      try missing[TypedLamp.fade]
    }
    var mistyped = settings
    mistyped.values[0].value = .integer(3)
    #expect(throws: SettingReadError(key: "label", problem: "not text")) {
      try mistyped[TypedLamp.label]
    }
    // Inside a list of sections, the path to the key.
    var nested = settings
    let index = try #require(nested.values.firstIndex { $0.key == "links" })
    nested.values[index].value = .list([
      .map([KeyedSetting(key: "device", value: .string("a"))]),
      .map([KeyedSetting(key: "baud", value: .integer(9600))]),
    ])
    let error = #expect(throws: SettingReadError.self) { try nested[TypedLamp.links] }
    #expect(error?.key == "links[0].baud")
    #expect(
      error?.description
        == "setting 'links[0].baud' is missing: the settings do not match the plugin's schema")
  }

  @Test("a check that reads a setting its schema does not list is an error of the entry")
  func checkReadingAnUnlistedSettingIsReported() {
    let unlisted = Setting("unlisted", .string, default: "x", "not in the schema")
    let schema = PluginSchema(
      kind: "broken-lamp", direction: .output, summary: "a lamp", settings: [],
      crossCheck: { settings, _ in _ = try settings[unlisted] })
    let result = ConfigurationLoader.load(
      text: "presets: {t: {mode: tabata}}\noutputs: [{type: broken-lamp}]\n", file: "test.yaml",
      plugins: [schema])
    #expect(result.configuration == nil)
    #expect(
      result.diagnostics.map(\.message) == [
        "output 'broken-lamp' cannot be checked: setting 'unlisted' is missing: the settings do "
          + "not match the plugin's schema"
      ])
  }
}
