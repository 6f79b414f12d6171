// SPDX-License-Identifier: MIT
// Plan → what the clock understood, for `wodclockctl explain`: the parts, each part's segments
// and length, the total, the count-in, one line a coach reads, and how the whiteboard's
// ambiguous spellings were read.

import JSONKit
import WorkoutCore

/// What a plan runs, told for a coach (``text``) and for scripts (``json``).
public struct WorkoutExplanation: Sendable, Hashable {
  /// A stretch of segments told as one: a segment, or a block of them repeated.
  public indirect enum Piece: Sendable, Hashable, CustomStringConvertible {
    /// One segment: what it is (its label, or its kind) and how long (nil: open-ended).
    case segment(what: String, length: TimeSpan?)
    case repeated(count: Int, [Piece])

    public var description: String {
      switch self {
      case .segment(let what, let length):
        return what + " " + (length.map(WorkoutExplanation.clock) ?? "open-ended")
      case .repeated(let count, let block):
        let inner =
          block.count == 1
          ? block[0].description : "(" + block.map(\.description).joined(separator: ", ") + ")"
        return "\(count) × \(inner)"
      }
    }
  }

  /// One part of the workout: the whole plan, or one step of a chain.
  public struct Part: Sendable, Hashable {
    /// The mode's config name (`amrap`, `for_time`), or `warm-up`, `cool-down`, `rest` for a
    /// timed step of a chain.
    public var mode: String
    /// How the part is written (its canonical notation, or a step's name).
    public var written: String
    /// The count-in or "get ready" rest before it (zero when it starts straight away).
    public var countIn: TimeSpan
    /// Its length, nil when open-ended.
    public var length: TimeSpan?
    /// Its segments as the compiled timeline has them, repeats folded.
    public var pieces: [Piece]
    public var segmentCount: Int
    /// One line a coach reads: `AMRAP 14:00`, `every 2:00 for 8 rounds`.
    public var headline: String
  }

  public var mode: ModeName
  /// The canonical notation of the plan, when it has one.
  public var notation: String?
  /// The line a coach reads: `AMRAP 14:00 after a 10 s count-in`.
  public var summary: String
  /// The workout's length without the count-in; nil when it is open-ended.
  public var total: TimeSpan?
  public var countIn: TimeSpan
  /// The rounds of the workout (of one set, for intervals in sets); nil where a mode has none.
  public var rounds: Int?
  public var sets: Int?
  /// The segments of the compiled timeline after the count-in.
  public var segmentCount: Int
  public var parts: [Part]
  /// How the whiteboard's ambiguous spellings were read (`every 2:00 x 8: 16 minutes, 8 rounds
  /// of 2:00`), and the count-in rules of a chain where they applied.
  public var readings: [String]
  /// The whiteboard under the workout: its movements and notes, each with its media.
  public var whiteboard: [WhiteboardLine] = []
  /// The picture or video of the whole workout.
  public var media: String?
  /// The name it was found by, when it is a named workout (`Cindy`).
  public var name: String?
  /// What the reader should know about the name it was asked by: that a preset of the config
  /// has it too, and which one loads.
  public var notes: [String] = []

  /// `1:30`, `14:00`, `1:00:00`.
  static func clock(_ span: TimeSpan) -> String { span.description }

  /// `10 s`, `1.5 s`, `1:30` from a minute.
  static func seconds(_ span: TimeSpan) -> String {
    if span >= .seconds(60) { return clock(span) }
    let tenths = span.nanoseconds / (TimeSpan.nanosecondsPerSecond / 10)
    return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
  }
}

extension WorkoutNotation {
  /// What `plan` runs. Every plan has an explanation, also one the notation cannot write (a
  /// config preset of its own keys).
  public static func explain(_ plan: WorkoutPlan) -> WorkoutExplanation {
    Explainer.explain(plan)
  }

  /// Reads `text` and explains the plan it gives.
  public static func explain(_ text: String, defaultCountIn: TimeSpan = standardCountIn)
    -> Result<WorkoutExplanation, NotationError>
  {
    explain(text, defaultCountIn: defaultCountIn, library: .standard)
  }

  /// Reads `text` with `library`'s names and explains the plan it gives. `presets` are the
  /// names of the config's presets: where the text is one of them and also a name of the
  /// library, the preset is what loads, and the explanation says so.
  public static func explain(
    _ text: String, defaultCountIn: TimeSpan = standardCountIn, library: WorkoutLibrary,
    presets: [String] = []
  ) -> Result<WorkoutExplanation, NotationError> {
    parse(text, defaultCountIn: defaultCountIn, library: library).map { plan in
      var explanation = explain(plan)
      if let named = library.workout(named: text) {
        explanation.name = named.name
        if let preset = presets.first(where: { WorkoutLibrary.sameName($0, text) }) {
          explanation.notes.append(
            "'\(preset)' is a preset of this config: loading '\(text)' runs the preset, not"
              + " the \(named.kind.described) \(named.name) explained here")
        }
      }
      return explanation
    }
  }
}

enum Explainer {
  static func explain(_ plan: WorkoutPlan) -> WorkoutExplanation {
    let timeline = try? plan.compile()
    var parts: [WorkoutExplanation.Part] = []
    var readings: [String] = []
    if case .sequence(let parameters) = plan.mode {
      var gap = plan.countIn
      var previous: WrittenPart?
      for step in parameters.steps {
        if step.name == Chain.getReady, step.kind == .rest, step.steps.isEmpty, !parts.isEmpty,
          let duration = step.duration
        {
          gap = gap + duration
          continue
        }
        let written = writtenPart(of: step)
        var part = self.part(of: step, written: written, countIn: gap)
        if let reading = written.flatMap(reading(of:)) { readings.append(reading) }
        if let previous, let written {
          if let rule = countInRule(after: previous, before: written, gap: gap, named: part.written)
          {
            readings.append(rule)
          }
        }
        part.countIn = gap
        parts.append(part)
        previous = written
        gap = .zero
      }
    } else {
      let segments = timeline.map { Array($0.segments[$0.workoutStartIndex...]) } ?? []
      parts.append(
        WorkoutExplanation.Part(
          mode: plan.mode.name.rawValue, written: write(plan) ?? plan.name,
          countIn: plan.countIn, length: timeline?.workoutLength,
          pieces: pieces(of: segments, mode: plan.mode), segmentCount: segments.count,
          headline: headline(of: plan.mode, length: timeline?.workoutLength)))
      let written = WrittenPart(body: .workout(plan.mode), label: plan.label, columns: 0..<0)
      if let reading = reading(of: written) { readings.append(reading) }
    }
    let total = timeline?.workoutLength
    var summary = parts.map(\.headline).joined(separator: ", then ")
    if parts.count > 1 {
      summary += "; " + (total.map { WorkoutExplanation.clock($0) + " in all" } ?? "open-ended")
    }
    if let label = plan.label { summary += " (\(label))" }
    summary +=
      plan.countIn == .zero
      ? " with no count-in" : " after a \(WorkoutExplanation.seconds(plan.countIn)) count-in"
    let (rounds, sets) = counts(of: plan.mode)
    return WorkoutExplanation(
      mode: plan.mode.name, notation: WorkoutNotation.write(plan), summary: summary, total: total,
      countIn: plan.countIn, rounds: rounds, sets: sets,
      segmentCount: timeline.map { $0.segments.count - $0.workoutStartIndex } ?? 0, parts: parts,
      readings: readings, whiteboard: plan.whiteboard, media: plan.media)
  }

  /// The notation of the plan's workout line, with the standard count-in.
  static func write(_ plan: WorkoutPlan) -> String? {
    var bare = plan
    bare.countIn = WorkoutNotation.standardCountIn
    return WorkoutNotation.writeWorkoutLine(bare)
  }

  static func counts(of mode: WorkoutMode) -> (rounds: Int?, sets: Int?) {
    switch mode {
    case .emom(let parameters): (parameters.rounds, nil)
    case .forTime(let parameters): (parameters.roundTarget, nil)
    case .intervals(let parameters), .tabata(let parameters): (parameters.rounds, parameters.sets)
    case .tempo(let parameters): (nil, parameters.sets)
    case .clock, .amrap, .sequence: (nil, nil)
    }
  }

  /// The part a step of a chain was written as: a timed step, or a part named by its notation.
  static func writtenPart(of step: SequenceStep) -> WrittenPart? {
    guard let text = Writer.partText(of: step),
      case .success(let plan) = WorkoutNotation.parseWithoutNaming(text)
    else { return nil }
    return Writer.writtenPart(of: plan)
  }

  /// A step of a sequence as a part: its segments are those the step compiles to on its own.
  static func part(of step: SequenceStep, written: WrittenPart?, countIn: TimeSpan)
    -> WorkoutExplanation.Part
  {
    let alone = WorkoutPlan(
      name: "", mode: .sequence(SequenceParameters(steps: [step])), countIn: .zero)
    let timeline = try? alone.compile()
    let segments = timeline?.segments ?? []
    let length = timeline?.workoutLength
    var mode = ModeName.sequence.rawValue
    var headline = step.name + " " + (length.map(WorkoutExplanation.clock) ?? "open-ended")
    switch written?.body {
    case .workout(let workoutMode)?:
      mode = workoutMode.name.rawValue
      headline = self.headline(of: workoutMode, length: length)
    case .step(let name, _, _)?:
      mode = name
    case nil:
      break
    }
    return WorkoutExplanation.Part(
      mode: mode, written: Writer.partText(of: step) ?? step.name, countIn: countIn, length: length,
      pieces: pieces(of: segments, mode: nil), segmentCount: segments.count, headline: headline)
  }

  /// The chain's count-in rule that decided the gap before a part (Chain.swift), when it said
  /// something the text did not.
  static func countInRule(
    after previous: WrittenPart, before part: WrittenPart, gap: TimeSpan, named name: String
  ) -> String? {
    guard case .workout = part.body else { return nil }
    let standard = Chain.defaultGap(after: previous, before: part)
    guard gap == standard else { return nil }
    if gap == .zero {
      return "\(name): no count-in, it starts as the rest before it ends"
    }
    return
      "\(name): a \(WorkoutExplanation.seconds(gap)) get-ready first, as every workout part"
      + " that does not follow a rest"
  }

  // MARK: Lines

  static func headline(of mode: WorkoutMode, length: TimeSpan?) -> String {
    let clock = WorkoutExplanation.clock
    let total = length.map { " (\(clock($0)))" } ?? ""
    switch mode {
    case .clock:
      return "the time of day"
    case .amrap(let parameters):
      return "AMRAP \(clock(parameters.time))"
    case .emom(let parameters):
      if parameters.ladder != nil {
        return "Death by: EMOM \(parameters.rounds) × \(clock(parameters.interval))" + total
      }
      if parameters.interval == .seconds(60) {
        return "EMOM \(parameters.rounds) × 1:00" + total
      }
      return "every \(clock(parameters.interval)) for \(parameters.rounds) rounds" + total
    case .forTime(let parameters):
      var text = "For Time"
      if let scheme = parameters.repScheme {
        text = scheme.map(String.init).joined(separator: "-") + " for time"
      } else if let rounds = parameters.rounds {
        text = "\(rounds) rounds for time"
      }
      return text + (parameters.cap.map { ", cap \(clock($0))" } ?? ", no cap")
    case .intervals(let parameters), .tabata(let parameters):
      var text =
        "\(parameters.rounds) × \(clock(parameters.work)) work / \(clock(parameters.rest)) rest"
      if case .tabata = mode { text = "Tabata " + text }
      if parameters.sets > 1 {
        text = "\(parameters.sets) sets of \(text), \(clock(parameters.setRest)) between sets"
      }
      return text + total
    case .tempo(let parameters):
      return
        "Tempo \(parameters.tempo.written): \(parameters.sets) sets of \(parameters.reps) reps"
        + (parameters.unilateral ? " each side" : "")
        + (parameters.startPhase == .concentric ? ", up first" : "")
        + (parameters.reverseDirection ? ", reversed" : "")
        + ", \(clock(parameters.setRest)) rest" + total
    case .sequence(let parameters):
      return "a sequence of \(parameters.steps.count) steps" + total
    }
  }

  /// How the notation reads a part of this shape, where the whiteboard is ambiguous.
  static func reading(of part: WrittenPart) -> String? {
    guard case .workout(let mode) = part.body, let written = Writer.part(mode, label: part.label)
    else { return nil }
    let clock = WorkoutExplanation.clock
    let seconds = WorkoutExplanation.seconds
    let meaning: String
    switch mode {
    case .clock, .sequence:
      return nil
    case .amrap(let parameters):
      meaning =
        "\(clock(parameters.time)) counting down (a bare number after a workout word is minutes)"
    case .emom(let parameters):
      let length = clock(parameters.interval.saturatingMultiply(parameters.rounds))
      if let ladder = parameters.ladder {
        meaning =
          "\(parameters.rounds) rounds of \(clock(parameters.interval)), \(ladder.start) rep in"
          + " the first and \(ladder.step) more each round, until the athletes fail (\(length))"
      } else if parameters.interval == .seconds(60) {
        meaning = "\(parameters.rounds) rounds, one every minute (\(length))"
      } else {
        meaning =
          "\(length), \(parameters.rounds) rounds of \(clock(parameters.interval)) (a number"
          + " after 'eNmom' is its minutes when they make whole rounds, else its rounds)"
      }
    case .forTime(let parameters):
      let cap =
        parameters.cap.map { "capped at \(clock($0))" } ?? "open-ended: it counts up until finish"
      if let scheme = parameters.repScheme {
        meaning =
          "\(scheme.count) rounds of \(scheme.map(String.init).joined(separator: ", ")) reps,"
          + " 'lap' goes to the next round and the last lap stops the clock; \(cap)"
      } else if let rounds = parameters.rounds {
        meaning = "\(rounds) rounds, 'lap' tallies one and the last stops the clock; \(cap)"
      } else {
        meaning = cap + (parameters.cap == nil ? "" : " (a bare number after 'cap' is minutes)")
      }
    case .intervals(let parameters), .tabata(let parameters):
      var text =
        "\(parameters.rounds) rounds of \(seconds(parameters.work)) work and"
        + " \(seconds(parameters.rest)) rest"
      if parameters.sets > 1 {
        text += ", \(parameters.sets) sets with \(clock(parameters.setRest)) rest between them"
      }
      meaning = text + " (bare numbers in work/rest are seconds)"
    case .tempo(let parameters):
      let tempo = parameters.tempo
      // In the order they run, named as the displays show them.
      let phases = parameters.phaseOrder.map { phase in
        let name = phaseName(phase, reversed: parameters.reverseDirection)
        if phase == .concentric && tempo.value(of: phase) == 0 {
          return "\(name) explosive (X, timed as 1 s)"
        }
        return "\(name) \(seconds(tempo.duration(of: phase)))"
      }
      meaning =
        phases.joined(separator: ", ") + "; \(parameters.reps) reps × \(parameters.sets) sets"
        + (parameters.unilateral ? " on each side" : "")
        + ", \(clock(parameters.setRest)) rest between sets"
        + (parameters.startPhase == .concentric
          ? "; up first: each rep starts with the lift, as a deadlift or a pull-up does" : "")
        + (parameters.reverseDirection
          ? "; reversed: the lift is shown going down and the lowering going up, as on a lat"
            + " pulldown, timed the same" : "")
    }
    return "\(written): \(meaning)"
  }

  // MARK: Segments

  static func pieces(of segments: [Segment], mode: WorkoutMode?) -> [WorkoutExplanation.Piece] {
    let single = segments.map { segment in
      WorkoutExplanation.Piece.segment(what: what(segment, mode: mode), length: segment.duration)
    }
    // Twice: reps into rounds (a tempo's phases into reps, reps into sets).
    return folded(folded(single))
  }

  /// Runs of a block of up to six pieces repeated, each told once with its count; the longest
  /// run wins, the shorter block on a tie.
  static func folded(_ items: [WorkoutExplanation.Piece]) -> [WorkoutExplanation.Piece] {
    var result: [WorkoutExplanation.Piece] = []
    var start = 0
    while start < items.count {
      var best = (period: 1, count: 1)
      let longest = min(6, (items.count - start) / 2)
      if longest >= 1 {
        for period in 1...longest {
          var count = 1
          while start + (count + 1) * period <= items.count,
            items[(start + count * period)..<(start + (count + 1) * period)]
              .elementsEqual(items[start..<(start + period)])
          {
            count += 1
          }
          if count > 1, count * period > best.count * best.period { best = (period, count) }
        }
      }
      if best.count > 1 {
        result.append(.repeated(count: best.count, Array(items[start..<(start + best.period)])))
        start += best.count * best.period
      } else {
        result.append(items[start])
        start += 1
      }
    }
    return result
  }

  /// A tempo phase as the displays name it: a reversed lift shows its lowering going up.
  static func phaseName(_ phase: TempoPhase, reversed: Bool) -> String {
    switch (phase, reversed) {
    case (.eccentric, false), (.concentric, true): "down"
    case (.concentric, false), (.eccentric, true): "up"
    case (.bottomPause, false), (.topPause, true): "pause at the bottom"
    case (.topPause, false), (.bottomPause, true): "pause at the top"
    }
  }

  static func what(_ segment: Segment, mode: WorkoutMode?) -> String {
    if let label = segment.label { return label }
    var reversed = false
    if case .tempo(let parameters)? = mode { reversed = parameters.reverseDirection }
    switch segment.kind {
    case .countIn: return "count-in"
    case .work:
      switch mode {
      case .amrap?: return "AMRAP"
      case .emom?: return "EMOM"
      case .forTime?: return "for time"
      default: return "work"
      }
    case .rest: return "rest"
    case .setRest: return "set rest"
    case .sideSwitch: return "switch sides"
    case .eccentric: return reversed ? "up" : "down"
    case .bottomPause: return reversed ? "pause at the top" : "pause"
    case .concentric: return reversed ? "down" : "up"
    case .topPause: return reversed ? "pause" : "pause at the top"
    }
  }
}

extension WorkoutExplanation {
  /// For a coach: the line, then the parts with their segments, the total and the readings.
  public var text: String {
    var lines = [(name.map { "\($0): " } ?? "") + summary, ""]
    if countIn > .zero { lines.append("count-in  \(Self.seconds(countIn))") }
    for (position, part) in parts.enumerated() {
      if position > 0, part.countIn > .zero {
        lines.append("get ready \(Self.seconds(part.countIn))")
      }
      let length = part.length.map(Self.clock) ?? "open-ended"
      let number = parts.count > 1 ? "\(position + 1). " : ""
      lines.append("\(number)\(part.written): \(length)")
      for piece in part.pieces { lines.append("    " + piece.description) }
    }
    lines.append(
      "total     "
        + (total.map { total in
          Self.clock(total)
            + (countIn > .zero ? ", \(Self.clock(total + countIn)) with the count-in" : "")
        } ?? "open-ended (it runs until finish)"))
    if !whiteboard.isEmpty || media != nil {
      lines.append("")
      lines.append("whiteboard:")
      if let media { lines.append("  (the whole workout: \(media))") }
      for line in whiteboard {
        lines.append("  " + line.text + (line.media.map { "  [\($0)]" } ?? ""))
      }
    }
    if !readings.isEmpty {
      lines.append("")
      lines.append("read as:")
      for reading in readings { lines.append("  " + reading) }
    }
    if !notes.isEmpty {
      lines.append("")
      for note in notes { lines.append("note: " + note) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// For scripts: `mode`, `total_s` (null when open-ended), `count_in_s`, `rounds`, `segments`
  /// (their number), `parts` (each part's mode and length), `summary`, `readings`,
  /// `whiteboard` (its lines' text), `whiteboard_media` (each line's media or null), `media`
  /// (the whole workout's or null), `name` (a named workout's, or null) and `notes`.
  public var json: JSONValue {
    func seconds(_ span: TimeSpan?) -> JSONValue {
      guard let span else { return .null }
      if span.nanoseconds % TimeSpan.nanosecondsPerSecond == 0 {
        return .integer(span.nanoseconds / TimeSpan.nanosecondsPerSecond)
      }
      return .double(span.seconds)
    }
    let partValues = parts.map { part -> JSONValue in
      .object(
        JSONObject([
          ("mode", .string(part.mode)), ("written", .string(part.written)),
          ("length_s", seconds(part.length)), ("count_in_s", seconds(part.countIn)),
          ("segments", .integer(Int64(part.segmentCount))),
          ("summary", .string(part.headline)),
        ]))
    }
    let lineTexts: [JSONValue] = whiteboard.map { .string($0.text) }
    let lineMedia: [JSONValue] = whiteboard.map { line in
      guard let media = line.media else { return .null }
      return .string(media)
    }
    let mediaValue: JSONValue = media.map { .string($0) } ?? .null
    let nameValue: JSONValue = name.map { .string($0) } ?? .null
    let noteValues: [JSONValue] = notes.map { .string($0) }
    return .object(
      JSONObject([
        ("mode", .string(mode.rawValue)),
        ("notation", notation.map(JSONValue.string) ?? .null),
        ("summary", .string(summary)),
        ("total_s", seconds(total)),
        ("count_in_s", seconds(countIn)),
        ("rounds", rounds.map { .integer(Int64($0)) } ?? .null),
        ("sets", sets.map { .integer(Int64($0)) } ?? .null),
        ("segments", .integer(Int64(segmentCount))),
        ("parts", .array(partValues)),
        ("readings", .array(readings.map(JSONValue.string))),
        ("whiteboard", .array(lineTexts)), ("whiteboard_media", .array(lineMedia)),
        ("media", mediaValue), ("name", nameValue), ("notes", .array(noteValues)),
      ]))
  }
}
