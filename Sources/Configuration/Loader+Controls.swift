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

  /// An engine action (`toggle`), `mute`, `load NAME` or `lane ACTION N`.
  mutating func readAction(_ node: ConfigNode, gesture: Gesture) -> ControlAction? {
    let actions = WorkoutAction.allCases.map(\.rawValue) + ["mute"]
    let listing =
      actions.joined(separator: ", ") + ", load NAME, "
      + LaneAction.allCases.map { "lane \($0.rawValue) N" }.joined(separator: ", ")
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
    if text == "lane" || text.hasPrefix("lane ") { return readLaneAction(scalar) }
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

  /// `lane finish 3`, `lane undo 3`, `lane tiebreak 3`; an error points at the word at fault.
  mutating func readLaneAction(_ scalar: Scalar) -> ControlAction? {
    let laneActions = LaneAction.allCases.map(\.rawValue)
    let lanes = ControlAction.laneNumbers
    let example = "write e.g. 'lane finish 3' (lanes \(lanes.lowerBound) to \(lanes.upperBound))"
    let words = Self.words(of: scalar.text)
    guard words.count >= 2 else {
      checker.error(
        "'lane' needs an action and a lane number", at: scalar.range,
        hint: example + "; lane actions: " + laneActions.joined(separator: ", "))
      return nil
    }
    let actionWord = words[1]
    guard let action = LaneAction(rawValue: actionWord.text) else {
      checker.error(
        "unknown lane action '\(actionWord.text)'",
        at: Self.range(of: actionWord.columns, in: scalar),
        hint: SchemaChecker.suggestion(actionWord.text, among: laneActions, listing: "lane actions")
      )
      return nil
    }
    guard words.count >= 3 else {
      checker.error(
        "'lane \(action.rawValue)' needs a lane number", at: scalar.range,
        hint: "write e.g. 'lane \(action.rawValue) 3' (lanes \(lanes.lowerBound) to "
          + "\(lanes.upperBound))")
      return nil
    }
    let numberWord = words[2]
    let digits = numberWord.text.unicodeScalars
    // At most three digits before converting: a long run of them is not a lane, never a trap.
    guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ ("0"..."9").contains($0) }),
      let lane = Int(numberWord.text), lanes.contains(lane)
    else {
      checker.error(
        "expected a lane number from \(lanes.lowerBound) to \(lanes.upperBound), found "
          + "'\(numberWord.text)'",
        at: Self.range(of: numberWord.columns, in: scalar),
        hint: "write e.g. 'lane \(action.rawValue) 3'")
      return nil
    }
    if words.count > 3 {
      let extra = words[3...]
      checker.error(
        "unexpected '\(extra.map(\.text).joined(separator: " "))' after the lane number",
        at: Self.range(
          of: words[3].columns.lowerBound..<words[words.count - 1].columns.upperBound, in: scalar),
        hint: "a control's gesture does one thing: 'lane \(action.rawValue) \(lane)'")
      return nil
    }
    return .lane(action, lane: lane)
  }

  /// The words of `text` split at spaces, each with its columns (Unicode scalar offsets).
  static func words(of text: String) -> [(text: String, columns: Range<Int>)] {
    var words: [(text: String, columns: Range<Int>)] = []
    var current = ""
    var start = 0
    for (offset, character) in text.unicodeScalars.enumerated() {
      if character == " " {
        if !current.isEmpty { words.append((current, start..<offset)) }
        current = ""
      } else {
        if current.isEmpty { start = offset }
        current.unicodeScalars.append(character)
      }
    }
    if !current.isEmpty { words.append((current, start..<start + current.unicodeScalars.count)) }
    return words
  }
}
