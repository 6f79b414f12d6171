// SPDX-License-Identifier: MIT
// The controls section: what each named button or key does on a press and a long press.

import ConfigFormat
import WorkoutCore

extension ControlBinding {
  /// The bindings used when the file has no `controls` section: those of the shipped
  /// wodclock.yaml, so a fresh install's buttons work.
  public static let standard: [ControlBinding] = [
    ControlBinding(
      name: "start", actions: [.press: .engine(.toggle), .longPress: .engine(.reset)]),
    ControlBinding(
      name: "next", actions: [.press: .engine(.next), .longPress: .engine(.previous)]),
    ControlBinding(name: "lap", actions: [.press: .engine(.lap), .longPress: .engine(.finish)]),
  ]
}

extension Loader {
  mutating func readControls(_ entry: MappingEntry?) -> [ControlBinding] {
    guard let entry else { return ControlBinding.standard }
    guard
      let mapping = checker.mapping(
        entry.value, what: "'controls'",
        hint: "write each control name followed by ':', then 'press:' and 'long_press:' below it")
    else { return [] }
    var bindings: [ControlBinding] = []
    let gestures = Gesture.allCases.map(\.rawValue)
    for control in mapping.entries {
      let name = control.key.text
      guard checker.checkName(control.key, what: "control name") else { continue }
      guard
        let gestureMapping = checker.mapping(
          control.value, what: "control '\(name)'",
          hint: "write 'press: ACTION' and 'long_press: ACTION' indented below '\(name):'")
      else { continue }
      if gestureMapping.entries.isEmpty {
        if mapping.isIncomplete { continue }
        checker.error(
          "control '\(name)' has no gestures", at: control.key.range,
          hint: "add 'press:' or 'long_press:' with an action, or remove the control")
        continue
      }
      var actions: [Gesture: ControlAction] = [:]
      for gestureEntry in gestureMapping.entries {
        guard let gesture = Gesture(rawValue: gestureEntry.key.text) else {
          checker.error(
            "unknown gesture '\(gestureEntry.key.text)' for control '\(name)'",
            at: gestureEntry.key.range,
            hint: SchemaChecker.suggestion(
              gestureEntry.key.text, among: gestures, listing: "gestures"))
          continue
        }
        if let action = readAction(gestureEntry.value, gesture: gesture) {
          actions[gesture] = action
        }
      }
      bindings.append(ControlBinding(name: name, actions: actions))
    }
    return bindings
  }

  /// An engine action (`toggle`) or `load NAME`.
  mutating func readAction(_ node: ConfigNode, gesture: Gesture) -> ControlAction? {
    let actions = WorkoutAction.allCases.map(\.rawValue) + ["mute"]
    let listing = actions.joined(separator: ", ") + ", load NAME"
    guard
      let scalar = checker.scalar(
        node, key: gesture.rawValue, expected: "an action such as 'toggle' or 'load tabata'")
    else { return nil }
    let text = scalar.text
    if text == "load" || text.hasPrefix("load ") {
      let name = text.dropFirst("load".count).drop { $0 == " " }
      guard !name.isEmpty else {
        checker.error(
          "'load' needs a preset name", at: scalar.range, hint: "write e.g. 'load tabata'")
        return nil
      }
      guard checkPresetReference(String(name), at: node) else { return nil }
      return .load(preset: String(name))
    }
    if let action = WorkoutAction(rawValue: text) { return .engine(action) }
    if text == "mute" { return .mute }
    var hint = "actions: \(listing)"
    if let match = closestMatch(to: text, among: actions) {
      hint = "did you mean '\(match)'? " + hint
    } else if presetNameSet.contains(text) {
      hint = "write 'load \(text)' to load the preset"
    }
    checker.error("unknown action '\(text)'", at: scalar.range, hint: hint)
    return nil
  }
}
