// SPDX-License-Identifier: MIT
// Every plugin kind of the catalog reads each of its settings through the schema that declares
// it: made from an entry of only its required keys it takes the schema's defaults and its kind
// name, and given settings that lack a key (or hold another type there), which no config file
// can give it, it refuses to start and names the key instead of guessing a value of its own.

import Configuration
import Testing

@testable import WodclockDaemon

@Suite struct PluginSettingsTests {
  /// For each kind, the smallest entry a person can write: its required keys only.
  static let smallestEntries: [String: String] = [
    "terminal": "{type: terminal}",
    "log": "{type: log}",
    "keyboard": "{type: keyboard}",
    "gpio-button": "{type: gpio-button, buttons: [{line: GPIO17, control: start}]}",
    "gpio-buzzer": "{type: gpio-buzzer, line: GPIO18}",
    "speaker": "{type: speaker}",
    "gpio-signal": "{type: gpio-signal, lines: {work: GPIO5}}",
    "usb-remote": "{type: usb-remote, device: \"046d:c52d\"}",
    "serial-matrix": "{type: serial-matrix, device: /dev/ttyACM0, width: 32, height: 16}",
    "ddp-matrix": "{type: ddp-matrix, host: wled.local, width: 32, height: 16}",
    "tm1637": "{type: tm1637, clk: GPIO23, dio: GPIO24}",
    "max7219": "{type: max7219, device: /dev/spidev0.0}",
    "shift-register": "{type: shift-register, data: GPIO20, clock: GPIO21, latch: GPIO22}",
    "ht16k33": "{type: ht16k33}",
    "sparkfun-serial": "{type: sparkfun-serial, device: /dev/serial0}",
  ]

  /// The catalog's kinds with their smallest entries, loaded.
  static func kinds() throws -> [(kind: PluginKind, instance: PluginInstance)] {
    try PluginCatalog.kinds.map { kind in
      let entry = try #require(
        smallestEntries[kind.schema.kind], "no entry for the kind \(kind.schema.kind)")
      return (kind, try pluginInstance(kind.schema.direction, entry))
    }
  }

  /// The plugin `kind` makes of `instance`; its kind name.
  static func make(_ kind: PluginKind, _ instance: PluginInstance) throws -> String {
    switch kind.factory {
    case .output(let make): try make(instance).kind
    case .input(let make): try make(instance).kind
    }
  }

  /// Why the plugin could not be made, or nil when it was.
  static func refusal(_ kind: PluginKind, _ instance: PluginInstance) -> String? {
    do {
      _ = try make(kind, instance)
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func everyKindIsMadeFromItsRequiredKeysAndGoesByItsSchemasName() throws {
    #expect(Set(Self.smallestEntries.keys) == Set(PluginCatalog.kinds.map(\.schema.kind)))
    for (kind, instance) in try Self.kinds() {
      #expect(try Self.make(kind, instance) == kind.schema.kind)
    }
  }

  @Test func aPluginGivenSettingsWithoutAKeyNamesItRatherThanGuessing() throws {
    for (kind, instance) in try Self.kinds() {
      for key in instance.settings.values.map(\.key) {
        var broken = instance
        broken.settings.values.removeAll { $0.key == key }
        let refusal = Self.refusal(kind, broken)
        #expect(
          refusal?.contains("setting '\(key)' is missing") == true,
          "\(kind.schema.kind) without \(key): \(refusal ?? "made")")
      }
    }
  }

  @Test func aPluginGivenASettingOfAnotherTypeNamesItRatherThanGuessing() throws {
    for (kind, instance) in try Self.kinds() {
      for (index, setting) in instance.settings.values.enumerated() {
        var broken = instance
        // A value of a type no setting of this key has.
        if case .boolean = setting.value {
          broken.settings.values[index].value = .integer(1)
        } else {
          broken.settings.values[index].value = .boolean(true)
        }
        let refusal = Self.refusal(kind, broken)
        #expect(
          refusal?.contains("setting '\(setting.key)' is not ") == true,
          "\(kind.schema.kind) with a mistyped \(setting.key): \(refusal ?? "made")")
      }
    }
  }

  @Test func aButtonWithoutItsLineIsNamedInsideItsList() throws {
    let instance = try pluginInstance(
      .input,
      "{type: gpio-button, buttons: [{line: GPIO17, control: start}, {line: GPIO27, control: start}]}"
    )
    var broken = instance
    guard case .list(var buttons)? = broken.settings["buttons"],
      case .map(var second) = buttons[1]
    else {
      Issue.record("buttons is not a list of sections")
      return
    }
    second.removeAll { $0.key == "line" }
    buttons[1] = .map(second)
    broken.settings.values[0].value = .list(buttons)
    #expect(throws: SettingReadError(key: "buttons[1].line", problem: "missing")) {
      try GPIOButtonInput(instance: broken, source: .fake([]))
    }
  }
}
