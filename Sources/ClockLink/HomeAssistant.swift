// SPDX-License-Identifier: MIT
// Home Assistant's MQTT discovery for one clock: the retained config of each entity, the one
// state message they read, and what Home Assistant sends back, turned into link commands.
//
// Discovery: a retained config on `<prefix>/<component>/<node_id>/<object_id>/config`, ids of
// `a-z A-Z 0-9 _ -`, an empty retained payload removes the entity, the configs are published
// again when `homeassistant/status` says `online` (Home Assistant's MQTT discovery docs).

import Configuration
import JSONKit
import WorkoutCore

/// The device block: how Home Assistant groups one clock's entities.
public struct HomeAssistantDevice: Sendable, Hashable {
  public var name: String
  public var softwareVersion: String
  public var manufacturer = "wodclock"
  public var model = "wodclockd"

  public init(name: String, softwareVersion: String) {
    self.name = name
    self.softwareVersion = softwareVersion
  }
}

/// One retained message to publish.
public struct RetainedMessage: Sendable, Hashable {
  public var topic: String
  /// Empty: removes what the topic held.
  public var payload: [UInt8]
}

/// The Home Assistant entities of one clock.
public struct HomeAssistantDiscovery: Sendable, Hashable {
  public static let defaultPrefix = "homeassistant"
  /// Home Assistant says `online` here when it (re)starts: the configs are published again.
  public var statusTopic: String { prefix + "/status" }
  /// The longest workout the text entity takes: Home Assistant's text entities hold 255
  /// characters at most.
  public static let maximumTextLength = 255
  /// The most bytes of a command Home Assistant sends that are read.
  public static let maximumCommandBytes = 1024

  /// What Home Assistant shows, by kind. `object` is the entity's object id.
  public enum Entity: Sendable, Hashable {
    case button(object: String, name: String, action: WorkoutAction, icon: String)
    case presetSelect
    case workoutText
    case sensor(object: String, name: String, field: String, timestamp: Bool)
    case runningSensor
    /// The outcome of the last command Home Assistant sent, in the clock's words (retained).
    case resultSensor
    /// The same outcome as an event, for automations (`accepted`, `refused`, `sent`).
    case resultEvent

    public var objectID: String {
      switch self {
      case .button(let object, _, _, _), .sensor(let object, _, _, _): object
      case .presetSelect: "preset"
      case .workoutText: "workout"
      case .runningSensor: "running"
      case .resultSensor: "last_command"
      case .resultEvent: "command_result"
      }
    }

    public var component: String {
      switch self {
      case .button: "button"
      case .presetSelect: "select"
      case .workoutText: "text"
      case .sensor, .resultSensor: "sensor"
      case .runningSensor: "binary_sensor"
      case .resultEvent: "event"
      }
    }
  }

  public let room: LinkRoom
  public let client: LinkClientID
  public let device: HomeAssistantDevice
  /// The presets the select offers, in the config's order.
  public let presets: [String]
  /// The first part of the discovery topics (the `discovery_prefix` of Home Assistant's MQTT
  /// integration).
  public let prefix: String
  /// The topic that says whether this clock is there: its own, which its last will is on
  /// (every clock's, the leader's too: a clock that leaves marks only itself offline).
  public let availabilityTopic: String

  public init(
    room: LinkRoom, client: LinkClientID, device: HomeAssistantDevice, presets: [String],
    prefix: String = defaultPrefix, availabilityTopic: String? = nil
  ) {
    self.room = room
    self.client = client
    self.device = device
    self.presets = presets
    self.prefix = prefix
    self.availabilityTopic = availabilityTopic ?? room.availabilityTopic(of: client)
  }

  /// The entities, in the order they are published. A clock without presets has no select
  /// (Home Assistant wants at least one option).
  public var entities: [Entity] {
    var entities: [Entity] = [
      .button(object: "start_pause", name: "Start/pause", action: .toggle, icon: "mdi:play-pause"),
      .button(object: "next", name: "Next", action: .next, icon: "mdi:skip-next"),
      .button(object: "lap", name: "Lap", action: .lap, icon: "mdi:flag-checkered"),
      .button(object: "reset", name: "Reset", action: .reset, icon: "mdi:restore"),
    ]
    if !presets.isEmpty { entities.append(.presetSelect) }
    entities += [
      .workoutText,
      .sensor(object: "state", name: "State", field: "state", timestamp: false),
      .sensor(object: "phase", name: "Phase", field: "phase", timestamp: false),
      .sensor(object: "round", name: "Round", field: "round", timestamp: false),
      .sensor(object: "score", name: "Score", field: "score", timestamp: false),
      .sensor(object: "end", name: "Ends at", field: "end_at", timestamp: true),
      .runningSensor, .resultSensor, .resultEvent,
    ]
    return entities
  }

  /// The config topic of `entity`.
  public func configTopic(of entity: Entity) -> String {
    "\(prefix)/\(entity.component)/\(client.nodeID)/\(entity.objectID)/config"
  }

  /// The topic Home Assistant publishes `entity`'s commands on.
  public func commandTopic(of entity: Entity) -> String {
    room.homeAssistantCommandTopic(of: client, entity: entity.objectID)
  }

  /// The retained config messages of every entity.
  public var configs: [RetainedMessage] {
    entities.map { entity in
      RetainedMessage(
        topic: configTopic(of: entity),
        payload: JSONValue.object(config(of: entity)).serializedBytes()
      )
    }
  }

  /// The removals of every entity: for `home_assistant: false` after `true`.
  public var removals: [RetainedMessage] {
    entities.map { RetainedMessage(topic: configTopic(of: $0), payload: []) }
  }

  /// The removals of the entities `earlier` had that this has not (the select, when the last
  /// preset went; everything, when the clock's id changed). A changed list of presets changes
  /// only the select's options: its config is published again, nothing is removed.
  public func removals(since earlier: HomeAssistantDiscovery) -> [RetainedMessage] {
    let topics = Set(entities.map(configTopic(of:)))
    return earlier.removals.filter { !topics.contains($0.topic) }
  }

  /// The config payload of `entity`: only keys Home Assistant's MQTT integration documents for
  /// its component.
  public func config(of entity: Entity) -> JSONObject {
    let availability = availabilityTopic
    let stateTopic = room.homeAssistantStateTopic(of: client)
    var object = JSONObject([
      ("name", .string(name(of: entity))),
      ("unique_id", .string("wodclock_\(client.nodeID)_\(entity.objectID)")),
      ("object_id", .string("wodclock_\(client.nodeID)_\(entity.objectID)")),
      (
        "device",
        .object(
          JSONObject([
            ("identifiers", .array([.string("wodclock_\(client.nodeID)")])),
            ("name", .string(device.name)), ("manufacturer", .string(device.manufacturer)),
            ("model", .string(device.model)), ("sw_version", .string(device.softwareVersion)),
          ]))
      ),
      ("availability_topic", .string(availability)),
      ("payload_available", .string(LinkAvailability.online)),
      ("payload_not_available", .string(LinkAvailability.offline)),
    ])
    switch entity {
    case .button(_, _, _, let icon):
      object["command_topic"] = .string(commandTopic(of: entity))
      object["payload_press"] = .string("PRESS")
      object["icon"] = .string(icon)
    case .presetSelect:
      object["command_topic"] = .string(commandTopic(of: entity))
      object["state_topic"] = .string(stateTopic)
      // Always one of the options, or "None" (Home Assistant's unknown option, since its
      // MQTT select takes that payload as no option: home-assistant/core#53227).
      object["value_template"] = .string("{{ value_json.option }}")
      object["options"] = .array(presets.map { .string($0) })
      object["icon"] = .string("mdi:format-list-bulleted")
    case .workoutText:
      object["command_topic"] = .string(commandTopic(of: entity))
      // The workout the clock has loaded, not the last one typed: a refused one reverts.
      object["state_topic"] = .string(stateTopic)
      object["value_template"] = .string("{{ value_json.workout }}")
      object["min"] = .integer(1)
      object["max"] = .integer(Int64(Self.maximumTextLength))
      object["mode"] = .string("text")
      object["icon"] = .string("mdi:whiteboard")
    case .sensor(_, _, let field, let timestamp):
      object["state_topic"] = .string(stateTopic)
      object["value_template"] = .string("{{ value_json.\(field) }}")
      if timestamp { object["device_class"] = .string("timestamp") }
      object["icon"] = .string(timestamp ? "mdi:timer-sand" : "mdi:timer-outline")
    case .runningSensor:
      object["state_topic"] = .string(stateTopic)
      object["value_template"] = .string("{{ 'ON' if value_json.running else 'OFF' }}")
      object["payload_on"] = .string("ON")
      object["payload_off"] = .string("OFF")
      object["device_class"] = .string("running")
    case .resultSensor:
      let topic = room.homeAssistantResultTopic(of: client)
      object["state_topic"] = .string(topic)
      object["value_template"] = .string("{{ value_json.text }}")
      object["json_attributes_topic"] = .string(topic)
      object["icon"] = .string("mdi:message-reply-text")
    case .resultEvent:
      object["state_topic"] = .string(room.homeAssistantEventTopic(of: client))
      object["event_types"] = .array(
        HomeAssistantCommandResult.Outcome.allCases.map { .string($0.rawValue) })
      object["icon"] = .string("mdi:message-reply-text")
    }
    return object
  }

  private func name(of entity: Entity) -> String {
    switch entity {
    case .button(_, let name, _, _), .sensor(_, let name, _, _): name
    case .presetSelect: "Preset"
    case .workoutText: "Workout"
    case .runningSensor: "Running"
    case .resultSensor: "Last command"
    case .resultEvent: "Command result"
    }
  }

  // MARK: - What Home Assistant sends

  /// Whether a message on `topic` is Home Assistant announcing itself: publish the configs
  /// again.
  public func isBirth(topic: String, payload: some Collection<UInt8>) -> Bool {
    topic == statusTopic && Array(payload) == Array("online".utf8)
  }

  /// The command a message on one of this clock's entity command topics asks for: nil for a
  /// topic that is not one of them, an error for a payload that asks for nothing this clock
  /// has (a preset that is not in the config, a button payload that is not `PRESS`).
  public func command(topic: String, payload: some Collection<UInt8>, requestID: Int64)
    -> Result<LinkCommand, LinkError>?
  {
    guard let entity = entities.first(where: { commandTopic(of: $0) == topic }) else {
      return nil
    }
    guard payload.count <= Self.maximumCommandBytes else {
      return .failure(LinkError("a command of \(payload.count) bytes from Home Assistant"))
    }
    guard let text = String(validating: payload, as: UTF8.self) else {
      return .failure(LinkError("a command from Home Assistant that is not UTF-8"))
    }
    switch entity {
    case .button(_, _, let action, _):
      guard text == "PRESS" else {
        return .failure(LinkError("a button press is 'PRESS', not '\(text.prefix(64))'"))
      }
      return .success(.action(action, client: client, requestID: requestID))
    case .presetSelect:
      guard presets.contains(text) else {
        return .failure(LinkError("no preset '\(text.prefix(64))' on this clock"))
      }
      return .success(.load(preset: text, client: client, requestID: requestID))
    case .workoutText:
      let workout = text.trimmingWhitespace
      guard !workout.isEmpty, workout.unicodeScalars.count <= Self.maximumTextLength else {
        return .failure(
          LinkError("a workout from Home Assistant has 1 to \(Self.maximumTextLength) characters"))
      }
      return .success(.load(workout: workout, start: true, client: client, requestID: requestID))
    case .sensor, .runningSensor, .resultSensor, .resultEvent:
      return nil
    }
  }
}

/// The availability payloads of the leader's and each clock's topic (Home Assistant's
/// defaults).
public enum LinkAvailability {
  public static let online = "online"
  public static let offline = "offline"
}

/// The one state message a clock publishes for its Home Assistant entities, retained, when
/// one of its fields changes, never once a second: the end instant is an instant, and Home
/// Assistant counts down to it itself.
public struct HomeAssistantState: Sendable, Hashable {
  /// The run state (`idle`, `countin`, `running`, `paused`, `finished`), as the status says it.
  public var state: String
  /// The current segment's kind (`work`, `rest` ...), nil while idle.
  public var phase: String?
  /// `3/10`, or `3` when the rounds are open.
  public var round: String?
  /// The rounds tallied, or a For Time's final time once it is done (`12:34`).
  public var score: String?
  /// When a bounded workout ends, in wall-clock nanoseconds; nil unless it is counting.
  public var endWallNanoseconds: Int64?
  public var preset: String
  /// The workout loaded, as the text entity shows it: its notation, else its name.
  public var workout: String
  /// The select's state: the loaded preset when it is one of the config's, else "None".
  public var option: String
  public var running: Bool

  /// The select's state for a workout that is none of its options.
  public static let noOption = "None"

  /// The state at `reading` of a clock whose snapshot then is `snapshot`. `workout` is the
  /// loaded workout's notation (nil: it has none), `isPreset` whether it is the config's
  /// preset of its name.
  public init(
    snapshot: WorkoutSnapshot, reading: ClockReading, workout: String? = nil,
    isPreset: Bool = true
  ) {
    state = snapshot.runState.rawValue
    let active = snapshot.runState != .idle
    phase = active ? snapshot.segmentKind?.rawValue : nil
    round = snapshot.round.map { round in
      round.count.map { "\(round.index)/\($0)" } ?? "\(round.index)"
    }
    if snapshot.mode == .forTime && snapshot.runState == .finished
      && snapshot.finishReason == .completed
    {
      score =
        TimeSpan(nanoseconds: snapshot.elapsed.flooredSeconds * TimeSpan.nanosecondsPerSecond)
        .description
    } else {
      score = active ? "\(snapshot.laps)" : nil
    }
    running = snapshot.runState == .running || snapshot.runState == .countIn
    if running, let remaining = snapshot.remaining {
      // During the count-in the workout's remaining time is all of it: the end is the
      // count-in's end plus that.
      let countIn = snapshot.runState == .countIn ? snapshot.segmentRemaining?.nanoseconds ?? 0 : 0
      let (left, leftOverflow) = remaining.nanoseconds.addingReportingOverflow(countIn)
      let (end, overflow) = reading.wallNanoseconds.addingReportingOverflow(
        left / reading.speed)
      endWallNanoseconds = overflow || leftOverflow ? nil : end
    } else {
      endWallNanoseconds = nil
    }
    preset = snapshot.presetName
    // The text entity holds one line: a workout with its whiteboard shows by its name.
    let written = workout.flatMap { $0.contains("\n") ? nil : $0 } ?? snapshot.presetName
    self.workout = String(
      String.UnicodeScalarView(
        written.unicodeScalars.prefix(HomeAssistantDiscovery.maximumTextLength)))
    option = isPreset ? snapshot.presetName : Self.noOption
  }

  /// Whether this state is to be published after `previous` (nil: nothing published yet): a
  /// field changed, or the end moved by half a second or more (the clocks' own drift moves
  /// it by nanoseconds from one reading to the next).
  public func needsPublishing(after previous: HomeAssistantState?) -> Bool {
    guard var previous else { return true }
    switch (previous.endWallNanoseconds, endWallNanoseconds) {
    case (let before?, let now?):
      let (moved, overflow) = now.subtractingReportingOverflow(before)
      if !overflow && moved.magnitude < 500_000_000 { previous.endWallNanoseconds = now }
    default: break
    }
    return previous != self
  }

  /// The message: `{"state": "running", "phase": "work", "round": "3/10", "score": "2",
  /// "end_at": "2026-01-05T18:20:00+00:00", "preset": "fran", "running": true}`.
  public var payload: [UInt8] {
    func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    return JSONValue.object(
      JSONObject([
        ("state", .string(state)), ("phase", text(phase)), ("round", text(round)),
        ("score", text(score)),
        ("end_at", text(endWallNanoseconds.map(isoInstant(wallNanoseconds:)))),
        ("preset", .string(preset)), ("workout", .string(workout)), ("option", .string(option)),
        ("running", .bool(running)),
      ])
    ).serializedBytes()
  }
}

/// What became of a command Home Assistant sent: retained for the "Last command" sensor and
/// sent as an event, so an automation that loads a class sees a refusal and its reason.
public struct HomeAssistantCommandResult: Sendable, Hashable {
  public enum Outcome: String, Sendable, Hashable, CaseIterable {
    /// The clock carried it out.
    case accepted
    /// The clock (or, for a follower, the check before sending) refused it: `message` says why.
    case refused
    /// A follower sent it on to its leader, which carries it out.
    case sent
  }

  /// A sensor's state holds 255 characters at most (Home Assistant's limit for a state).
  public static let maximumTextLength = 255

  public var outcome: Outcome
  /// The entity it came from (`preset`, `workout`, `start_pause` ...).
  public var entity: String
  /// The clock's words: why it was refused, or what was done.
  public var message: String

  public init(outcome: Outcome, entity: String, message: String) {
    self.outcome = outcome
    self.entity = entity
    self.message = message
  }

  /// The sensor's state: `accepted`, or `refused: a workout is running ...`, cut to fit.
  public var text: String {
    let full = message.isEmpty ? outcome.rawValue : "\(outcome.rawValue): \(message)"
    guard full.unicodeScalars.count > Self.maximumTextLength else { return full }
    return String(String.UnicodeScalarView(full.unicodeScalars.prefix(Self.maximumTextLength - 1)))
      + "…"
  }

  private var members: [(String, JSONValue)] {
    [
      ("result", .string(outcome.rawValue)), ("entity", .string(entity)),
      ("message", .string(message)), ("text", .string(text)),
    ]
  }

  /// The retained message of the sensor (its state and attributes).
  public var sensorPayload: [UInt8] { JSONValue.object(JSONObject(members)).serializedBytes() }

  /// The event entity's message: `event_type` and the same attributes (Home Assistant's MQTT
  /// event takes a JSON object with `event_type`; the other keys become its attributes).
  public var eventPayload: [UInt8] {
    JSONValue.object(JSONObject([("event_type", .string(outcome.rawValue))] + members))
      .serializedBytes()
  }
}

/// ISO 8601 with its offset, in UTC, to the nearest second: what a `timestamp` sensor takes.
func isoInstant(wallNanoseconds: Int64) -> String {
  let second = TimeSpan.nanosecondsPerSecond
  let seconds = wallNanoseconds / second + (wallNanoseconds % second >= second / 2 ? 1 : 0)
  let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  let inDay = seconds - days * 86_400
  func two(_ value: Int64) -> String { (value < 10 ? "0" : "") + String(value) }
  let date = LocalDate(daysSinceEpoch: Int(days))
  return "\(date)T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))+00:00"
}

extension String {
  var trimmingWhitespace: String {
    let scalars = unicodeScalars.drop(while: \.properties.isWhitespace)
    let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    return end.map { String(String.UnicodeScalarView(scalars[...$0])) } ?? ""
  }
}
