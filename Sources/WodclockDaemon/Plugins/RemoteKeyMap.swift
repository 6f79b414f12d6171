// SPDX-License-Identifier: MIT
// Key maps of the `usb-remote` input: which key operates which control, the built-in profiles
// for presenters and numeric keypads, and the config checks of key names (the kernel's `KEY_*`
// names, include/uapi/linux/input-event-codes.h).

import ConfigFormat
import Configuration
import HardwareKit
import WorkoutCore

/// What a key of a remote does.
enum RemoteKeyTarget: Equatable, Sendable, CustomStringConvertible {
  /// A control of the config's `controls:` section: its press and long press.
  case control(String)
  /// Load the n-th preset (1–9), as the keyboard's digit keys do.
  case preset(Int)
  /// An action of the running workout, on a press and on a long press alike.
  case action(WorkoutAction)
  /// Nothing (takes a key out of a profile).
  case nothing

  /// The forms a target is written in, for hints.
  static let forms = "a control name (start, next ...), 'preset N' (1-9), 'action ACTION' or 'none'"

  /// Reads `start`, `preset 3`, `action reset` or `none`.
  init?(parsing text: String) {
    let words = text.split(separator: " ")
    switch (words.first, words.count) {
    case ("none"?, 1):
      self = .nothing
    case ("preset"?, 2):
      guard let number = Int(words[1]), (1...9).contains(number) else { return nil }
      self = .preset(number)
    case ("action"?, 2):
      guard let action = WorkoutAction(rawValue: String(words[1])) else { return nil }
      self = .action(action)
    case (let name?, 1):
      let valid = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
      guard valid, name.first?.isLetter == true else { return nil }
      self = .control(String(name))
    default:
      return nil
    }
  }

  var description: String {
    switch self {
    case .control(let name): name
    case .preset(let number): "preset \(number)"
    case .action(let action): "action \(action.rawValue)"
    case .nothing: "none"
    }
  }
}

/// A built-in key map.
enum RemoteProfile: String, CaseIterable, Sendable {
  /// Presentation clickers: forward/back, start-slideshow, blank-screen.
  case presenter
  /// Numeric keypads: digits load presets, Enter starts and pauses.
  case keypad
  /// No built-in keys: only the `keys:` of the config.
  case none

  /// The profile's keys, by `KEY_*` name (include/uapi/linux/input-event-codes.h).
  var keys: [(key: String, target: RemoteKeyTarget)] {
    switch self {
    case .presenter:
      // A Logitech R400 sends PAGEDOWN (forward), PAGEUP (back), F5 and ESC alternately (the
      // start-slideshow key) and DOT (blank screen); other clickers use the arrows, B for blank
      // and media keys.
      return [
        ("KEY_PAGEDOWN", .control("next")), ("KEY_RIGHT", .control("next")),
        ("KEY_DOWN", .control("next")), ("KEY_NEXTSONG", .control("next")),
        ("KEY_PAGEUP", .action(.previous)), ("KEY_LEFT", .action(.previous)),
        ("KEY_UP", .action(.previous)), ("KEY_PREVIOUSSONG", .action(.previous)),
        ("KEY_F5", .control("start")), ("KEY_ESC", .control("start")),
        ("KEY_PLAYPAUSE", .control("start")),
        ("KEY_DOT", .control("lap")), ("KEY_B", .control("lap")),
      ]
    case .keypad:
      // HID keypads send KEY_KPn whatever the NumLock LED says; the top-row digits are there
      // for keypads that pose as a keyboard.
      var keys: [(key: String, target: RemoteKeyTarget)] = []
      for digit in 1...9 {
        keys.append(("KEY_KP\(digit)", .preset(digit)))
        keys.append(("KEY_\(digit)", .preset(digit)))
      }
      keys += [
        ("KEY_KPENTER", .control("start")), ("KEY_ENTER", .control("start")),
        ("KEY_KP0", .control("start")), ("KEY_0", .control("start")),
        ("KEY_BACKSPACE", .action(.reset)),
        ("KEY_KPPLUS", .control("next")), ("KEY_KPMINUS", .action(.previous)),
        ("KEY_KPDOT", .control("lap")), ("KEY_KPASTERISK", .action(.finish)),
      ]
      return keys
    case .none:
      return []
    }
  }
}

/// The keys of one `usb-remote` entry: its profile's, then the `keys:` of the config over them.
struct RemoteKeyMap: Equatable, Sendable {
  /// Key code to target; keys mapped to `none` are absent.
  var targets: [UInt16: RemoteKeyTarget]
  /// Keys whose auto-repeat counts as further presses.
  var repeating: Set<UInt16>

  /// Builds the map from validated settings (unknown names were refused by `check`).
  init(profile: RemoteProfile, keys: [(key: String, value: String)], repeating: [String]) {
    var targets: [UInt16: RemoteKeyTarget] = [:]
    for (name, target) in profile.keys {
      if let code = EvdevKeys.code(named: name) { targets[code] = target }
    }
    for (name, text) in keys {
      guard let code = EvdevKeys.code(named: name), let target = RemoteKeyTarget(parsing: text)
      else { continue }
      targets[code] = target == .nothing ? nil : target
    }
    self.targets = targets
    self.repeating = Set(repeating.compactMap(EvdevKeys.code(named:)))
  }

  /// Reports unknown key names (with a did-you-mean among the `KEY_*` names) and unreadable
  /// targets of the `keys` and `repeat` settings.
  static func check(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    let names = EvdevKeys.allNames
    func checkName(_ name: String, _ setting: Setting<some Any>) {
      guard EvdevKeys.code(named: name) == nil else { return }
      let upper = name.uppercased()
      let guess = closestMatch(to: upper.hasPrefix("KEY_") ? upper : "KEY_" + upper, among: names)
      bag.error(
        "unknown key '\(name)' in '\(setting.name)'", at: settings.range(of: setting),
        hint: (guess.map { "did you mean '\($0)'? " } ?? "")
          + "keys are the kernel's KEY_* names (KEY_PAGEDOWN, KEY_KP1, KEY_F5 ...); "
          + "'evtest' shows what a device sends, and the daemon logs keys it does not map")
    }
    for (key, text) in try settings[USBRemoteInput.keys] {
      checkName(key, USBRemoteInput.keys)
      if RemoteKeyTarget(parsing: text) == nil {
        var hint = "write " + RemoteKeyTarget.forms
        let first = text.split(separator: " ").first.map(String.init) ?? text
        if let action = closestMatch(
          to: first, among: WorkoutAction.allCases.map(\.rawValue)), first == action
        {
          hint = "write 'action \(action)' for the action, or name a control"
        }
        bag.error(
          "cannot read '\(text)' for key '\(key)'",
          at: settings.range(of: USBRemoteInput.keys),
          hint: hint)
      }
    }
    for name in try settings[USBRemoteInput.repeating] {
      checkName(name, USBRemoteInput.repeating)
    }
    if InputDeviceSelector(parsing: try settings[USBRemoteInput.device]) == nil {
      bag.error(
        "'device' is empty", at: settings.range(of: USBRemoteInput.device),
        hint: "write the device's name, its USB id such as '046d:c52d', or a /dev/input path")
    }
  }
}
