// SPDX-License-Identifier: MIT
// Reads wodclock.yaml's text into a `WodclockConfiguration`. Pure: it takes the text and returns
// values, so `--check-config`, reload and the tests all run exactly the same checks.

public import ConfigFormat
import DisplayKit
import WorkoutCore
import WorkoutNotation

/// The outcome of loading a configuration file.
public struct ConfigurationLoadResult: Sendable {
  /// The configuration, or nil when there is at least one error.
  public var configuration: WodclockConfiguration?
  /// Every error and warning, sorted by position. Warnings do not stop the configuration from
  /// loading.
  public var diagnostics: [Diagnostic]

  /// Creates a result.
  public init(configuration: WodclockConfiguration?, diagnostics: [Diagnostic]) {
    self.configuration = configuration
    self.diagnostics = diagnostics
  }

  /// The text of each file the configuration includes (the workouts file), by path, so that
  /// its diagnostics can quote their lines.
  public var includedSources: [String: String] = [:]

  /// The diagnostics of severity error.
  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

  /// The diagnostics of severity warning.
  public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

/// Reads and checks a configuration file's text against the wodclock schema.
public enum ConfigurationLoader {
  /// The top-level sections, in the order `--print-config` writes them.
  public static let sections = [
    "clock", "defaults", "daemon", "language", "words", "tokens", "controls", "workouts",
    "presets", "schedule", "heats", "web", "media", "mqtt", "inputs", "outputs",
  ]

  /// Parses and validates `text`, naming `file` in every diagnostic. Every problem of the file is
  /// reported in one run; `configuration` is nil when any of them is an error.
  ///
  /// - Parameter plugins: the schemas of every plugin kind `inputs` and `outputs` may use.
  public static func load(text: String, file: String, plugins: [PluginSchema])
    -> ConfigurationLoadResult
  {
    load(bytes: Array(text.utf8), file: file, plugins: plugins)
  }

  /// Parses and validates the raw bytes of a file, so bytes that are not UTF-8 are reported
  /// where they stand. A syntax error does not hide the rest: what could be read is checked
  /// against the schema too, except for what the broken lines may have held (a key that seems
  /// missing next to a syntax error is not reported).
  ///
  /// - Parameters:
  ///   - plugins: the schemas of every plugin kind `inputs` and `outputs` may use.
  ///   - system: answers questions about the machine the file is for (does a group exist?);
  ///     nil checks the file alone.
  ///   - readFile: reads the files the configuration includes (the workouts file `workouts:`
  ///     names), which it is made of, whether `system` is given or not; nil (and no
  ///     `system.readFile`) leaves them unread, and their workouts unknown.
  public static func load(
    bytes: [UInt8], file: String, plugins: [PluginSchema], system: SystemLookup? = nil,
    readFile: SystemLookup.FileReader? = nil
  ) -> ConfigurationLoadResult {
    let parsed = YAMLSubsetParser.parseRecovering(bytes: bytes, file: file)
    var loader = Loader(
      file: file, plugins: plugins, hasSyntaxErrors: !parsed.diagnostics.isEmpty, system: system)
    loader.readFile = readFile ?? system?.readFile
    let configuration = loader.load(parsed.document.root)
    let diagnostics =
      ParseDiagnostics.reworded(parsed.diagnostics, root: parsed.document.root)
      + loader.checker.bag.sorted
    let hasErrors = diagnostics.contains { $0.severity == .error }
    var result = ConfigurationLoadResult(
      configuration: hasErrors ? nil : configuration,
      diagnostics: Diagnostic.sortedByLocation(diagnostics))
    result.includedSources = loader.includedSources
    return result
  }
}

/// What the loader may ask about the machine a configuration is for. The shell that runs the
/// check answers (the loader itself reads nothing), and a test can answer for it.
public struct SystemLookup: Sendable {
  /// What a group lookup found.
  public enum GroupStatus: Sendable, Equatable {
    /// The group exists.
    case found
    /// The group database answered: there is no such group.
    case notFound
    /// The lookup itself failed (for example a directory service that did not answer); the
    /// reason says why, and the group may still exist.
    case unknown(reason: String)
  }

  /// What reading a file found.
  public enum FileRead: Sendable, Equatable {
    /// The file's bytes, and its permission bits (of the file a symbolic link leads to).
    case read(bytes: [UInt8], permissions: UInt32)
    /// The file has more bytes than were allowed.
    case tooLarge
    /// The file cannot be read: the system's words and the errno name (`ENOENT`, `EACCES`).
    case failed(reason: String, errnoName: String)
  }

  /// Looks up a group by name.
  public var group: @Sendable (String) -> GroupStatus
  /// Reads a file, at most the given number of bytes.
  public typealias FileReader = @Sendable (_ path: String, _ maximumCount: Int) -> FileRead

  /// Reads a file the configuration names (the broker's password and CA files), at most the
  /// given number of bytes; nil leaves such files unread.
  public var readFile: FileReader?
  /// Looks at a directory the configuration names (the media directory); nil leaves it unseen.
  public var directory: (@Sendable (_ path: String) -> DirectoryRead)?

  /// Creates a lookup.
  public init(
    group: @escaping @Sendable (String) -> GroupStatus,
    readFile: (@Sendable (_ path: String, _ maximumCount: Int) -> FileRead)? = nil,
    directory: (@Sendable (_ path: String) -> DirectoryRead)? = nil
  ) {
    self.group = group
    self.readFile = readFile
    self.directory = directory
  }
}

/// The state of one load: the diagnostics so far and what later sections refer to.
struct Loader {
  var checker = SchemaChecker()
  let file: String
  let plugins: [PluginSchema]
  /// The parser reported errors, so the tree may lack what the broken lines held: whatever
  /// seems to be missing at the top level is not reported.
  let hasSyntaxErrors: Bool
  let system: SystemLookup?
  /// Preset names in file order, known before any section that refers to them is read.
  var presetNames: [String] = []
  var presetNameSet: Set<String> = []
  /// A syntax error may have hidden a preset, so an unknown name is not an error.
  var presetNamesMayBeIncomplete = false
  /// The workouts known by name: the benchmark workouts and the gym's own (`workouts:`).
  var library = WorkoutLibrary.standard
  /// The media files the presets, classes and workouts name, each where it is first named:
  /// checked against the media directory once it is read.
  var mediaReferences: [(name: String, range: SourceRange)] = []
  /// Reads the files the configuration includes; nil leaves them unread.
  var readFile: SystemLookup.FileReader?
  /// The text of each included file read, by path.
  var includedSources: [String: String] = [:]
  /// Control names from `controls:` (or the standard ones), for the inputs that use them.
  var controlNames: [String] = []
  /// A syntax error may have hidden a control.
  var controlNamesMayBeIncomplete = false
  /// The merged palette, for plugin colour settings.
  var palette = DesignTokens.standard.palette

  init(file: String, plugins: [PluginSchema], hasSyntaxErrors: Bool, system: SystemLookup?) {
    self.file = file
    self.plugins = plugins
    self.hasSyntaxErrors = hasSyntaxErrors
    self.system = system
  }

  mutating func load(_ root: ConfigNode?) -> WodclockConfiguration? {
    let start = SourceLocation(file: file, line: 1, column: 1)
    guard let root, !root.isEmptyValue else {
      if !hasSyntaxErrors {
        checker.error(
          "the configuration is empty", at: SourceRange(at: start),
          hint: "add a 'presets' section with at least one workout")
      }
      return nil
    }
    guard let mapping = root.mapping else {
      checker.error(
        "expected a mapping of sections such as 'clock:' and 'presets:', found "
          + SchemaChecker.found(root), at: root.range,
        hint: "write each section name at the start of a line, followed by ':'")
      return nil
    }
    for entry in mapping.entries where !ConfigurationLoader.sections.contains(entry.key.text) {
      checker.error(
        "unknown section '\(entry.key.text)'", at: entry.key.range,
        hint: SchemaChecker.suggestion(
          entry.key.text, among: ConfigurationLoader.sections, listing: "sections"))
    }

    collectPresetNames(mapping["presets"])
    let clock = readClock(mapping["clock"])
    let defaults = readDefaults(mapping["defaults"])
    let daemon = readDaemon(mapping["daemon"])
    let language = readLanguage(mapping["language"])
    let wordOverrides = readWords(mapping["words"])
    let tokens = readTokens(mapping["tokens"])
    let controls = readControls(mapping.entry(forKey: "controls"))
    let workoutsFile = readWorkouts(mapping["workouts"], defaults: defaults)
    let presets = readPresets(
      mapping.entry(forKey: "presets"), root: mapping, defaults: defaults, clock: clock.face)
    let schedule = readSchedule(mapping["schedule"])
    let heats = readHeats(mapping["heats"])
    let web = readWeb(mapping["web"])
    let media = readMedia(mapping["media"])
    checkMediaReferences(in: media, setting: mapping["media"])
    let mqtt = readMQTT(mapping["mqtt"])
    controlNames = controls.map(\.name)
    controlNamesMayBeIncomplete = mapping["controls"]?.isIncomplete ?? hasSyntaxErrors
    var instances = PluginInstances()
    let inputs = readPlugins(mapping["inputs"], direction: .input, into: &instances)
    let outputs = readPlugins(mapping["outputs"], direction: .output, into: &instances)

    var configuration = WodclockConfiguration(
      file: file, clock: clock, defaults: defaults, daemon: daemon, language: language,
      words: DisplayWords(language: language).with(overrides: wordOverrides),
      wordOverrides: wordOverrides, tokens: tokens, controls: controls, presets: presets,
      inputs: inputs, outputs: outputs, schedule: schedule, web: web,
      mqtt: mqtt, mediaDirectory: media)
    configuration.workouts = library
    configuration.heats = heats
    configuration.workoutsFile = workoutsFile
    return configuration
  }

  // MARK: clock

  static let clockKeys = ["format", "seconds", "idle"]

  mutating func readClock(_ node: ConfigNode?) -> ClockSettings {
    var settings = ClockSettings()
    guard let node, let mapping = checker.mapping(node, what: "'clock'") else { return settings }
    settings.face = readClockFace(mapping, base: settings.face)
    for entry in checker.checkKeys(mapping, allowed: Self.clockKeys, context: "in 'clock'")
    where entry.key.text == "idle" {
      let choices = ClockSettings.IdleScreen.allCases.map(\.rawValue)
      if let text = checker.choice(entry.value, key: "idle", among: choices) {
        settings.idle = ClockSettings.IdleScreen(rawValue: text)!
      }
    }
    return settings
  }

  /// `format` and `seconds` of the clock section, or of a clock preset over the section's face.
  mutating func readClockFace(_ mapping: ConfigMapping, base: ClockFace) -> ClockFace {
    var face = base
    if let node = mapping["format"],
      let text = checker.choice(node, key: "format", among: ["24h", "12h"])
    {
      face.twentyFourHour = text == "24h"
    }
    if let node = mapping["seconds"], let value = checker.boolean(node, key: "seconds") {
      face.showSeconds = value
    }
    return face
  }

  // MARK: defaults

  static let defaultsKeys = ["preset", "count_in", "stale_cues_after", "cues"]
  /// How long a stall may last before old cues are dropped rather than played in a burst.
  static let staleCuesRange = TimeSpan.zero...TimeSpan.hours(1)

  mutating func readDefaults(_ node: ConfigNode?) -> Defaults {
    var defaults = Defaults(preset: presetNames.first)
    guard let node, let mapping = checker.mapping(node, what: "'defaults'") else {
      return defaults
    }
    for entry in checker.checkKeys(mapping, allowed: Self.defaultsKeys, context: "in 'defaults'") {
      let value = entry.value
      switch entry.key.text {
      case "preset":
        if let name = checker.text(value, key: "preset"), checkPresetReference(name, at: value) {
          defaults.preset = name
        }
      case "count_in":
        if let span = checker.duration(value, key: "count_in", in: PlanLimits.countIn) {
          defaults.countIn = span
        }
      case "stale_cues_after":
        if let span = checker.duration(value, key: "stale_cues_after", in: Self.staleCuesRange) {
          defaults.staleCuesAfter = span
        }
      default:
        defaults.cues = readCues(value, base: defaults.cues, context: "'defaults.cues'")
      }
    }
    return defaults
  }

  static let cueKeys = [
    "countdown", "halfway", "last_ten_seconds", "segment_halfway", "segment_last_ten_seconds",
    "rounds_remaining",
  ]

  /// The cue switches of `defaults.cues` or a preset's `cues`, over `base`.
  mutating func readCues(_ node: ConfigNode, base: CueOptions, context: String) -> CueOptions {
    var cues = base
    guard let mapping = checker.mapping(node, what: context) else { return cues }
    for entry in checker.checkKeys(mapping, allowed: Self.cueKeys, context: "in \(context)") {
      let key = entry.key.text
      if key == "rounds_remaining" {
        if let rounds = readRoundsRemaining(entry.value) { cues.roundsRemaining = rounds }
        continue
      }
      guard let value = checker.boolean(entry.value, key: key) else { continue }
      switch key {
      case "countdown": cues.countdown = value
      case "halfway": cues.halfway = value
      case "last_ten_seconds": cues.lastTenSeconds = value
      case "segment_halfway": cues.segmentHalfway = value
      default: cues.segmentLastTenSeconds = value
      }
    }
    return cues
  }

  mutating func readRoundsRemaining(_ node: ConfigNode) -> [Int]? {
    guard
      let items = checker.list(node, key: "rounds_remaining", example: "[10, 5, 2]")
    else { return nil }
    var rounds: [Int] = []
    var failed = false
    for item in items {
      guard let value = checker.integer(item, key: "rounds_remaining", in: PlanLimits.rounds)
      else {
        failed = true
        continue
      }
      if rounds.contains(value) {
        checker.warning(
          "'rounds_remaining' lists \(value) twice", at: item.range,
          hint: "each number is announced once; remove the repeat")
      }
      rounds.append(value)
    }
    return failed ? nil : rounds
  }

  /// True when `name` is a preset of the file; otherwise reports it at `node` (unless a syntax
  /// error may have hidden the preset).
  mutating func checkPresetReference(_ name: String, at node: ConfigNode) -> Bool {
    if presetNameSet.contains(name) { return true }
    if presetNamesMayBeIncomplete { return false }
    checker.error(
      "unknown preset '\(name)'", at: node.range,
      hint: presetNames.isEmpty
        ? "define it under 'presets'"
        : SchemaChecker.suggestion(name, among: presetNames, listing: "presets"))
    return false
  }

  // MARK: daemon

  static let daemonKeys = ["socket_group", "resume_within", "client_timeout"]
  static let resumeRange = TimeSpan.zero...TimeSpan.hours(24)
  static let clientTimeoutRange = TimeSpan.milliseconds(100)...TimeSpan.hours(1)

  mutating func readDaemon(_ node: ConfigNode?) -> DaemonSettings {
    var settings = DaemonSettings()
    guard let node, let mapping = checker.mapping(node, what: "'daemon'") else { return settings }
    for entry in checker.checkKeys(mapping, allowed: Self.daemonKeys, context: "in 'daemon'") {
      if entry.key.text == "socket_group" {
        if let group = checker.text(entry.value, key: "socket_group"),
          checkGroupName(group, at: entry.value), checkGroupExists(group, at: entry.value)
        {
          settings.socketGroup = group
        }
      } else if entry.key.text == "client_timeout" {
        if let span = checker.duration(
          entry.value, key: "client_timeout", in: Self.clientTimeoutRange)
        {
          settings.clientTimeout = span
        }
      } else if let span = checker.duration(
        entry.value, key: "resume_within", in: Self.resumeRange)
      {
        settings.resumeWithin = span
      }
    }
    return settings
  }

  /// A POSIX portable group name: the daemon passes it to getgrnam, which would simply not find a
  /// misspelt one at run time.
  mutating func checkGroupName(_ name: String, at node: ConfigNode) -> Bool {
    let characters = Array(name.unicodeScalars)
    let valid =
      characters.count <= 32
      && characters.enumerated().allSatisfy { index, character in
        switch character {
        case "a"..."z", "A"..."Z", "_": return true
        case "0"..."9", "-": return index > 0
        default: return false
        }
      }
    if !valid {
      checker.error(
        "'\(name)' is not a valid group name", at: node.range,
        hint: "use letters, digits, '_' and '-', starting with a letter, as in 'wodclock'")
    }
    return valid
  }

  /// The daemon gives the control socket to this group when it starts, and cannot start when
  /// the group does not exist: ask the system now, when there is one to ask.
  mutating func checkGroupExists(_ name: String, at node: ConfigNode) -> Bool {
    switch system?.group(name) ?? .found {
    case .found:
      return true
    case .notFound:
      checker.error(
        "no group named '\(name)' on this system", at: node.range,
        hint: "create it ('groupadd --system \(name)') or name an existing group; the daemon "
          + "gives the control socket to this group and cannot start without it")
      return false
    case .unknown(let reason):
      checker.warning(
        "cannot check that group '\(name)' exists: \(reason)", at: node.range,
        hint: "the daemon will not start if the group does not exist when it does")
      return true
    }
  }
}

/// Rewording of parser diagnostics where the schema knows better what the user meant.
enum ParseDiagnostics {
  /// The parser reports a repeated preset name as a generic duplicate key; under `presets:` it
  /// is a duplicate preset, and the message says so. The parser keeps both entries in the tree,
  /// so the keys of the top-level `presets` mapping tell which duplicates are presets.
  static func reworded(_ diagnostics: [Diagnostic], root: ConfigNode?) -> [Diagnostic] {
    guard let presets = root?["presets"]?.mapping,
      diagnostics.contains(where: { $0.message.hasPrefix("duplicate key '") })
    else { return diagnostics }
    let presetKeys = Set(presets.entries.map(\.key.location))
    return diagnostics.map { diagnostic in
      guard diagnostic.message.hasPrefix("duplicate key '"),
        diagnostic.message.hasSuffix("' in mapping"), presetKeys.contains(diagnostic.location)
      else { return diagnostic }
      let name = diagnostic.message.dropFirst("duplicate key '".count).dropLast(
        "' in mapping".count)
      var copy = diagnostic
      copy.message = "duplicate preset '\(name)'"
      copy.hint = "preset names must be unique; rename or remove one of them"
      copy.notes = diagnostic.notes.map { note in
        var note = note
        note.message = "preset '\(name)' first defined here"
        return note
      }
      return copy
    }
  }
}
