// SPDX-License-Identifier: MIT
// The validated configuration: what the daemon runs on. Built only by `ConfigurationLoader`.

public import ConfigFormat
public import DisplayKit
public import WorkoutCore
public import WorkoutNotation

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
  /// How heats and lanes are run (`heats:`).
  public var heats = HeatsSettings()
  /// The web interface (`web:`); nil, and no listener, when the file has no such section.
  public var web: WebSettings? = nil
  /// The link to other clocks and Home Assistant through an MQTT broker (`mqtt:`); nil, and no
  /// connection, when the file has no such section.
  public var mqtt: MQTTSettings? = nil
  /// The workouts known by name: the gym's own (from the file `workouts:` names) in front of
  /// the benchmark workouts.
  public var workouts: WorkoutLibrary = .standard
  /// The file of the gym's own workouts (`workouts:`); nil when the config names none.
  public var workoutsFile: ConfigFileReference? = nil
  /// The directory of the pictures and videos shown beside the clock (`media:`), resolved
  /// beside the config file; nil when the file names none.
  public var mediaDirectory: ConfigFileReference? = nil

  /// The preset named `name`.
  public func preset(named name: String) -> Preset? { presets.first { $0.name == name } }

  /// The preset a load by `name` runs: the preset of that name, or, when `name` is a name of
  /// the library (`Fran`), the preset whose name is the same name to the library (`fran`): a
  /// preset wins over the library's workout of its name.
  public func preset(loadedBy name: String) -> Preset? {
    if let preset = preset(named: name) { return preset }
    guard workouts.workout(named: name) != nil else { return nil }
    return presets.first { WorkoutLibrary.sameName($0.name, name) }
  }

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
  /// The remote's PIN, 4–12 ASCII digits (6 or more advised); nil serves the display only (no
  /// remote, no commands from the network).
  public var pin: String?
  /// Names the clock answers to besides its addresses, its host name, `<hostname>.local` and
  /// `localhost` (`clock.gym.lan`): a request naming another `Host` is refused.
  public var hosts: [String]
  /// Connections open at once, from all clients.
  public var connections: Int
  /// Connections open at once from one address.
  public var connectionsPerAddress: Int
  /// Event streams (display pages, remotes) open at once, fewer than ``connections`` so that a
  /// page can still load when every stream is taken.
  public var streams: Int
  /// Event streams open at once from one address.
  public var streamsPerAddress: Int
  /// A request's header and body must have arrived this long after the connection opened, or
  /// after the previous request on it was answered; else the connection is closed.
  public var requestTimeout: TimeSpan

  /// Creates the settings; `listen` defaults to every IPv4 interface on port 8080.
  public init(
    listen: WebListenAddress = .standard, pin: String? = nil, hosts: [String] = [],
    connections: Int = 128, connectionsPerAddress: Int = 8, streams: Int = 64,
    streamsPerAddress: Int = 3, requestTimeout: TimeSpan = .seconds(10)
  ) {
    self.listen = listen
    self.pin = pin
    self.hosts = hosts
    self.connections = connections
    self.connectionsPerAddress = connectionsPerAddress
    self.streams = streams
    self.streamsPerAddress = streamsPerAddress
    self.requestTimeout = requestTimeout
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

/// The link through an MQTT broker: several clocks in one room run one workout, and Home
/// Assistant sees and drives the clock.
public struct MQTTSettings: Sendable, Equatable {
  /// Which clock of a room holds the workout.
  public enum Role: String, Sendable, Equatable, CaseIterable {
    /// Runs the workout and publishes it for the room.
    case leader
    /// Runs what the leader publishes; its buttons and remotes act on the leader.
    case follower
  }

  /// What a clock configured as the leader does when another clock already leads its room.
  public enum Conflict: String, Sendable, Equatable, CaseIterable {
    /// Follows the room's leader: the room keeps one workout.
    case follow
    /// Runs its own workout and publishes nothing for the room.
    case standalone
  }

  /// Where the broker is.
  public var broker: MQTTBroker
  /// TLS to the broker and whom to trust; nil for plain TCP.
  public var tls: MQTTTLS?
  /// The user name the broker knows this clock by; nil connects without one.
  public var username: String?
  /// The file whose first line is the password (never the password itself in the config).
  public var passwordFile: ConfigFileReference?
  /// The room: the topic namespace the clocks of one room share (`[a-zA-Z0-9_-]{1,64}`).
  public var room: String
  /// Leader or follower.
  public var role: Role
  /// What a leader does when another clock already leads the room.
  public var onConflict: Conflict
  /// How far ahead of the command a start takes effect, so every clock starts together.
  public var lead: TimeSpan
  /// The MQTT client id (`[a-zA-Z0-9_-]{1,64}`); nil lets the daemon derive it from the host
  /// name.
  public var clientID: String?
  /// Whether the clock announces itself to Home Assistant (MQTT discovery).
  public var homeAssistant: Bool
  /// The first part of Home Assistant's discovery topics.
  public var discoveryPrefix: String

  /// Creates the settings; the defaults are those of a section that names only `broker`.
  public init(
    broker: MQTTBroker, tls: MQTTTLS? = nil, username: String? = nil,
    passwordFile: ConfigFileReference? = nil, room: String = "main", role: Role = .leader,
    onConflict: Conflict = .follow, lead: TimeSpan = .seconds(1), clientID: String? = nil,
    homeAssistant: Bool = false,
    discoveryPrefix: String = "homeassistant"
  ) {
    self.broker = broker
    self.tls = tls
    self.username = username
    self.passwordFile = passwordFile
    self.room = room
    self.role = role
    self.onConflict = onConflict
    self.lead = lead
    self.clientID = clientID
    self.homeAssistant = homeAssistant
    self.discoveryPrefix = discoveryPrefix
  }
}

/// An MQTT broker's host and port, as `broker:` writes them: a host name (looked up by the
/// daemon, off its loop), an IPv4 literal, or an IPv6 literal in brackets.
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
  public enum Host: Sendable, Equatable {
    /// Four bytes, in network order (`localhost` is 127.0.0.1, not looked up).
    case ipv4([UInt8])
    /// Sixteen bytes, in network order.
    case ipv6([UInt8])
    /// A name to look up: `mqtt.local`, `pi-front`.
    case name(String)
  }

  /// MQTT's port (IANA), and MQTT over TLS's.
  public static let standardPort: UInt16 = 1883
  public static let standardTLSPort: UInt16 = 8883

  public var host: Host
  /// 1–65535.
  public var port: UInt16
  /// The host as the file writes it: `mqtt.local`, `192.168.1.20`, `[fd00::20]`, `localhost`.
  public var hostText: String

  public init(host: Host, port: UInt16, hostText: String) {
    self.host = host
    self.port = port
    self.hostText = hostText
  }

  /// `mqtt.local:1883`, `[fd00::20]:8883`: how the file writes it, the port always written.
  public var description: String { "\(hostText):\(port)" }
}

/// TLS to the broker: whose certificates are trusted.
public enum MQTTTLS: Sendable, Equatable {
  /// The system's certificate authorities (`tls: true`), the directory
  /// ``systemCertificateDirectory``: for a broker with a certificate from a public CA.
  case systemCertificates
  /// Only the CA in this PEM file (`tls: {ca_file: ...}`): for a broker with a certificate
  /// of the gym's own CA.
  case caFile(ConfigFileReference)

  /// Where Debian's ca-certificates keeps the trusted CAs, one hashed file each (OpenSSL's
  /// CApath form, which libmosquitto's `capath` takes).
  public static let systemCertificateDirectory = "/etc/ssl/certs"
}

/// A file a setting names.
public struct ConfigFileReference: Sendable, Equatable {
  /// The setting as written, relative or absolute.
  public var setting: String
  /// The file read: the setting if absolute, else beside the config file (``ConfigFilePath``).
  public var path: String

  public init(setting: String, path: String) {
    self.setting = setting
    self.path = path
  }
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
  /// A lane's finish button at a competition: its finish, the undo of its last one, or a
  /// tiebreak time (`lane finish 3`). The lane is one of ``laneNumbers``.
  case lane(LaneAction, lane: Int)

  /// The lanes a control may name: a heat has at most 64.
  public static let laneNumbers = 1...64

  /// The action as the config writes it: `toggle`, `load tabata`, `lane finish 3`.
  public var description: String {
    switch self {
    case .engine(let action): action.rawValue
    case .load(let preset): "load \(preset)"
    case .mute: "mute"
    case .lane(let action, let lane): "lane \(action.rawValue) \(lane)"
    }
  }
}

/// What a lane's button does in a heat.
public enum LaneAction: String, Sendable, Hashable, CaseIterable {
  /// The athlete is done: the lane's time is the instant the button went down.
  case finish
  /// Takes back the lane's last finish or tiebreak (a judge's slip of the hand).
  case undo
  /// A tiebreak time within the workout, the heat still running for the lane.
  case tiebreak
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

  /// Whether `other` makes the same plugin: the same kind, id and settings from the same file,
  /// wherever in it the entry stands (a line added above it does not change what it does).
  public func makesTheSamePlugin(as other: PluginInstance) -> Bool {
    kind == other.kind && id == other.id && settings.values == other.settings.values
      && location.file == other.location.file
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

/// One class of the schedule: it starts at `time` on each of `days` and on each of `dates`.
public struct ScheduledClass: Sendable, Equatable {
  /// The days of the week it is held on; empty for a class held on its dates only.
  public var days: Set<Weekday>
  /// The dates it is held on (`on: 2026-12-07`) besides its days. On such a date it replaces a
  /// class of the week at the same time: the week's programming, one class per day.
  public var dates: Set<LocalDate>
  /// Its start, in local time.
  public var time: ConfigFormat.TimeOfDay
  /// What the idle screen and `wodclockctl schedule` call it.
  public var name: String
  /// The workout loaded for it.
  public var workout: ScheduledWorkout
  /// Creates a class.
  public init(
    days: Set<Weekday>, dates: Set<LocalDate> = [], time: ConfigFormat.TimeOfDay, name: String,
    workout: ScheduledWorkout
  ) {
    self.days = days
    self.dates = dates
    self.time = time
    self.name = name
    self.workout = workout
  }
}

/// What a class runs, as the schedule names it.
public enum ScheduledWorkout: Sendable, Equatable {
  /// A preset of the file, by name.
  case preset(String)
  /// A workout written in the whiteboard notation (its whiteboard lines after line breaks), or
  /// a name of the library (`cindy`).
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
