// SPDX-License-Identifier: MIT
// A workout with its whiteboard in the config: a preset's `whiteboard:` and `media:`, and a
// workout written as a list, its first item the workout line and the others the whiteboard
// (a preset, a class of the schedule, a workout of the gym's own file):
//
//   presets:
//     fran:
//       - "21-15-9 for time cap 10"
//       - "Thrusters 95/65 lb @thruster.webm"
//       - {line: Pull-ups, media: pull-up.webm}
//       - "@fran.mp4"                 # the whole workout's picture or video
//
// Each problem is reported in the item it is about.

import ConfigFormat
import WorkoutCore
import WorkoutNotation

extension Loader {
  static let whiteboardItemKeys = ["line", "media"]
  static let whiteboardExample = "[\"5 pull-ups\", {line: \"10 push-ups\", media: push-up.webm}]"

  /// A preset's `whiteboard:` list: each item a line (`"Thrusters 95/65 lb"`, which may end
  /// with `@thruster.webm`) or `{line: ..., media: ...}`. Nil after reporting.
  mutating func readWhiteboard(_ node: ConfigNode) -> [WhiteboardLine]? {
    guard let items = checker.list(node, key: "whiteboard", example: Self.whiteboardExample)
    else { return nil }
    var lines: [WhiteboardLine] = []
    var failed = false
    for item in items {
      guard let line = readWhiteboardItem(item) else {
        failed = true
        continue
      }
      if line.text.isEmpty, let media = line.media {
        checker.error(
          "'@\(media)' alone is the whole workout's media, not a whiteboard line",
          at: item.range, hint: "write 'media: \(media)' beside 'whiteboard:'")
        failed = true
        continue
      }
      lines.append(line)
    }
    if !failed { failed = !checkWhiteboardCount(lines.count, items: items) }
    return failed ? nil : lines
  }

  /// Reports more whiteboard lines than a workout may have, at the first one too many.
  mutating func checkWhiteboardCount(_ count: Int, items: [ConfigNode]) -> Bool {
    let limit = WorkoutNotation.maximumWhiteboardLines
    guard count > limit else { return true }
    checker.error(
      "a workout may have at most \(limit) whiteboard lines, this one has \(count)",
      at: items[min(items.count - 1, limit)].range,
      hint: "keep the whiteboard to the movements and the notes a class needs")
    return false
  }

  /// One item of a whiteboard: a line as written, or `{line: ..., media: ...}`. A line that is
  /// only `@file.ext` comes back with empty text and that media.
  mutating func readWhiteboardItem(_ node: ConfigNode) -> WhiteboardLine? {
    switch node {
    case .scalar(let scalar):
      guard
        let text = checker.text(
          node, key: "whiteboard", maximumLength: WorkoutNotation.maximumLength)
      else { return nil }
      switch WorkoutNotation.whiteboardLine(text) {
      case .success(let line):
        if let name = line.media { noteMedia(name, at: node.range) }
        return line
      case .failure(let error):
        for diagnostic in Self.diagnostics(of: error, in: scalar) { checker.bag.append(diagnostic) }
        return nil
      }
    case .mapping(let mapping):
      let errorsBefore = checker.bag.errorCount
      checker.checkKeys(
        mapping, allowed: Self.whiteboardItemKeys, context: "in a whiteboard line")
      guard let lineNode = mapping["line"] else {
        if !mapping.isIncomplete {
          checker.error(
            "missing key 'line' in a whiteboard line", at: node.range,
            hint: "write the line and its media, as in '{line: 10 burpees, media: burpee.webm}'")
        }
        return nil
      }
      guard var line = readWhiteboardItem(lineNode) else { return nil }
      if let mediaNode = mapping["media"], let media = readMediaName(mediaNode) {
        if line.media != nil {
          checker.error(
            "the line names its media twice: '@\(line.media!)' and 'media: \(media)'",
            at: mediaNode.range, hint: "keep one of them")
        }
        line.media = media
      }
      if line.text.isEmpty {
        checker.error(
          "the whiteboard line is empty", at: lineNode.range,
          hint: "write a movement ('10 burpees') or a note ('Rx 95/65 lb')")
      }
      return checker.bag.errorCount == errorsBefore ? line : nil
    case .sequence:
      checker.error(
        "expected a whiteboard line such as '10 burpees' or '{line: 10 burpees, media: burpee.webm}',"
          + " found \(SchemaChecker.found(node))", at: node.range)
      return nil
    }
  }

  /// A media file's name (`burpee.webm`): a file of the media directory, named alone.
  mutating func readMediaName(_ node: ConfigNode) -> String? {
    guard let text = checker.text(node, key: "media") else { return nil }
    if let (message, hint) = WorkoutNotation.mediaProblem(text) {
      checker.error(message, at: node.range, hint: hint)
      return nil
    }
    noteMedia(text, at: node.range)
    return text
  }

  /// A workout written in the notation: a text (`"amrap 20"`, or a name of the library such as
  /// `cindy`), or a list whose first item is the workout line and whose others are its
  /// whiteboard. The text the notation reads (the lines joined by line breaks) and the plan it
  /// gives, read with `defaultCountIn`; nil after reporting in the item at fault.
  mutating func readWrittenWorkout(_ node: ConfigNode, key: String, defaultCountIn: TimeSpan)
    -> (text: String, plan: WorkoutPlan)?
  {
    switch node {
    case .scalar(let scalar):
      guard
        let text = checker.text(node, key: key, maximumLength: WorkoutNotation.maximumLength)
      else { return nil }
      switch WorkoutNotation.parse(text, defaultCountIn: defaultCountIn, library: library) {
      case .success(let plan):
        noteMedia(of: plan, at: node.range)
        return (text, plan)
      case .failure(let error):
        for diagnostic in Self.diagnostics(of: error, in: scalar) { checker.bag.append(diagnostic) }
        return nil
      }
    case .sequence(let sequence):
      guard let first = sequence.items.first, case .scalar(let firstScalar) = first else {
        checker.error(
          "expected the workout as its first item, as in '[\"amrap 20\", 5 pull-ups]'",
          at: sequence.items.first?.range ?? node.range,
          hint: "the first item is the workout as written ('amrap 20'), the others its whiteboard")
        return nil
      }
      let errorsBefore = checker.bag.errorCount
      var workoutLine: String?
      if let text = checker.text(first, key: key, maximumLength: WorkoutNotation.maximumLength) {
        if case .failure(let error) = WorkoutNotation.parse(
          text, defaultCountIn: defaultCountIn, library: .empty)
        {
          for diagnostic in Self.diagnostics(of: error, in: firstScalar) {
            checker.bag.append(diagnostic)
          }
        } else {
          workoutLine = text
        }
      }
      var lines: [String] = []
      var media: String?
      var count = 0
      for item in sequence.items.dropFirst() {
        guard let line = readWhiteboardItem(item) else { continue }
        if line.text.isEmpty, let name = line.media {
          if let media {
            checker.error(
              "the workout's media is named twice: '\(media)' and '\(name)'", at: item.range,
              hint: "name one file for the whole workout; a movement's goes at the end of its line")
          }
          media = name
          continue
        }
        count += 1
        lines.append(line.text + (line.media.map { " @" + $0 } ?? ""))
      }
      _ = checkWhiteboardCount(count, items: Array(sequence.items.dropFirst()))
      guard let workoutLine, checker.bag.errorCount == errorsBefore else { return nil }
      let text = ([workoutLine] + (media.map { ["@" + $0] } ?? []) + lines).joined(separator: "\n")
      switch WorkoutNotation.parse(text, defaultCountIn: defaultCountIn, library: .empty) {
      case .success(let plan):
        noteMedia(of: plan, at: node.range)
        return (text, plan)
      case .failure(let error):
        checker.error(
          error.diagnostics.first?.message ?? "the workout does not read", at: node.range,
          hint: error.diagnostics.first?.hint)
        return nil
      }
    case .mapping:
      checker.error(
        "expected a workout as written ('amrap 20'), or a list of the workout and its whiteboard"
          + " lines, found \(SchemaChecker.found(node))", at: node.range,
        hint: "write e.g. '[\"amrap 20\", 5 pull-ups, 10 push-ups, 15 air squats]'")
      return nil
    }
  }
}
