// SPDX-License-Identifier: MIT
// Key maps of the `usb-remote` input: which key operates which control, the built-in profiles
// for presenters and numeric keypads, and the config checks of key names (the kernel's `KEY_*`
// names, include/uapi/linux/input-event-codes.h).

import ButtonKit
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
  /// A key of the workout composer; while nothing is composed, a key that starts nothing does
  /// `otherwise` (`compose enter else start`: Enter loads what is composed, else starts).
  indirect case compose(ComposerKey, otherwise: RemoteKeyTarget?)

  /// The forms a target is written in, for hints.
  static let forms =
    "a control name (start, next ...), 'preset N' (1-9), 'action ACTION', "
    + "'compose KEY [else TARGET]' or 'none'"

  /// The composer's keys as the config names them.
  static let composerKeys: [(name: String, key: ComposerKey)] =
    (0...9).map { ("\($0)", ComposerKey.digit($0)) } + [
      ("x", .times), (":", .colon), ("enter", .confirm), ("back", .delete), ("cancel", .cancel),
    ] + ComposerMode.allCases.map { ($0.rawValue, ComposerKey.mode($0)) }

  /// Reads `start`, `preset 3`, `action reset` or `none`.
  init?(parsing text: String) {
    let words = text.split(separator: " ")
    if words.first == "compose" {
      guard words.count == 2 || (words.count >= 4 && words[2] == "else"),
        let key = Self.composerKeys.first(where: { $0.name == words[1] })?.key
      else { return nil }
      var otherwise: RemoteKeyTarget?
      if words.count >= 4 {
        let rest = words[3...].joined(separator: " ")
        guard let target = RemoteKeyTarget(parsing: rest) else { return nil }
        if case .compose = target { return nil }
        otherwise = target
      }
      self = .compose(key, otherwise: otherwise)
      return
    }
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
    case .compose(let key, let otherwise):
      "compose " + (Self.composerKeys.first { $0.key == key }?.name ?? "?")
        + (otherwise.map { " else \($0)" } ?? "")
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
      // HID keypads send KEY_KPn whatever the NumLock LED says (NumLock itself is a key of its
      // own to the clock); the top-row digits and Enter are there for keypads that pose as a
      // keyboard. Digits compose a workout, and one digit then Enter loads that preset; the
      // other keys compose while something is being composed and run the workout otherwise.
      var keys: [(key: String, target: RemoteKeyTarget)] = []
      for digit in 0...9 {
        keys.append(("KEY_KP\(digit)", .compose(.digit(digit), otherwise: nil)))
        keys.append(("KEY_\(digit)", .compose(.digit(digit), otherwise: nil)))
      }
      keys += [
        ("KEY_KPENTER", .compose(.confirm, otherwise: .control("start"))),
        ("KEY_ENTER", .compose(.confirm, otherwise: .control("start"))),
        ("KEY_BACKSPACE", .compose(.delete, otherwise: .action(.reset))),
        ("KEY_KPASTERISK", .compose(.times, otherwise: .action(.finish))),
        ("KEY_KPDOT", .compose(.colon, otherwise: .control("lap"))),
        ("KEY_KPSLASH", .compose(.mode(.amrap), otherwise: nil)),
        ("KEY_KPMINUS", .compose(.mode(.emom), otherwise: .action(.previous))),
        ("KEY_KPPLUS", .compose(.mode(.forTime), otherwise: .control("next"))),
        ("KEY_NUMLOCK", .compose(.mode(.intervals), otherwise: nil)),
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
    func checkName(_ name: String, _ setting: Setting<some Any>, at range: SourceRange) {
      guard EvdevKeys.code(named: name) == nil else { return }
      let upper = name.uppercased()
      let guess = closestMatch(to: upper.hasPrefix("KEY_") ? upper : "KEY_" + upper, among: names)
      bag.error(
        "unknown key '\(name)' in '\(setting.name)'", at: range,
        hint: (guess.map { "did you mean '\($0)'? " } ?? "")
          + "keys are the kernel's KEY_* names (KEY_PAGEDOWN, KEY_KP1, KEY_F5 ...); "
          + "'evtest' shows what a device sends, and the daemon logs keys it does not map")
    }
    for (key, text) in try settings[USBRemoteInput.keys] {
      checkName(key, USBRemoteInput.keys, at: settings.range(of: USBRemoteInput.keys, key: key))
      if RemoteKeyTarget(parsing: text) == nil {
        var hint = "write " + RemoteKeyTarget.forms
        let first = text.split(separator: " ").first.map(String.init) ?? text
        if let action = closestMatch(
          to: first, among: WorkoutAction.allCases.map(\.rawValue)), first == action
        {
          hint = "write 'action \(action)' for the action, or name a control"
        }
        if first == "compose" {
          let words = text.split(separator: " ")
          let names = RemoteKeyTarget.composerKeys.map(\.name)
          let given = words.count > 1 ? String(words[1]) : ""
          let guess = names.contains(given) ? nil : closestMatch(to: given, among: names)
          hint =
            (guess.map { "did you mean 'compose \($0)'? " } ?? "")
            + "write 'compose KEY' or 'compose KEY else TARGET'; keys: "
            + names.joined(separator: ", ")
        }
        bag.error(
          "cannot read '\(text)' for key '\(key)'",
          at: settings.range(of: USBRemoteInput.keys, valueOf: key),
          hint: hint)
      }
    }
    for (index, name) in try settings[USBRemoteInput.repeating].enumerated() {
      checkName(
        name, USBRemoteInput.repeating,
        at: settings.range(of: USBRemoteInput.repeating, item: index))
    }
    if InputDeviceSelector(parsing: try settings[USBRemoteInput.device]) == nil {
      bag.error(
        "'device' is empty", at: settings.range(of: USBRemoteInput.device),
        hint: "write the device's name, its USB id such as '046d:c52d', or a /dev/input path")
    }
  }
}
