// SPDX-License-Identifier: MIT
// The validated configuration: what the daemon runs on. Built only by `ConfigurationLoader`.

public import ConfigFormat
public import DisplayKit
public import WorkoutCore

/// Everything in `wodclock.yaml`, validated, with every default filled in.
public struct WodclockConfiguration: Sendable, Equatable {
  /// The file it was read from, as given.
  public var file: String
  /// The time-of-day display (`clock:`).
  public var clock: ClockSettings
  /// What every preset starts from (`defaults:`); already merged into each preset's plan.
  public var defaults: Defaults
  /// Settings of the daemon process (`daemon:`).
  public var daemon: DaemonSettings
  /// The display language (`language:`).
  public var language: Language
  /// The display words of `language` with the file's overrides applied.
  public var words: DisplayWords
  /// Only the words the file overrides (so `--print-config` can write them back).
  public var wordOverrides: [WordKey: String]
  /// Every colour, brightness and blink rate (`tokens:`). The palette holds the file's colours
  /// and then the standard ones it does not redefine; every role has an entry.
  public var tokens: DesignTokens
  /// Control names in file order, each with what its gestures do.
  public var controls: [ControlBinding]
  /// Presets in file order (the keys 1–9 load the first nine).
  public var presets: [Preset]
  /// The `inputs:` entries in file order.
  public var inputs: [PluginInstance]
  /// The `outputs:` entries in file order.
  public var outputs: [PluginInstance]
  /// The class schedule (`schedule:`); no classes when the file has none.
  public var schedule: ClassSchedule = ClassSchedule()
  /// The web interface (`web:`); nil, and no listener, when the file has no such section.
  public var web: WebSettings? = nil

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
  /// 24-hour or 12-hour, with or without seconds; clock presets start from it.
  public var face: ClockFace
  /// What the display shows when no workout runs.
  public var idle: IdleScreen
  /// Creates the settings; the defaults are those of an absent `clock:` section.
  public init(face: ClockFace = ClockFace(), idle: IdleScreen = .clock) {
    self.face = face
    self.idle = idle
  }
}

/// What every preset starts from.
public struct Defaults: Sendable, Equatable {
  /// The preset loaded at start-up; nil means the first preset. The loader always fills it in
  /// (with the first preset's name when the file names none).
  public var preset: String?
  /// Get-ready time before the first interval, 0–99 s.
  public var countIn: TimeSpan
  /// Cues that the loop gets to later than this after they fell due (a stalled or suspended
  /// process, a restart) are dropped, not played in a burst; only those that announce the
  /// segment running now still sound.
  public var staleCuesAfter: TimeSpan
  /// Which cue events exist.
  public var cues: CueOptions
  /// Creates the defaults; the values are those of an absent `defaults:` section.
  public init(
    preset: String? = nil, countIn: TimeSpan = .seconds(10),
    staleCuesAfter: TimeSpan = .seconds(1),
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
  /// A control-socket client that sends no complete request for this long is disconnected
  /// (subscribers are exempt): a stuck script cannot hold one of the daemon's client slots.
  public var clientTimeout: TimeSpan
  /// Creates the settings; the values are those of an absent `daemon:` section.
  public init(
    socketGroup: String? = nil, resumeWithin: TimeSpan = .minutes(10),
    clientTimeout: TimeSpan = .seconds(10)
  ) {
    self.socketGroup = socketGroup
    self.resumeWithin = resumeWithin
    self.clientTimeout = clientTimeout
  }
}

/// The web interface: the display for any browser, and the remote behind a PIN.
public struct WebSettings: Sendable, Equatable {
  /// Where the HTTP server listens.
  public var listen: WebListenAddress
  /// The remote's PIN, 4–12 ASCII digits; nil serves the display only (no remote, no commands
  /// from the network).
  public var pin: String?

  /// Creates the settings; `listen` defaults to every IPv4 interface on port 8080.
  public init(listen: WebListenAddress = .standard, pin: String? = nil) {
    self.listen = listen
    self.pin = pin
  }
}

/// An address and port to listen on, as `listen:` writes it: an IPv4 literal
/// (`0.0.0.0:8080`), an IPv6 literal in brackets (`[::]:8080`), or `localhost`. No host name is
/// looked up: the daemon binds what the file says.
public struct WebListenAddress: Sendable, Equatable, CustomStringConvertible {
  public enum Host: Sendable, Equatable {
    /// Four bytes, in network order (`0.0.0.0` is every IPv4 interface).
    case ipv4([UInt8])
    /// Sixteen bytes, in network order (`::` is every interface, IPv4 ones too where the
    /// system maps them).
    case ipv6([UInt8])
    /// The loopback interface: 127.0.0.1.
    case localhost
  }

  public var host: Host
  /// 0–65535; 0 lets the system choose a free port (tests).
  public var port: UInt16
  /// The host as the file writes it: `0.0.0.0`, `[::]`, `localhost`.
  public var hostText: String

  public init(host: Host, port: UInt16, hostText: String) {
    self.host = host
    self.port = port
    self.hostText = hostText
  }

  /// `0.0.0.0:8080`: every IPv4 interface, port 8080.
  public static let standard = WebListenAddress(
    host: .ipv4([0, 0, 0, 0]), port: 8080, hostText: "0.0.0.0")

  /// The address's bytes in network order, 4 or 16 of them (`localhost` gives 127.0.0.1).
  public var addressBytes: [UInt8] {
    switch host {
    case .ipv4(let bytes), .ipv6(let bytes): bytes
    case .localhost: [127, 0, 0, 1]
    }
  }

  /// Whether the address is an IPv6 one.
  public var isIPv6: Bool {
    if case .ipv6 = host { return true }
    return false
  }

  /// `0.0.0.0:8080`, `[::]:8080`, `localhost:8080`: how the file writes it.
  public var description: String { "\(hostText):\(port)" }
}

/// A named workout.
public struct Preset: Sendable, Equatable {
  /// The key under `presets:`; letters, digits, `-` and `_`.
  public var name: String
  /// The workout, with the defaults' count-in and cues merged in: ready to run as it is.
  public var plan: WorkoutPlan
  /// Where the preset's name stands in the file.
  public var location: SourceLocation
  /// Creates a preset.
  public init(name: String, plan: WorkoutPlan, location: SourceLocation) {
    self.name = name
    self.plan = plan
    self.location = location
  }
}

/// A physical gesture on a control.
public enum Gesture: String, Sendable, Equatable, Hashable, CaseIterable {
  /// A short press.
  case press
  /// A press held past the input's long-press time.
  case longPress = "long_press"
}

/// What a gesture does.
public enum ControlAction: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// An action of the running workout (`toggle`, `next` ...).
  case engine(WorkoutAction)
  /// Load the named preset.
  case load(preset: String)
  /// Silence the buzzers and horns, or let them sound again (a toggle; lamps stay on).
  case mute

  /// The action as the config writes it: `toggle`, `load tabata`.
  public var description: String {
    switch self {
    case .engine(let action): action.rawValue
    case .load(let preset): "load \(preset)"
    case .mute: "mute"
    }
  }
}

/// A control name ("start", "next") and what its gestures do. Inputs (buttons, remote keys)
/// name a control; this mapping is shared by all of them.
public struct ControlBinding: Sendable, Equatable {
  /// The control's name, as inputs refer to it.
  public var name: String
  /// What each configured gesture does; a gesture left out does nothing.
  public var actions: [Gesture: ControlAction]
  /// Creates a binding.
  public init(name: String, actions: [Gesture: ControlAction]) {
    self.name = name
    self.actions = actions
  }
}

/// One entry of `inputs:` or `outputs:`: a plugin kind, its id and its validated settings.
public struct PluginInstance: Sendable, Equatable {
  /// The plugin kind, as written after `type:`.
  public var kind: String
  /// The user's `id`, or `<kind>` / `<kind>-2` ... when none is given.
  public var id: String
  /// The settings, every key of the kind's schema present.
  public var settings: PluginSettings
  /// Where the entry starts in the file.
  public var location: SourceLocation
  /// Creates an instance.
  public init(kind: String, id: String, settings: PluginSettings, location: SourceLocation) {
    self.kind = kind
    self.id = id
    self.settings = settings
    self.location = location
  }
}

/// The class schedule: on which weekdays, at what time of day, which workout is loaded for which
/// class (`schedule:`).
public struct ClassSchedule: Sendable, Equatable {
  /// How long before a class its workout is loaded.
  public var lead: TimeSpan
  /// The classes in file order.
  public var classes: [ScheduledClass]
  /// Creates a schedule; the defaults are those of an absent `schedule:` section.
  public init(lead: TimeSpan = .minutes(5), classes: [ScheduledClass] = []) {
    self.lead = lead
    self.classes = classes
  }
}

/// One class of the schedule: it starts at `time` on each of `days`.
public struct ScheduledClass: Sendable, Equatable {
  /// The days of the week it is held on, never empty.
  public var days: Set<Weekday>
  /// Its start, in local time.
  public var time: ConfigFormat.TimeOfDay
  /// What the idle screen and `wodclockctl schedule` call it.
  public var name: String
  /// The workout loaded for it.
  public var workout: ScheduledWorkout
  /// Creates a class.
  public init(
    days: Set<Weekday>, time: ConfigFormat.TimeOfDay, name: String, workout: ScheduledWorkout
  ) {
    self.days = days
    self.time = time
    self.name = name
    self.workout = workout
  }
}

/// What a class runs, as the schedule names it.
public enum ScheduledWorkout: Sendable, Equatable {
  /// A preset of the file, by name.
  case preset(String)
  /// A workout written in the whiteboard notation.
  case notation(String)

  /// The text the file gives for it.
  public var text: String {
    switch self {
    case .preset(let name): name
    case .notation(let text): text
    }
  }
}

/// A day of the week, numbered as `struct tm`'s `tm_wday`: 0 is Sunday.
public enum Weekday: Int, Sendable, Equatable, Hashable, CaseIterable, Comparable {
  case sunday, monday, tuesday, wednesday, thursday, friday, saturday

  /// `mon`, `tue` ...: how the schedule writes it back.
  public var shortName: String { String(String(describing: self).prefix(3)) }

  /// `Mon`, `Tue` ...: how people read it.
  public var title: String { shortName.prefix(1).uppercased() + shortName.dropFirst() }

  /// Monday to Friday.
  public static let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
  /// Saturday and Sunday.
  public static let weekends: Set<Weekday> = [.saturday, .sunday]

  /// Orders from Sunday, as `tm_wday` does.
  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
