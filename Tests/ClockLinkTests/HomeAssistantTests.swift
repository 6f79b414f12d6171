// SPDX-License-Identifier: MIT
// Home Assistant's discovery payloads against the keys its MQTT integration documents for each
// entity kind, and what it sends back turned into the socket's commands.

import ControlProtocol
import JSONKit
import Testing
import WodclockDaemon
import WorkoutCore

@testable import ClockLink

@Suite struct HomeAssistantTests {
  private let discovery = HomeAssistantDiscovery(
    room: LinkRoom("hall")!, client: LinkClientID("gym-pi.local")!,
    device: HomeAssistantDevice(name: "Hall clock", softwareVersion: "1.4.0"),
    presets: ["fran", "cindy"])

  /// The keys every MQTT entity of Home Assistant's `mqtt` integration takes (its docs'
  /// configuration variables common to the kinds below).
  private static let commonKeys: Set<String> = [
    "availability", "availability_mode", "availability_template", "availability_topic",
    "device", "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon",
    "json_attributes_template", "json_attributes_topic", "name", "object_id",
    "default_entity_id", "payload_available", "payload_not_available", "qos", "unique_id",
    "platform",
  ]

  /// Each kind's own keys, and those it requires, from the docs of `button.mqtt`,
  /// `select.mqtt`, `text.mqtt`, `sensor.mqtt`, `binary_sensor.mqtt` and `event.mqtt`.
  private static let schema: [String: (keys: Set<String>, required: Set<String>)] = [
    "button": (
      ["command_template", "command_topic", "device_class", "payload_press", "retain"],
      ["command_topic"]
    ),
    "select": (
      [
        "command_template", "command_topic", "optimistic", "options", "retain", "state_topic",
        "value_template",
      ], ["command_topic", "options"]
    ),
    "text": (
      [
        "command_template", "command_topic", "max", "min", "mode", "pattern", "retain",
        "state_topic", "value_template",
      ], ["command_topic"]
    ),
    "sensor": (
      [
        "device_class", "expire_after", "force_update", "last_reset_value_template", "options",
        "state_class", "state_topic", "suggested_display_precision", "unit_of_measurement",
        "value_template",
      ], ["state_topic"]
    ),
    "binary_sensor": (
      [
        "device_class", "expire_after", "force_update", "off_delay", "payload_off", "payload_on",
        "state_topic", "value_template",
      ], ["state_topic"]
    ),
    "event": (
      ["device_class", "event_types", "state_topic", "value_template"],
      ["event_types", "state_topic"]
    ),
  ]

  private static let deviceKeys: Set<String> = [
    "configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model",
    "model_id", "name", "serial_number", "suggested_area", "sw_version", "via_device",
  ]

  private func isID(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(isNameByte)
  }

  @Test func everyPayloadUsesOnlyItsKindsDocumentedKeysAndHasTheRequiredOnes() throws {
    let configs = discovery.configs
    #expect(configs.count == discovery.entities.count)
    for (entity, message) in zip(discovery.entities, configs) {
      let object = try #require(JSONValue.parse(message.payload).objectValue)
      let kind = try #require(Self.schema[entity.component])
      let keys = Set(object.keys)
      #expect(
        keys.subtracting(kind.keys.union(Self.commonKeys)).isEmpty, "\(entity.component): \(keys)")
      #expect(
        kind.required.union(["unique_id", "name", "device", "availability_topic"]).isSubset(
          of: keys))
      let device = try #require(object["device"]?.objectValue)
      #expect(Set(device.keys).isSubset(of: Self.deviceKeys))
      #expect(
        Set(device.keys).isSuperset(of: [
          "identifiers", "name", "manufacturer", "model", "sw_version",
        ]))
      #expect(device["identifiers"]?.arrayValue?.allSatisfy { isID($0.stringValue ?? "") } == true)
      #expect(isID(object["unique_id"]?.stringValue ?? ""))
      #expect(isID(object["object_id"]?.stringValue ?? ""))
      // The topic: <prefix>/<component>/<node_id>/<object_id>/config, ids of a-zA-Z0-9_-.
      let levels = message.topic.split(separator: "/", omittingEmptySubsequences: false).map(
        String.init)
      #expect(levels.count == 5 && levels[0] == "homeassistant" && levels[1] == entity.component)
      #expect(isID(levels[2]) && isID(levels[3]) && levels[4] == "config")
      #expect(
        object["availability_topic"]?.stringValue == "wodclock/hall/clock/gym-pi.local/available")
      #expect(object["payload_not_available"]?.stringValue == "offline")
    }
    let uniqueIDs = try configs.map { try JSONValue.parse($0.payload)["unique_id"]!.stringValue! }
    #expect(Set(uniqueIDs).count == uniqueIDs.count)
  }

  @Test func theKindsAreTheOnesAClockNeeds() throws {
    func config(_ object: String) throws -> JSONObject {
      let entity = try #require(discovery.entities.first { $0.objectID == object })
      return discovery.config(of: entity)
    }
    for button in ["start_pause", "next", "lap", "reset"] {
      #expect(try config(button)["payload_press"]?.stringValue == "PRESS")
    }
    #expect(try config("preset")["options"] == ["fran", "cindy"])
    #expect(try config("workout")["max"]?.intValue == 255)
    #expect(try config("end")["device_class"]?.stringValue == "timestamp")
    #expect(try config("running")["payload_on"]?.stringValue == "ON")
    #expect(
      Set(discovery.entities.map(\.component)) == [
        "button", "select", "text", "sensor", "binary_sensor", "event",
      ])
  }

  @Test func aRemovedPresetChangesOnlyTheSelectsOptionsAndTurningItOffRemovesAll() {
    let fewer = HomeAssistantDiscovery(
      room: discovery.room, client: discovery.client, device: discovery.device, presets: ["fran"])
    #expect(fewer.removals(since: discovery).isEmpty)
    let changed = zip(discovery.configs, fewer.configs).filter { $0 != $1 }.map { $0.0.topic }
    #expect(changed == ["homeassistant/select/gym-pi_local/preset/config"])
    // No preset left: the select goes (Home Assistant wants an option).
    let none = HomeAssistantDiscovery(
      room: discovery.room, client: discovery.client, device: discovery.device, presets: [])
    #expect(
      none.removals(since: discovery).map(\.topic) == [
        "homeassistant/select/gym-pi_local/preset/config"
      ])
    // home_assistant: false after true: every config emptied.
    #expect(discovery.removals.count == discovery.configs.count)
    #expect(discovery.removals.allSatisfy { $0.payload.isEmpty })
    #expect(Set(discovery.removals.map(\.topic)) == Set(discovery.configs.map(\.topic)))
  }

  private func command(_ object: String, _ payload: String) -> Result<LinkCommand, LinkError>? {
    discovery.command(
      topic: "wodclock/hall/clock/gym-pi.local/ha/\(object)", payload: Array(payload.utf8),
      requestID: 4)
  }

  private func socketCommand(_ object: String, _ payload: String) throws -> CommandRequest {
    let link = try #require(command(object, payload)).get()
    return try CommandProtocol.parse(LinkCommand.decode(link.encoded()).requestLine).get()
  }

  @Test func whatHomeAssistantSendsBecomesTheSocketsCommands() throws {
    #expect(try socketCommand("start_pause", "PRESS").command == .action(.toggle))
    #expect(try socketCommand("next", "PRESS").command == .action(.next))
    #expect(try socketCommand("lap", "PRESS").command == .action(.lap))
    #expect(try socketCommand("reset", "PRESS").command == .action(.reset))
    #expect(try socketCommand("preset", "cindy").command == .load(.preset("cindy")))
    let run = try socketCommand("workout", "  emom 10 \n")
    #expect(run.command == .load(.workout("emom 10")) && run.start)
  }

  @Test func whatAsksForNothingThisClockHasIsRefused() {
    #expect(command("preset", "murph").map { (try? $0.get()) == nil } == true)
    #expect(command("lap", "press").map { (try? $0.get()) == nil } == true)
    #expect(command("workout", "").map { (try? $0.get()) == nil } == true)
    #expect(
      command("workout", String(repeating: "a", count: 256)).map { (try? $0.get()) == nil } == true)
    #expect(
      discovery.command(
        topic: "wodclock/hall/clock/gym-pi.local/ha/lap", payload: [0xFF, 0xFE], requestID: 1
      ).map { (try? $0.get()) == nil } == true)
    #expect(command("state", "PRESS") == nil)
    #expect(
      discovery.command(
        topic: "wodclock/annex/clock/gym-pi.local/ha/lap", payload: Array("PRESS".utf8),
        requestID: 1) == nil)
  }

  @Test func homeAssistantsBirthIsRecognised() {
    #expect(discovery.isBirth(topic: "homeassistant/status", payload: Array("online".utf8)))
    #expect(!discovery.isBirth(topic: "homeassistant/status", payload: Array("offline".utf8)))
    #expect(!discovery.isBirth(topic: "wodclock/hall/state", payload: Array("online".utf8)))
  }

  @Test func anotherDiscoveryPrefixAndTheClocksOwnAvailabilityAreUsed() throws {
    let leader = HomeAssistantDiscovery(
      room: discovery.room, client: discovery.client, device: discovery.device,
      presets: discovery.presets, prefix: "ha")
    #expect(leader.isBirth(topic: "ha/status", payload: Array("online".utf8)))
    #expect(!leader.isBirth(topic: "homeassistant/status", payload: Array("online".utf8)))
    for message in leader.configs {
      #expect(message.topic.hasPrefix("ha/"))
      let config = try JSONValue.parse(message.payload)
      #expect(
        config["availability_topic"]?.stringValue
          == discovery.room.availabilityTopic(of: discovery.client))
    }
  }

  // MARK: - The state message

  @Test func theEndInstantIsAnISOTimestampThatMovesOnlyWhenTheEndMoves() throws {
    var leader = try LeaderClock(notationPlan("amrap 14", name: "evening"))
    try leader.apply(.start, at: 0)
    let clocks = leaderClocks
    func state(_ seconds: Double) -> HomeAssistantState {
      HomeAssistantState(
        snapshot: leader.snapshot(at: seconds), reading: clocks.reading(atWall: wall(seconds)))
    }
    let first = state(1)
    let object = try JSONValue.parse(first.payload).objectValue!
    // 10 s of count-in and 14 minutes from six o'clock.
    #expect(object["end_at"]?.stringValue == "2026-01-05T18:14:10+00:00")
    #expect(object["state"]?.stringValue == "countin" && object["running"] == true)
    #expect(object["preset"]?.stringValue == "evening")
    var published = first
    var count = 1
    for tenth in 11...3000 {
      let next = state(Double(tenth) / 10)
      if next.needsPublishing(after: published) {
        published = next
        count += 1
      }
    }
    // Published at the count-in's end (the state and the phase change), not each second.
    #expect(count == 2)
    try leader.apply(.lap, at: 301)
    #expect(state(301).needsPublishing(after: published))
    #expect(state(301).score == "1")
    try leader.apply(.pause, at: 302)
    let paused = state(303)
    #expect(paused.endWallNanoseconds == nil && !paused.running && paused.state == "paused")
    // A nanosecond of drift between the clocks does not republish it.
    var drifted = published
    drifted.endWallNanoseconds = published.endWallNanoseconds.map { $0 + 3 }
    #expect(!drifted.needsPublishing(after: published))
  }

  @Test func aForTimesScoreIsItsFinalTime() throws {
    var leader = try LeaderClock(notationPlan("21-15-9 for time"))
    try leader.apply(.start, at: 0)
    try leader.apply(.finish, at: 10 + 754.6)
    let done = HomeAssistantState(
      snapshot: leader.snapshot(at: 800), reading: leaderClocks.reading(atWall: wall(800)))
    #expect(done.score == "12:34")
    #expect(done.state == "finished" && done.endWallNanoseconds == nil)
  }

  @Test func isoInstantsAreUTCWithTheirOffset() {
    #expect(isoInstant(wallNanoseconds: 0) == "1970-01-01T00:00:00+00:00")
    #expect(isoInstant(wallNanoseconds: sixPM + 499_999_999) == "2026-01-05T18:00:00+00:00")
    #expect(isoInstant(wallNanoseconds: sixPM + 500_000_000) == "2026-01-05T18:00:01+00:00")
    #expect(isoInstant(wallNanoseconds: 951_782_400 * 1_000_000_000) == "2000-02-29T00:00:00+00:00")
  }
}
