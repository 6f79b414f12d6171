// SPDX-License-Identifier: MIT
// The gym's own named workouts: `workouts: workouts.yaml` names a file beside the config, in the
// same YAML, mapping each name to its workout as written, alone or with its whiteboard:
//
//   filthy fifty:
//     - "for time cap 30"
//     - "50 box jumps 24/20 in"
//     - "50 jumping pull-ups"
//   open gym: "amrap 60"
//
// Its names join the benchmark workouts' (a name of the gym's replaces the benchmark of that
// name); its problems are reported in it, at their line and column.

import ConfigFormat
import WorkoutCore
import WorkoutNotation

/// The bounds of the workouts file.
public enum WorkoutFileLimits {
  /// The most bytes it may have.
  public static let bytes = 256 * 1024
  /// The most workouts it may hold.
  public static let workouts = 500
}

extension Loader {
  /// Reads `workouts:` and the file it names; the library then holds its workouts.
  mutating func readWorkouts(_ node: ConfigNode?, defaults: Defaults) -> ConfigFileReference? {
    guard let node, let setting = checker.text(node, key: "workouts") else { return nil }
    let reference = ConfigFileReference(
      setting: setting, path: ConfigFilePath.resolve(setting, besideConfig: file))
    guard let readFile else { return reference }
    switch readFile(reference.path, WorkoutFileLimits.bytes) {
    case .failed(let reason, let errnoName):
      checker.error(
        "cannot read the workouts file '\(reference.path)': \(reason) (\(errnoName))",
        at: node.range,
        hint: Self.unreadableHint(reference, errnoName: errnoName, what: "the workouts file"))
    case .tooLarge:
      checker.error(
        "the workouts file '\(reference.path)' is longer than \(WorkoutFileLimits.bytes >> 10) KB",
        at: node.range, hint: "check that the path names the file of the gym's workouts")
    case .read(let bytes, _):
      includedSources[reference.path] = String(decoding: bytes, as: UTF8.self)
      let own = readWorkoutsFile(bytes, path: reference.path, defaults: defaults)
      library = WorkoutLibrary.standard.adding(own)
    }
    return reference
  }

  /// The workouts of the file's text.
  mutating func readWorkoutsFile(_ bytes: [UInt8], path: String, defaults: Defaults)
    -> [NamedWorkout]
  {
    let parsed = YAMLSubsetParser.parseRecovering(bytes: bytes, file: path)
    for diagnostic in parsed.diagnostics { checker.bag.append(diagnostic) }
    let example = "filthy fifty: [\"for time cap 30\", 50 box jumps 24/20 in]"
    guard let root = parsed.document.root, !root.isEmptyValue else { return [] }
    guard
      let mapping = checker.mapping(
        root, what: "the workouts file",
        hint: "write each workout's name, ':' and the workout, as in '\(example)'")
    else { return [] }
    if mapping.entries.count > WorkoutFileLimits.workouts {
      checker.error(
        "the workouts file holds \(mapping.entries.count) workouts, more than the "
          + "\(WorkoutFileLimits.workouts) allowed", at: mapping.range)
      return []
    }
    var own: [NamedWorkout] = []
    var seen: [(name: String, range: SourceRange)] = []
    for entry in mapping.entries {
      let name = entry.key.text
      guard checkWorkoutName(entry.key) else { continue }
      if let first = seen.first(where: { WorkoutLibrary.sameName($0.name, name) }) {
        checker.error(
          "two workouts named '\(name)'", at: entry.key.range,
          hint: "names are the same whatever their case and their '-', '_' or spaces",
          notes: [.note("'\(first.name)' is here", at: first.range)])
        continue
      }
      seen.append((name, entry.key.range))
      guard
        let (text, plan) = readWrittenWorkout(
          entry.value, key: name, defaultCountIn: defaults.countIn)
      else { continue }
      own.append(NamedWorkout(name, kind: .gym, plan.notation ?? text))
    }
    return own
  }

  /// A workout's name: printable text of at most ``WorkoutLibrary/maximumNameLength``
  /// characters that is not itself a workout in the notation (`tabata` would be ambiguous).
  mutating func checkWorkoutName(_ key: Scalar) -> Bool {
    let name = key.text
    guard checker.checkPrintable(key, what: "the workout name '\(name)'") else { return false }
    let words = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" })
    if words.isEmpty || name.unicodeScalars.count > WorkoutLibrary.maximumNameLength {
      checker.error(
        "a workout's name has 1 to \(WorkoutLibrary.maximumNameLength) characters",
        at: key.range, hint: "name it as the whiteboard does, as 'filthy fifty'")
      return false
    }
    if case .success = WorkoutNotation.parse(name, library: .empty) {
      checker.error(
        "'\(name)' is a workout in the notation already, so it cannot be a name",
        at: key.range, hint: "name the workout otherwise, as 'our \(name)'")
      return false
    }
    return true
  }
}

/// What a config file says about workouts by name, for `wodclockctl explain`: the library with
/// the gym's own workouts, the names of the presets and the count-in a workout gets.
public struct ConfiguredWorkouts: Sendable {
  public var library: WorkoutLibrary
  public var presetNames: [String]
  public var countIn: TimeSpan
  /// The errors of the parts read (the file's syntax, `defaults`, `workouts` and its file).
  public var diagnostics: [Diagnostic]

  public init(
    library: WorkoutLibrary, presetNames: [String], countIn: TimeSpan, diagnostics: [Diagnostic]
  ) {
    self.library = library
    self.presetNames = presetNames
    self.countIn = countIn
    self.diagnostics = diagnostics
  }
}

extension ConfigurationLoader {
  /// Reads only what names workouts in a config file's bytes: its `defaults`, its presets'
  /// names and the workouts file (read with `readFile`), without the plugins' schemas.
  public static func workouts(
    bytes: [UInt8], file: String, readFile: SystemLookup.FileReader?
  ) -> ConfiguredWorkouts {
    let parsed = YAMLSubsetParser.parseRecovering(bytes: bytes, file: file)
    var loader = Loader(
      file: file, plugins: [], hasSyntaxErrors: !parsed.diagnostics.isEmpty, system: nil)
    loader.readFile = readFile
    let root = parsed.document.root?.mapping
    loader.collectPresetNames(root?["presets"])
    let defaults = loader.readDefaults(root?["defaults"])
    _ = loader.readWorkouts(root?["workouts"], defaults: defaults)
    return ConfiguredWorkouts(
      library: loader.library, presetNames: loader.presetNames, countIn: defaults.countIn,
      diagnostics: parsed.diagnostics + loader.checker.bag.sorted.filter { $0.severity == .error })
  }
}
