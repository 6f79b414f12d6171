// SPDX-License-Identifier: MIT
// The validated configuration: what the daemon runs on. Built only by `ConfigurationLoader`.

public import ConfigFormat
public import DisplayKit
public import WorkoutCore

/// Everything in `wodclock.yaml`, validated, with every default filled in.
public struct WodclockConfiguration: Sendable, Equatable {
  /// The file it was read from, as given.
  public var file: String
  public var clock: ClockSettings
  public var defaults: Defaults
  public var daemon: DaemonSettings
  public var language: Language
  /// The display words of `language` with the file's overrides applied.
  public var words: DisplayWords
  /// Only the words the file overrides (so `--print-config` can write them back).
  public var wordOverrides: [WordKey: String]
  public var tokens: DesignTokens
  /// Control names in file order, each with what its gestures do.
  public var controls: [ControlBinding]
  /// Presets in file order (the keys 1–9 load the first nine).
  public var presets: [Preset]
  public var inputs: [PluginInstance]
  public var outputs: [PluginInstance]

  /// The preset named `name`.
  public func preset(named name: String) -> Preset? { presets.first { $0.name == name } }

  /// The control named `name`.
  public func control(named name: String) -> ControlBinding? { controls.first { $0.name == name } }
}

/// The time-of-day display.
public struct ClockSettings: Sendable, Equatable {
  public enum IdleScreen: String, Sendable, Equatable, CaseIterable {
    /// The time of day.
    case clock
    /// The loaded preset, ready to start.
    case preset
  }
  public var face: ClockFace
  public var idle: IdleScreen
  public init(face: ClockFace = ClockFace(), idle: IdleScreen = .clock) {
    self.face = face
    self.idle = idle
  }
}

/// What every preset starts from.
public struct Defaults: Sendable, Equatable {
  /// The preset loaded at start-up; nil means the first preset.
  public var preset: String?
  public var countIn: TimeSpan
  public var staleCuesAfter: TimeSpan
  public var cues: CueOptions
  public init(
    preset: String? = nil, countIn: TimeSpan = .seconds(10), staleCuesAfter: TimeSpan = .seconds(10),
    cues: CueOptions = CueOptions()
  ) {
    self.preset = preset
    self.countIn = countIn
    self.staleCuesAfter = staleCuesAfter
    self.cues = cues
  }
}

/// Settings of the daemon process itself.
public struct DaemonSettings: Sendable, Equatable {
  /// Group that owns the control socket (mode 0660); nil keeps the daemon's own group.
  public var socketGroup: String?
  /// After a reboot, a running workout resumes by wall-clock time when the gap is shorter than
  /// this; otherwise it is restored paused at the time it had reached.
  public var resumeWithin: TimeSpan
  public init(socketGroup: String? = nil, resumeWithin: TimeSpan = .minutes(10)) {
    self.socketGroup = socketGroup
    self.resumeWithin = resumeWithin
  }
}

/// A named workout.
public struct Preset: Sendable, Equatable {
  public var name: String
  public var plan: WorkoutPlan
  /// Where the preset's name stands in the file.
  public var location: SourceLocation
  public init(name: String, plan: WorkoutPlan, location: SourceLocation) {
    self.name = name
    self.plan = plan
    self.location = location
  }
}

/// A physical gesture on a control.
public enum Gesture: String, Sendable, Equatable, Hashable, CaseIterable {
  case press
  case longPress = "long_press"
}

/// What a gesture does.
public enum ControlAction: Sendable, Equatable, Hashable, CustomStringConvertible {
  case engine(WorkoutAction)
  /// Load the named preset.
  case load(preset: String)

  public var description: String {
    switch self {
    case .engine(let action): action.rawValue
    case .load(let preset): "load \(preset)"
    }
  }
}

/// A control name ("start", "next") and what its gestures do. Inputs (buttons, remote keys)
/// name a control; this mapping is shared by all of them.
public struct ControlBinding: Sendable, Equatable {
  public var name: String
  public var actions: [Gesture: ControlAction]
  public init(name: String, actions: [Gesture: ControlAction]) {
    self.name = name
    self.actions = actions
  }
}

/// One entry of `inputs:` or `outputs:`: a plugin kind, its id and its validated settings.
public struct PluginInstance: Sendable, Equatable {
  public var kind: String
  /// The user's `id`, or `<kind>` / `<kind>-2` ... when none is given.
  public var id: String
  public var settings: PluginSettings
  /// Where the entry starts in the file.
  public var location: SourceLocation
  public init(kind: String, id: String, settings: PluginSettings, location: SourceLocation) {
    self.kind = kind
    self.id = id
    self.settings = settings
    self.location = location
  }
}
