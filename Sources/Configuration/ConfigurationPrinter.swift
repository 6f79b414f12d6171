// SPDX-License-Identifier: MIT
// `wodclockd --print-config`: the effective configuration, every default filled in, written as a
// config file of the same shape as wodclock.yaml. Loading the output gives the same
// configuration back, and printing that gives the same text.

import ConfigFormat
import DisplayKit
import WorkoutCore

/// Writes a configuration back as a wodclock config file.
public enum ConfigurationPrinter {
  /// The effective configuration as config text. Keys are written in the order of
  /// `Config/wodclock.yaml`; strings YAML could misread (colours, times, numbers, `true`) are
  /// quoted. Preset keys inherited from `defaults` (`count_in`, `cues`) are written only where a
  /// preset differs, and sequence steps leave out keys at their defaults, so the output stays
  /// readable; everything else is written out in full.
  ///
  /// - Parameter plugins: the plugin schemas, used to comment each plugin setting.
  public static func render(_ configuration: WodclockConfiguration, plugins: [PluginSchema])
    -> String
  {
    var writer = ConfigWriter()
    writer.line(0, "# wodclock configuration with every default filled in.")
    writer.line(0, "---")
    writer.clock(configuration.clock)
    writer.defaults(configuration.defaults)
    writer.daemon(configuration.daemon)
    writer.words(configuration)
    writer.tokens(configuration.tokens)
    writer.controls(configuration.controls)
    if let file = configuration.workoutsFile {
      writer.section("workouts", comment: "The gym's own workouts by name, in this file.")
      writer.key(0, "workouts", YAMLText.scalar(file.setting))
    }
    writer.presets(configuration)
    writer.schedule(configuration.schedule)
    writer.heats(configuration.heats)
    writer.web(configuration.web)
    writer.media(configuration.mediaDirectory)
    writer.mqtt(configuration.mqtt)
    writer.plugins("inputs", configuration.inputs, schemas: plugins)
    writer.plugins("outputs", configuration.outputs, schemas: plugins)
    return writer.text
  }
}

/// Quoting of scalars for output.
enum YAMLText {
  /// Words YAML 1.1 or 1.2 tools read as booleans or null.
  private static let reservedWords: Set<String> = [
    "true", "false", "null", "~", "yes", "no", "on", "off", "y", "n",
  ]

  /// `text` plain when every YAML reader takes it as the same string, double-quoted otherwise.
  static func scalar(_ text: String) -> String {
    needsQuotes(text) ? doubleQuoted(text) : text
  }

  static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else {
      return true
    }
    if first == " " || last == " " { return true }
    if "-?:,[]{}#&*!|>'\"%@`.+".unicodeScalars.contains(first) { return true }
    if reservedWords.contains(text.lowercased()) { return true }
    // Numbers, and anything with ':' (YAML 1.1 reads 1:30 as a number) or '#'.
    if first.properties.numericType != nil || Int(text) != nil || Double(text) != nil {
      return true
    }
    return text.unicodeScalars.contains { character in
      switch character {
      case ":", "#", ",", "[", "]", "{", "}", "\"", "'", "\\": return true
      default: return character.value < 0x20 || character.value == 0x7F || character.value > 0x7E
      }
    }
  }

  static func doubleQuoted(_ text: String) -> String {
    var output = "\""
    for character in text.unicodeScalars {
      switch character {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\t": output += "\\t"
      case "\r": output += "\\r"
      default:
        let value = character.value
        if value < 0x20 || value == 0x7F || value == 0x85 || value == 0x2028 || value == 0x2029
          || value == 0xFEFF
        {
          let digits = String(value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          output.unicodeScalars.append(character)
        }
      }
    }
    return output + "\""
  }

  /// `[a, b, c]`.
  static func flowList(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
}

/// Builds the text, two spaces per level.
struct ConfigWriter {
  var text = ""

  mutating func line(_ level: Int, _ content: String) {
    text += String(repeating: "  ", count: level) + content + "\n"
  }

  mutating func key(_ level: Int, _ key: String, _ value: String, comment: String? = nil) {
    var content = YAMLText.scalar(key) + ":" + (value.isEmpty ? "" : " " + value)
    if let comment { content += "  # " + comment }
    line(level, content)
  }

  mutating func section(_ name: String, comment: String) {
    text += "\n"
    line(0, "# " + comment)
  }

  static func bool(_ value: Bool) -> String { value ? "true" : "false" }
  static func duration(_ span: TimeSpan) -> String { DurationText.format(span) }

  // MARK: Sections

  mutating func clock(_ clock: ClockSettings) {
    section("clock", comment: "The time-of-day display, shown when no workout runs.")
    key(0, "clock", "")
    clockFace(1, clock.face)
    key(1, "idle", clock.idle.rawValue, comment: "clock or preset")
  }

  mutating func clockFace(_ level: Int, _ face: ClockFace) {
    key(level, "format", face.twentyFourHour ? "24h" : "12h")
    key(level, "seconds", Self.bool(face.showSeconds))
  }

  mutating func defaults(_ defaults: Defaults) {
    section("defaults", comment: "Settings every preset starts from.")
    key(0, "defaults", "")
    if let preset = defaults.preset { key(1, "preset", YAMLText.scalar(preset)) }
    key(1, "count_in", Self.duration(defaults.countIn))
    key(1, "stale_cues_after", Self.duration(defaults.staleCuesAfter))
    key(1, "cues", "")
    cues(2, defaults.cues, differingFrom: nil)
  }

  /// The cue switches, or only those differing from `base`.
  mutating func cues(_ level: Int, _ cues: CueOptions, differingFrom base: CueOptions?) {
    let switches: [(String, Bool, Bool?)] = [
      ("countdown", cues.countdown, base?.countdown),
      ("halfway", cues.halfway, base?.halfway),
      ("last_ten_seconds", cues.lastTenSeconds, base?.lastTenSeconds),
      ("segment_halfway", cues.segmentHalfway, base?.segmentHalfway),
      ("segment_last_ten_seconds", cues.segmentLastTenSeconds, base?.segmentLastTenSeconds),
    ]
    for (name, value, baseValue) in switches where value != baseValue {
      key(level, name, Self.bool(value))
    }
    if cues.roundsRemaining != base?.roundsRemaining {
      key(level, "rounds_remaining", YAMLText.flowList(cues.roundsRemaining.map(String.init)))
    }
  }

  mutating func daemon(_ daemon: DaemonSettings) {
    section("daemon", comment: "The daemon itself.")
    key(0, "daemon", "")
    if let group = daemon.socketGroup {
      key(1, "socket_group", YAMLText.scalar(group))
    } else {
      line(1, "# socket_group is not set: the socket keeps the daemon's own group")
    }
    key(1, "resume_within", Self.duration(daemon.resumeWithin))
    key(1, "client_timeout", Self.duration(daemon.clientTimeout))
  }

  mutating func words(_ configuration: WodclockConfiguration) {
    section("language", comment: "What the displays say: en, da, es, nl, fr or de.")
    key(0, "language", configuration.language.code)
    let overridden = WordKey.allCases.filter { configuration.wordOverrides[$0] != nil }
    key(0, "words", overridden.isEmpty ? "{}" : "")
    for word in WordKey.allCases {
      if let override = configuration.wordOverrides[word] {
        key(1, word.rawValue, YAMLText.scalar(override))
      } else {
        line(1, "# \(word.rawValue): \(configuration.words[word])")
      }
    }
  }

  mutating func tokens(_ tokens: DesignTokens) {
    section("tokens", comment: "Design tokens: colours, brightness and blink rates.")
    key(0, "tokens", "")
    key(1, "palette", tokens.palette.names.isEmpty ? "{}" : "")
    for name in tokens.palette.names {
      if let color = tokens.palette[name] { key(2, name, YAMLText.doubleQuoted(color.hex)) }
    }
    let roles = Role.allCases.filter { tokens.roles[$0] != nil }
    key(1, "roles", roles.isEmpty ? "{}" : "")
    for role in roles {
      switch tokens.roles[role] {
      case .palette(let name)?: key(2, role.rawValue, YAMLText.scalar(name))
      case .literal(let color)?: key(2, role.rawValue, YAMLText.doubleQuoted(color.hex))
      case nil: break
      }
    }
    let brightness = tokens.brightness
    key(1, "brightness", "")
    key(2, "day", "\(brightness.dayPercent)%")
    key(2, "night", "\(brightness.nightPercent)%")
    key(2, "night_from", YAMLText.doubleQuoted(Self.time(brightness.nightStart)))
    key(2, "night_until", YAMLText.doubleQuoted(Self.time(brightness.nightEnd)))
    key(1, "blink", "")
    key(2, "colon", Self.milliseconds(tokens.blink.colonPeriodMilliseconds))
    key(2, "paused", Self.milliseconds(tokens.blink.pausePeriodMilliseconds))
    key(2, "flash", Self.milliseconds(tokens.blink.cueFlashMilliseconds))
  }

  static func time(_ time: DisplayKit.TimeOfDay) -> String {
    (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
  }

  static func milliseconds(_ value: Int) -> String { duration(.milliseconds(Int64(value))) }

  mutating func controls(_ controls: [ControlBinding]) {
    section("controls", comment: "What each button or remote key does.")
    key(0, "controls", controls.isEmpty ? "{}" : "")
    for control in controls {
      key(1, control.name, "")
      for gesture in Gesture.allCases {
        if let action = control.actions[gesture] {
          key(2, gesture.rawValue, YAMLText.scalar(action.description))
        }
      }
    }
  }

  // MARK: Schedule

  mutating func schedule(_ schedule: ClassSchedule) {
    section("schedule", comment: "Classes: the clock loads each one's workout 'lead' before it.")
    key(0, "schedule", "")
    key(1, "lead", Self.duration(schedule.lead))
    key(1, "classes", schedule.classes.isEmpty ? "[]" : "")
    for scheduled in schedule.classes {
      var members: [String] = []
      if !scheduled.days.isEmpty || scheduled.dates.isEmpty {
        members.append("days: " + ScheduleText.days(scheduled.days))
      }
      if !scheduled.dates.isEmpty { members.append("on: " + ScheduleText.dates(scheduled.dates)) }
      let lines = scheduled.workout.text.split(separator: "\n").map(String.init)
      members += [
        "at: " + YAMLText.doubleQuoted(ScheduleText.time(scheduled.time)),
        "name: " + YAMLText.scalar(scheduled.name),
        // With its whiteboard: the workout line first, then a line each.
        "workout: "
          + (lines.count > 1
            ? YAMLText.flowList(lines.map(YAMLText.doubleQuoted))
            : YAMLText.scalar(scheduled.workout.text)),
      ]
      line(2, "- {" + members.joined(separator: ", ") + "}")
    }
  }

  // MARK: Heats

  /// Written only when it differs from the defaults: a configuration without it prints as it
  /// always did.
  mutating func heats(_ heats: HeatsSettings) {
    guard heats != HeatsSettings() else { return }
    section("heats", comment: "Heats and lanes: numbered lanes, the call-up, how finishes show.")
    key(0, "heats", "")
    key(1, "lanes", String(heats.lanes))
    key(1, "transition", Self.duration(heats.transition))
    key(1, "time_format", heats.timeFormat.rawValue)
    key(1, "speak_finishes", heats.speakFinishes ? "true" : "false")
    key(1, "cap_rep_seconds", heats.capRepSeconds ? "true" : "false")
    if let totalReps = heats.totalReps { key(1, "total_reps", String(totalReps)) }
  }

  // MARK: Media

  /// Written only when set: a configuration without it prints as it always did.
  mutating func media(_ directory: ConfigFileReference?) {
    guard let directory else { return }
    section("media", comment: "The pictures and videos beside the clock, served at /media/NAME.")
    key(0, "media", YAMLText.scalar(directory.setting))
  }

  // MARK: Web

  mutating func web(_ web: WebSettings?) {
    section("web", comment: "The web interface: the display at /, the remote at /remote.")
    guard let web else {
      line(0, "# web is not set: no web server")
      return
    }
    key(0, "web", "")
    key(1, "listen", YAMLText.doubleQuoted(web.listen.description))
    if let pin = web.pin {
      key(1, "pin", YAMLText.doubleQuoted(pin))
    } else {
      line(1, "# pin is not set: the display only, no remote")
    }
    key(
      1, "hosts", "[" + web.hosts.map(YAMLText.scalar).joined(separator: ", ") + "]",
      comment: "besides its addresses, the host name, NAME.local and localhost")
    key(1, "connections", "\(web.connections)")
    key(1, "connections_per_address", "\(web.connectionsPerAddress)")
    key(1, "streams", "\(web.streams)")
    key(1, "streams_per_address", "\(web.streamsPerAddress)")
    key(1, "request_timeout", DurationText.format(web.requestTimeout))
  }

  // MARK: MQTT

  mutating func mqtt(_ mqtt: MQTTSettings?) {
    section("mqtt", comment: "The link to the other clocks of the room and to Home Assistant.")
    guard let mqtt else {
      line(0, "# mqtt is not set: no broker, this clock alone")
      return
    }
    key(0, "mqtt", "")
    key(1, "broker", YAMLText.doubleQuoted(mqtt.broker.description))
    switch mqtt.tls {
    case nil: key(1, "tls", "false")
    case .systemCertificates?:
      key(1, "tls", "true", comment: "the system's CAs in \(MQTTTLS.systemCertificateDirectory)")
    case .caFile(let file)?: key(1, "tls", "{ca_file: \(YAMLText.scalar(file.setting))}")
    }
    if let username = mqtt.username {
      key(1, "username", YAMLText.scalar(username))
    } else {
      line(1, "# username is not set: the broker is asked without one")
    }
    if let file = mqtt.passwordFile {
      key(1, "password_file", YAMLText.scalar(file.setting))
    }
    key(1, "room", YAMLText.scalar(mqtt.room))
    key(1, "role", mqtt.role.rawValue, comment: "leader or follower")
    key(
      1, "on_conflict", mqtt.onConflict.rawValue,
      comment: "follow or standalone, when another clock already leads the room")
    key(1, "lead", Self.duration(mqtt.lead))
    if let clientID = mqtt.clientID {
      key(1, "client_id", YAMLText.scalar(clientID))
    } else {
      line(1, "# client_id is not set: made from the host name")
    }
    key(1, "home_assistant", Self.bool(mqtt.homeAssistant))
    key(1, "discovery_prefix", YAMLText.scalar(mqtt.discoveryPrefix))
  }

  // MARK: Presets

  mutating func presets(_ configuration: WodclockConfiguration) {
    section("presets", comment: "Workouts, in the order the keys 1-9 load them.")
    key(0, "presets", "")
    for preset in configuration.presets {
      self.preset(preset, defaults: configuration.defaults)
    }
  }

  mutating func preset(_ preset: Preset, defaults: Defaults) {
    let plan = preset.plan
    if let notation = NotationPresets.printable(plan, defaults: defaults) {
      let lines = notation.split(separator: "\n").map(String.init)
      guard lines.count > 1 else {
        key(1, preset.name, YAMLText.doubleQuoted(notation))
        return
      }
      // With its whiteboard: the workout line first, then a line each.
      key(1, preset.name, "")
      for line in lines { self.line(2, "- " + YAMLText.doubleQuoted(line)) }
      return
    }
    key(1, preset.name, "")
    key(2, "mode", plan.mode.name.rawValue)
    if let label = plan.label { key(2, "label", YAMLText.scalar(label)) }
    if plan.countIn != defaults.countIn { key(2, "count_in", Self.duration(plan.countIn)) }
    if plan.cues != defaults.cues {
      key(2, "cues", "")
      cues(3, plan.cues, differingFrom: defaults.cues)
    }
    switch plan.mode {
    case .clock(let face):
      clockFace(2, face)
    case .forTime(let parameters):
      if let cap = parameters.cap { key(2, "cap", Self.duration(cap)) }
      if let scheme = parameters.repScheme {
        key(2, "reps", YAMLText.flowList(scheme.map { "\($0)" }))
      }
      // A rep scheme sets the rounds; written beside it only when they differ.
      if let rounds = parameters.rounds, rounds != parameters.repScheme?.count {
        key(2, "rounds", "\(rounds)")
      }
    case .amrap(let parameters):
      key(2, "time", Self.duration(parameters.time))
    case .emom(let parameters):
      key(2, "interval", Self.duration(parameters.interval))
      key(2, "rounds", "\(parameters.rounds)")
      key(2, "labels", Self.texts(parameters.labels))
      if let ladder = parameters.ladder {
        key(2, "ladder", "{start: \(ladder.start), step: \(ladder.step)}")
      }
    case .intervals(let parameters), .tabata(let parameters):
      key(2, "work", Self.duration(parameters.work))
      key(2, "rest", Self.duration(parameters.rest))
      key(2, "rounds", "\(parameters.rounds)")
      key(2, "sets", "\(parameters.sets)")
      key(2, "set_rest", Self.duration(parameters.setRest))
      key(2, "skip_last_rest", Self.bool(parameters.skipLastRest))
      key(2, "labels", Self.texts(parameters.labels))
    case .tempo(let parameters):
      key(2, "tempo", YAMLText.doubleQuoted(parameters.tempo.description))
      key(2, "reps", "\(parameters.reps)")
      key(2, "sets", "\(parameters.sets)")
      key(2, "set_rest", Self.duration(parameters.setRest))
      key(2, "start", parameters.startPhase.rawValue)
      key(2, "unilateral", Self.bool(parameters.unilateral))
      key(2, "switch_pause", Self.duration(parameters.switchPause))
      key(2, "reverse", Self.bool(parameters.reverseDirection))
    case .sequence(let parameters):
      key(2, "skip_last_rest", Self.bool(parameters.skipLastRest))
      key(2, "steps", "")
      steps(3, parameters.steps)
    }
    if let media = plan.media { key(2, "media", YAMLText.scalar(media)) }
    if !plan.whiteboard.isEmpty {
      key(2, "whiteboard", "")
      for item in plan.whiteboard {
        line(3, "- " + YAMLText.doubleQuoted(item.text + (item.media.map { " @" + $0 } ?? "")))
      }
    }
  }

  static func texts(_ texts: [String]) -> String { YAMLText.flowList(texts.map(YAMLText.scalar)) }

  /// Leaves on one flow line; steps with sub-steps as block mappings.
  mutating func steps(_ level: Int, _ steps: [SequenceStep]) {
    for step in steps {
      var pairs = [("name", YAMLText.scalar(step.name))]
      if step.kind != .work { pairs.append(("kind", step.kind.rawValue)) }
      if let duration = step.duration { pairs.append(("duration", Self.duration(duration))) }
      if step.repetitions != 1 { pairs.append(("repeat", "\(step.repetitions)")) }
      if step.loop { pairs.append(("loop", "true")) }
      if !step.skippable { pairs.append(("skippable", "false")) }
      if let reps = step.reps { pairs.append(("reps", "\(reps)")) }
      if step.steps.isEmpty {
        line(level, "- {" + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}")
        continue
      }
      for (index, pair) in pairs.enumerated() {
        line(level + (index == 0 ? 0 : 1), (index == 0 ? "- " : "") + "\(pair.0): \(pair.1)")
      }
      line(level + 1, "steps:")
      self.steps(level + 2, step.steps)
    }
  }

  // MARK: Plugins

  mutating func plugins(_ name: String, _ instances: [PluginInstance], schemas: [PluginSchema]) {
    section(
      name,
      comment: name == "inputs"
        ? "Where button presses and key strokes come from." : "Where the clock is shown and heard.")
    key(0, name, instances.isEmpty ? "[]" : "")
    for instance in instances {
      line(1, "- type: " + YAMLText.scalar(instance.kind))
      key(2, "id", YAMLText.scalar(instance.id))
      let specs = schemas.first { $0.kind == instance.kind }?.settings ?? []
      for setting in instance.settings.values {
        let summary = specs.first { $0.name == setting.key }?.summary
        key(2, setting.key, Self.value(setting.value), comment: summary)
      }
    }
  }

  static func value(_ value: SettingValue) -> String {
    switch value {
    case .boolean(let flag): return bool(flag)
    case .integer(let number): return "\(number)"
    case .duration(let span): return duration(span)
    case .percentage(let percent): return "\(percent)%"
    case .string(let text): return YAMLText.scalar(text)
    case .color(let color):
      return YAMLText.doubleQuoted(RGB(red: color.red, green: color.green, blue: color.blue).hex)
    case .list(let items): return YAMLText.flowList(items.map(Self.value))
    case .map(let entries):
      return "{"
        + entries.map { YAMLText.scalar($0.key) + ": " + Self.value($0.value) }.joined(
          separator: ", ") + "}"
    }
  }
}
