// SPDX-License-Identifier: MIT
// A preset written as a coach writes it on the whiteboard: `fran: "21-15-9 for time cap 10"`, a
// scalar instead of a mapping, read by WorkoutNotation; its problems are reported inside the
// string, at the line and column of the word they are about.

import ConfigFormat
import WorkoutCore
import WorkoutNotation

extension Loader {
  /// A preset whose value is text: the notation. It gets the defaults' count-in unless it says
  /// its own (`countin 5s`, `no countin`), and the defaults' cues.
  mutating func readNotationPreset(_ entry: MappingEntry, _ scalar: Scalar, defaults: Defaults)
    -> Preset?
  {
    let name = entry.key.text
    guard
      let text = checker.text(
        .scalar(scalar), key: name, maximumLength: WorkoutNotation.maximumLength)
    else { return nil }
    switch WorkoutNotation.parse(text, defaultCountIn: defaults.countIn, library: library) {
    case .success(var plan):
      noteMedia(of: plan, at: scalar.range)
      plan.name = name
      plan.cues = defaults.cues
      return Preset(name: name, plan: plan, location: entry.key.location)
    case .failure(let error):
      for diagnostic in Self.diagnostics(of: error, in: scalar) { checker.bag.append(diagnostic) }
      return nil
    }
  }

  /// The notation's diagnostics placed in the file. Their columns count the decoded text, which
  /// is the text of the file when the value sits on one line with no escape or doubled quote
  /// in it; otherwise (a folded or escaped string) they are reported at the value, the column
  /// within the workout said in the message.
  static func diagnostics(of error: NotationError, in scalar: Scalar) -> [Diagnostic] {
    let start = scalar.range.start
    let quotes = scalar.style == .plain ? 0 : 2
    let width = scalar.range.end.column - start.column
    if scalar.range.end.line == start.line, width == scalar.text.unicodeScalars.count + quotes {
      return error.located(file: start.file, line: start.line, column: start.column + quotes / 2)
    }
    return error.diagnostics.map { problem in
      let (line, column) = error.position(of: problem.columns.lowerBound)
      let place = line == 0 ? "column \(column + 1)" : "line \(line + 1), column \(column + 1)"
      return Diagnostic.error(
        "\(problem.message) (at \(place) of the workout)", at: scalar.range, hint: problem.hint)
    }
  }
}

enum NotationPresets {
  /// The notation `--print-config` writes for a preset instead of its keys: the plan's own
  /// notation, when it has one that reads back into the same plan under these defaults.
  static func printable(_ plan: WorkoutPlan, defaults: Defaults) -> String? {
    guard let notation = plan.notation, plan.cues == defaults.cues,
      case .success(let read) = WorkoutNotation.parse(
        notation, defaultCountIn: defaults.countIn, library: .empty),
      read.mode == plan.mode, read.countIn == plan.countIn, read.label == plan.label,
      read.whiteboard == plan.whiteboard, read.media == plan.media,
      read.notation == plan.notation
    else { return nil }
    return notation
  }
}
