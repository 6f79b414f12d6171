// SPDX-License-Identifier: MIT
// The presets section: each preset's mode and that mode's keys, read into a `WorkoutPlan` with
// the defaults merged in, then checked by WorkoutCore's own validation.

import ConfigFormat
import WorkoutCore

/// The keys of each mode, besides the common ones.
enum PresetKeys {
  static let common = ["mode", "label", "count_in", "cues", "whiteboard", "media"]
  static let intervals = [
    "work", "rest", "rounds", "sets", "set_rest", "skip_last_rest", "labels",
  ]
  static let byMode: [ModeName: [String]] = [
    .clock: ["format", "seconds"],
    .forTime: ["cap", "rounds", "reps"],
    .amrap: ["time"],
    .emom: ["interval", "rounds", "labels", "ladder"],
    .intervals: intervals,
    .tabata: intervals,
    .tempo: [
      "tempo", "reps", "sets", "set_rest", "start", "unilateral", "switch_pause", "reverse",
    ],
    .sequence: ["steps", "skip_last_rest"],
  ]
  static let modeNames = ModeName.allCases.map(\.rawValue)
  static let step = ["name", "kind", "duration", "repeat", "steps", "loop", "skippable", "reps"]
  static let ladder = ["start", "step"]

  /// The keys a preset of `mode` may have, common ones first.
  static func allowed(_ mode: ModeName) -> [String] { common + (byMode[mode] ?? []) }

  /// The modes (other than `mode`) that have `key`, in the order modes are listed.
  static func modes(having key: String, except mode: ModeName) -> [String] {
    ModeName.allCases.filter { $0 != mode && byMode[$0]?.contains(key) == true }.map(\.rawValue)
  }
}

/// One preset being read: its name, its mapping and where to report.
struct PresetContext {
  var name: String
  var nameKey: Scalar
  var mapping: ConfigMapping
  var mode: ModeName

  var inPreset: String { "in preset '\(name)'" }
}

extension Loader {
  /// Records preset names before any section that refers to them is read.
  mutating func collectPresetNames(_ node: ConfigNode?) {
    presetNamesMayBeIncomplete = node?.isIncomplete ?? hasSyntaxErrors
    guard let entries = node?.mappingEntries else { return }
    for entry in entries where !presetNameSet.contains(entry.key.text) {
      presetNames.append(entry.key.text)
      presetNameSet.insert(entry.key.text)
    }
  }

  mutating func readPresets(
    _ entry: MappingEntry?, root: ConfigMapping, defaults: Defaults, clock: ClockFace
  ) -> [Preset] {
    let example = "presets:\n  tabata:\n    mode: tabata"
    guard let entry else {
      if hasSyntaxErrors { return [] }
      checker.error(
        "no 'presets' section: at least one preset is required",
        at: SourceRange(at: root.range.start),
        hint: "add a workout, for example:\n\(example)")
      return []
    }
    guard
      let mapping = checker.mapping(
        entry.value, what: "'presets'",
        hint: "write each preset's name followed by ':', then its keys indented below it")
    else { return [] }
    if mapping.entries.isEmpty {
      if mapping.isIncomplete { return [] }
      checker.error(
        "'presets' is empty: at least one preset is required", at: entry.key.range,
        hint: "add a workout, for example:\n\(example)")
      return []
    }
    var presets: [Preset] = []
    for presetEntry in mapping.entries {
      if let preset = readPreset(
        presetEntry, defaults: defaults, clock: clock, amongIncomplete: mapping.isIncomplete)
      {
        presets.append(preset)
      }
    }
    return presets
  }

  /// One preset. When `amongIncomplete`, a syntax error in `presets` may have cost this preset
  /// its lines, so an empty one is not reported.
  mutating func readPreset(
    _ entry: MappingEntry, defaults: Defaults, clock: ClockFace, amongIncomplete: Bool = false
  ) -> Preset? {
    let name = entry.key.text
    guard checker.checkName(entry.key, what: "preset name") else { return nil }
    let modes = PresetKeys.modeNames.joined(separator: ", ")
    if entry.value.isEmptyValue {
      if amongIncomplete { return nil }
      checker.error(
        "preset '\(name)' is empty", at: entry.key.range,
        hint: "add 'mode:' with one of: \(modes)")
      return nil
    }
    // `fran: "21-15-9 for time cap 10"`: the workout as written on the whiteboard.
    if case .scalar(let scalar) = entry.value {
      return readNotationPreset(entry, scalar, defaults: defaults)
    }
    // `fran: ["21-15-9 for time cap 10", "Thrusters 95/65 lb", Pull-ups]`: with its whiteboard.
    if case .sequence = entry.value {
      guard
        var plan = readWrittenWorkout(entry.value, key: name, defaultCountIn: defaults.countIn)?
          .plan
      else { return nil }
      plan.name = name
      plan.cues = defaults.cues
      return Preset(name: name, plan: plan, location: entry.key.location)
    }
    guard
      let mapping = checker.mapping(
        entry.value, what: "preset '\(name)'", hint: "write 'mode:' and the mode's keys below it")
    else { return nil }
    guard let modeNode = mapping["mode"] else {
      if mapping.isIncomplete { return nil }
      checker.error(
        "preset '\(name)' has no 'mode'", at: entry.key.range,
        hint: "add 'mode:' with one of: \(modes)")
      return nil
    }
    guard let modeText = checker.text(modeNode, key: "mode") else { return nil }
    guard let mode = ModeName(rawValue: modeText) else {
      checker.error(
        "unknown mode '\(modeText)' in preset '\(name)'", at: modeNode.range,
        hint: SchemaChecker.suggestion(modeText, among: PresetKeys.modeNames, listing: "modes"))
      return nil
    }
    let context = PresetContext(name: name, nameKey: entry.key, mapping: mapping, mode: mode)
    checkPresetKeys(context)

    let errorsBefore = checker.bag.errorCount
    var label: String?
    var countIn = defaults.countIn
    var cues = defaults.cues
    if let node = mapping["label"] {
      label = checker.text(node, key: "label", maximumLength: TextLimits.label)
    }
    if let node = mapping["count_in"],
      let span = checker.duration(node, key: "count_in", in: PlanLimits.countIn)
    {
      countIn = span
    }
    if let node = mapping["cues"] {
      cues = readCues(node, base: defaults.cues, context: "the cues of preset '\(name)'")
    }
    var whiteboard: [WhiteboardLine] = []
    var media: String?
    if let node = mapping["whiteboard"] { whiteboard = readWhiteboard(node) ?? [] }
    if let node = mapping["media"] { media = readMediaName(node) }
    let workoutMode = readMode(context, clock: clock)
    // A preset a syntax error broke is only checked key by key: its plan may lack what the
    // broken lines held.
    guard let workoutMode, checker.bag.errorCount == errorsBefore, !mapping.isIncomplete else {
      return nil
    }
    let plan = WorkoutPlan(
      name: name, label: label, mode: workoutMode, countIn: countIn, cues: cues,
      whiteboard: whiteboard, media: media)
    for problem in plan.validationErrors() {
      report(problem, in: context)
    }
    return Preset(name: name, plan: plan, location: entry.key.location)
  }

  /// Unknown keys, and keys of another mode, reported at the key.
  mutating func checkPresetKeys(_ context: PresetContext) {
    let allowed = PresetKeys.allowed(context.mode)
    let mode = context.mode.rawValue
    for entry in context.mapping.entries where !allowed.contains(entry.key.text) {
      let key = entry.key.text
      let owners = PresetKeys.modes(having: key, except: context.mode)
      let listing = "mode '\(mode)' takes: \(allowed.joined(separator: ", "))"
      if !owners.isEmpty {
        let owner =
          owners.count == 1
          ? "mode '\(owners[0])'" : "modes \(SchemaChecker.quotedList(owners, conjunction: "and"))"
        checker.error(
          "'\(key)' is not a key of mode '\(mode)'", at: entry.key.range,
          hint: "'\(key)' belongs to \(owner); \(listing)")
      } else {
        checker.error(
          "unknown key '\(key)' \(context.inPreset)", at: entry.key.range,
          hint: SchemaChecker.didYouMean(key, among: allowed) ?? listing)
      }
    }
  }

  /// Reports a missing key the mode needs, at the preset's name (unless a syntax error in the
  /// preset may have hidden it).
  mutating func missing(_ key: String, _ context: PresetContext, example: String) {
    if context.mapping.isIncomplete { return }
    checker.error(
      "missing key '\(key)' \(context.inPreset)", at: context.nameKey.range,
      hint: "mode '\(context.mode.rawValue)' needs '\(key)', as in '\(key): \(example)'")
  }

  mutating func readMode(_ context: PresetContext, clock: ClockFace) -> WorkoutMode? {
    let mapping = context.mapping
    switch context.mode {
    case .clock:
      return .clock(readClockFace(mapping, base: clock))
    case .forTime:
      var parameters = ForTimeParameters()
      if let node = mapping["cap"] {
        parameters.cap = checker.duration(
          node, key: "cap", in: PlanLimits.segmentLength, of: .workoutLength)
      }
      if let node = mapping["rounds"] {
        parameters.rounds = checker.integer(node, key: "rounds", in: PlanLimits.rounds)
      }
      if let node = mapping["reps"] {
        parameters.repScheme = readRepScheme(node)
        // The scheme sets the rounds; a `rounds` beside it must agree (the plan checks it).
        if mapping["rounds"] == nil, let count = parameters.repScheme?.count,
          PlanLimits.rounds.contains(count)
        {
          parameters.rounds = count
        }
      }
      return .forTime(parameters)
    case .amrap:
      guard let node = mapping["time"] else {
        missing("time", context, example: "12m")
        return nil
      }
      return checker.duration(
        node, key: "time", in: PlanLimits.segmentLength, of: .workoutLength
      ).map {
        .amrap(AMRAPParameters(time: $0))
      }
    case .emom:
      return readEMOM(context).map { .emom($0) }
    case .intervals:
      return readIntervals(context, defaults: nil).map { .intervals($0) }
    case .tabata:
      return readIntervals(context, defaults: .tabata).map { .tabata($0) }
    case .tempo:
      return readTempo(context).map { .tempo($0) }
    case .sequence:
      guard let node = mapping["steps"] else {
        missing("steps", context, example: "[{name: row, duration: 1m}]")
        return nil
      }
      guard let steps = readSteps(node, context, depth: 1) else { return nil }
      if steps.isEmpty, !node.isIncomplete {
        checker.error(
          "'steps' of preset '\(context.name)' is empty", at: node.range,
          hint: "list at least one step, as in '- {name: row, duration: 1m}'")
        return nil
      }
      var skipLastRest = false
      if let node = mapping["skip_last_rest"] {
        skipLastRest = checker.boolean(node, key: "skip_last_rest") ?? false
      }
      return .sequence(SequenceParameters(steps: steps, skipLastRest: skipLastRest))
    }
  }

  /// A For Time's rep scheme, `[21, 15, 9]`: the reps of each round.
  mutating func readRepScheme(_ node: ConfigNode) -> [Int]? {
    guard let items = checker.list(node, key: "reps", example: "[21, 15, 9]") else { return nil }
    var reps: [Int] = []
    var failed = false
    for item in items {
      if let value = checker.integer(item, key: "reps", in: PlanLimits.schemeReps) {
        reps.append(value)
      } else {
        failed = true
      }
    }
    return failed ? nil : reps
  }

  mutating func readEMOM(_ context: PresetContext) -> EMOMParameters? {
    let mapping = context.mapping
    var parameters = EMOMParameters(rounds: 1)
    if let node = mapping["interval"] {
      parameters.interval =
        checker.duration(
          node, key: "interval", in: PlanLimits.segmentLength, of: .workoutLength)
        ?? parameters.interval
    }
    if let node = mapping["rounds"] {
      parameters.rounds = checker.integer(node, key: "rounds", in: PlanLimits.rounds) ?? 1
    } else {
      missing("rounds", context, example: "10")
    }
    if let node = mapping["labels"] {
      parameters.labels =
        checker.textList(node, key: "labels", maximumLength: TextLimits.label) ?? []
    }
    if let node = mapping["ladder"],
      let ladderMapping = checker.mapping(
        node, what: "'ladder'", hint: "write '{start: 1, step: 1}'")
    {
      var ladder = Ladder()
      for entry in checker.checkKeys(
        ladderMapping, allowed: PresetKeys.ladder, context: "in the ladder of '\(context.name)'")
      {
        if entry.key.text == "start" {
          ladder.start = checker.integer(entry.value, key: "start", in: 0...999) ?? 1
        } else {
          ladder.step = checker.integer(entry.value, key: "step", in: -99...99) ?? 1
        }
      }
      parameters.ladder = ladder
    }
    return parameters
  }

  /// Intervals (work and rounds required) or tabata (everything optional, 20s/10s/8).
  mutating func readIntervals(_ context: PresetContext, defaults: IntervalParameters?)
    -> IntervalParameters?
  {
    let mapping = context.mapping
    var parameters = defaults ?? IntervalParameters(work: .seconds(20), rest: .zero, rounds: 1)
    if let node = mapping["work"] {
      parameters.work =
        checker.duration(node, key: "work", in: PlanLimits.segmentLength) ?? parameters.work
    } else if defaults == nil {
      missing("work", context, example: "30s")
    }
    if let node = mapping["rest"] {
      parameters.rest =
        checker.duration(node, key: "rest", in: PlanLimits.restLength) ?? parameters.rest
    }
    if let node = mapping["rounds"] {
      parameters.rounds =
        checker.integer(node, key: "rounds", in: PlanLimits.rounds) ?? parameters.rounds
    } else if defaults == nil {
      missing("rounds", context, example: "10")
    }
    if let node = mapping["sets"] {
      parameters.sets = checker.integer(node, key: "sets", in: PlanLimits.sets) ?? parameters.sets
    }
    if let node = mapping["set_rest"] {
      parameters.setRest =
        checker.duration(node, key: "set_rest", in: PlanLimits.restLength) ?? parameters.setRest
    }
    if let node = mapping["skip_last_rest"] {
      parameters.skipLastRest =
        checker.boolean(node, key: "skip_last_rest") ?? parameters.skipLastRest
    }
    if let node = mapping["labels"] {
      parameters.labels =
        checker.textList(node, key: "labels", maximumLength: TextLimits.label) ?? []
    }
    if context.mode == .tabata, parameters.rest > parameters.work,
      let node = mapping["rest"] ?? mapping["work"]
    {
      checker.warning(
        "rest (\(DurationText.format(parameters.rest))) is longer than work "
          + "(\(DurationText.format(parameters.work))) in tabata '\(context.name)'",
        at: node.range, hint: "check that 'work' and 'rest' are not swapped")
    }
    return parameters
  }

  mutating func readTempo(_ context: PresetContext) -> TempoParameters? {
    let mapping = context.mapping
    var tempo: Tempo?
    var reps: Int?
    if let node = mapping["tempo"] {
      if let scalar = checker.scalar(node, key: "tempo", expected: "a tempo such as \"3-1-1-0\"") {
        tempo = checker.bag.take(
          Tempo.parse(scalar.text).mapError {
            .error($0.message, at: scalar.range, hint: $0.hint)
          })
      }
    } else {
      missing("tempo", context, example: "\"3-1-1-0\"")
    }
    if let node = mapping["reps"] {
      reps = checker.integer(node, key: "reps", in: PlanLimits.reps)
    } else {
      missing("reps", context, example: "5")
    }
    guard let tempo, let reps else { return nil }
    var parameters = TempoParameters(tempo: tempo, reps: reps)
    if let node = mapping["sets"] {
      parameters.sets = checker.integer(node, key: "sets", in: PlanLimits.sets) ?? 1
    }
    if let node = mapping["set_rest"] {
      parameters.setRest =
        checker.duration(node, key: "set_rest", in: PlanLimits.restLength) ?? parameters.setRest
    }
    if let node = mapping["start"],
      let text = checker.choice(node, key: "start", among: ["eccentric", "concentric"])
    {
      parameters.startPhase = TempoParameters.StartPhase(rawValue: text)!
    }
    if let node = mapping["unilateral"] {
      parameters.unilateral = checker.boolean(node, key: "unilateral") ?? false
    }
    if let node = mapping["switch_pause"] {
      parameters.switchPause =
        checker.duration(node, key: "switch_pause", in: PlanLimits.switchPause)
        ?? parameters.switchPause
    }
    if let node = mapping["reverse"] {
      parameters.reverseDirection = checker.boolean(node, key: "reverse") ?? false
    }
    return parameters
  }

  // MARK: Sequences

  /// The steps of a sequence or of a step; nil after reporting a problem.
  mutating func readSteps(_ node: ConfigNode, _ context: PresetContext, depth: Int)
    -> [SequenceStep]?
  {
    guard
      let items = checker.list(node, key: "steps", example: "[{name: row, duration: 1m}]")
    else { return nil }
    if depth > PlanLimits.sequenceDepth {
      checker.error(
        "steps nest deeper than \(PlanLimits.sequenceDepth) levels \(context.inPreset)",
        at: node.range, hint: "flatten the sequence")
      return nil
    }
    var steps: [SequenceStep] = []
    var failed = false
    for item in items {
      if let step = readStep(item, context, depth: depth) {
        steps.append(step)
      } else {
        failed = true
      }
    }
    return failed ? nil : steps
  }

  mutating func readStep(_ node: ConfigNode, _ context: PresetContext, depth: Int)
    -> SequenceStep?
  {
    guard case .mapping(let mapping) = node else {
      checker.error(
        "expected a step such as '{name: row, duration: 1m}', found \(SchemaChecker.found(node))",
        at: node.range, hint: "a step is a mapping with at least a 'name'")
      return nil
    }
    let errorsBefore = checker.bag.errorCount
    var step = SequenceStep(name: "")
    let name = mapping["name"].flatMap {
      checker.text($0, key: "name", maximumLength: TextLimits.label)
    }
    let stepContext = name.map { "in step '\($0)' of preset '\(context.name)'" } ?? context.inPreset
    checker.checkKeys(mapping, allowed: PresetKeys.step, context: stepContext)
    if let name {
      step.name = name
    } else if mapping["name"] == nil, !mapping.isIncomplete {
      checker.error(
        "missing key 'name' in a step of preset '\(context.name)'", at: node.range,
        hint: "every step needs a name to show, as in '{name: row, duration: 1m}'")
    }
    if let kindNode = mapping["kind"],
      let kind = checker.choice(kindNode, key: "kind", among: ["work", "rest"])
    {
      step.kind = SequenceStep.Kind(rawValue: kind)!
    }
    if let durationNode = mapping["duration"] {
      // A loop's duration is a workout's length (an AMRAP of its steps); a step's, a station's.
      let loops = mapping["loop"]?.scalarText == "true"
      step.duration = checker.duration(
        durationNode, key: "duration", in: PlanLimits.segmentLength,
        of: loops ? .workoutLength : .segment)
    }
    if let repeatNode = mapping["repeat"] {
      step.repetitions = checker.integer(repeatNode, key: "repeat", in: PlanLimits.rounds) ?? 1
    }
    if let stepsNode = mapping["steps"] {
      step.steps = readSteps(stepsNode, context, depth: depth + 1) ?? []
    }
    if let loopNode = mapping["loop"] {
      step.loop = checker.boolean(loopNode, key: "loop") ?? false
    }
    if let skippableNode = mapping["skippable"] {
      step.skippable = checker.boolean(skippableNode, key: "skippable") ?? true
    }
    if let repsNode = mapping["reps"] {
      step.reps = checker.integer(repsNode, key: "reps", in: 0...9999)
    }
    return checker.bag.errorCount == errorsBefore ? step : nil
  }

  // MARK: Plan errors

  /// Reports a WorkoutCore plan error at the node its key path names (or the nearest one that
  /// exists, when the key is absent). Advice after "; " in WorkoutCore's message becomes the
  /// hint, so the message itself stays a statement of what is wrong.
  mutating func report(_ problem: PlanError, in context: PresetContext) {
    var node: ConfigNode = .mapping(context.mapping)
    var range = context.nameKey.range
    var lastKey = problem.parameter
    var stepName: String?
    var endsAtStep = false
    for component in problem.parameter.split(separator: ".") {
      var key = Substring(component)
      var index: Int?
      if let open = component.firstIndex(of: "["), component.last == "]" {
        key = component[..<open]
        index = Int(
          component[component.index(after: open)..<component.index(before: component.endIndex)])
      }
      lastKey = String(key)
      endsAtStep = false
      guard let child = node[String(key)] else { break }
      node = child
      range = child.range
      if let index {
        guard let item = child[index] else { break }
        node = item
        range = item.range
        stepName = item["name"]?.scalarText
        endsAtStep = true
      }
    }
    var subject = "'\(lastKey)'"
    if problem.parameter.isEmpty {
      // A problem of the whole plan (its length), reported at the preset's name.
      subject = "preset '\(context.name)'"
    } else if endsAtStep {
      subject = stepName.map { "step '\($0)'" } ?? "this step"
    } else if let stepName, lastKey != "steps" {
      subject += " of step '\(stepName)'"
    }
    var message = problem.message
    var hint: String?
    if let separator = message.indices.first(where: { message[$0...].hasPrefix("; ") }) {
      hint = String(message[message.index(separator, offsetBy: 2)...])
      message = String(message[..<separator])
    }
    checker.error("\(subject) \(message)", at: range, hint: hint)
  }
}
