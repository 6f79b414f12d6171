// SPDX-License-Identifier: MIT
// The link between clocks in the test's process on one manual clock, through an in-memory
// broker: a room's clocks show each second at the same instant (exactly), a leader killed and
// restarted, a broker outage of 20 s, a late follower, an unsynchronized clock, rooms apart, a
// second leader that gives way, two clocks with one client id, unreadable and oversized
// messages, no broker, wrong credentials, and Home Assistant's discovery and commands. What
// needs the real parts (mosquitto's delivery, TLS, a name looked up) is Tests/link's.

import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@testable import WodclockDaemon

@Suite struct LinkInProcessTests {
  private func request(_ clock: InProcessDaemon, _ command: String) throws -> JSONValue {
    try clock.request(#"{"cmd": "\#(command)"}"#)
  }

  private func state(_ clock: InProcessDaemon) throws -> String {
    try clock.status()["state"]?.stringValue ?? ""
  }

  /// A leader and a follower in the hall that agree, the leader started and the follower
  /// running with it.
  private func runningLeaderAndFollower() throws -> InProcessRoom {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    room.run(for: 1)
    #expect(room.agreement(["leader", "lane-1"])?.state == "idle")
    #expect(try request(room["leader"], "start")["ok"] == true)
    room.run(for: 5)
    #expect(try state(room["lane-1"]) == "running")
    return room
  }

  @Test func threeClocksShowEverySecondAtTheSameInstant() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    try room.add("lane-2", role: "follower")
    let clocks = ["leader", "lane-1", "lane-2"]
    room.run(for: 1)
    #expect(room.agreement(clocks)?.state == "idle")

    // Started from a follower's socket: the command goes to the leader over the broker, and
    // the start takes effect a second later on all three.
    let began = room.time.seconds
    #expect(try request(room["lane-1"], "start")["ok"] == true)
    room.run(for: 0.999)
    #expect(room.agreement(clocks)?.state == "idle", "the lead: nobody has started yet")
    room.run(for: 0.002)
    #expect(room.agreement(clocks)?.state == "countin")
    room.run(for: 6.3)
    #expect(try request(room["lane-2"], "pause")["ok"] == true)
    room.run(for: 0.001)
    let paused = try #require(room.agreement(clocks))
    #expect(paused.state == "paused")
    room.run(for: 1)
    #expect(room.agreement(clocks)! == paused, "paused, the second stands still")
    #expect(try request(room["leader"], "resume")["ok"] == true)
    room.run(for: 2.4)
    #expect(try request(room["lane-1"], "next")["ok"] == true)
    room.run(for: 1.2)
    #expect(try request(room["lane-2"], "lap")["ok"] == true)
    room.run(for: 0.001)
    let laps = try room["leader"].status()["laps"]
    #expect(laps == .integer(1))
    for clock in clocks { #expect(try room[clock].status()["laps"] == laps, "\(clock)") }
    room.run(for: 120)
    #expect(room.agreement(clocks)?.state == "finished")

    // Every clock changed to every displayed value at the same instant.
    let sequences = clocks.map { name in room.changes[name, default: []].filter { $0.at >= began } }
    #expect(sequences[0].count > 100)
    #expect(sequences[1] == sequences[0], "lane-1 showed other seconds, or at other instants")
    #expect(sequences[2] == sequences[0], "lane-2 showed other seconds, or at other instants")
  }

  @Test func theLeaderKilledAndRestarted() throws {
    let room = try runningLeaderAndFollower()
    room.run(for: 1)
    room["leader"].kill()
    // Its last will, 1.5 keepalives after its last word: the follower says the leader is
    // offline and keeps running the plan.
    room.run(for: Double(LinkFront.keepAliveSeconds) * 1.5 - 0.1)
    #expect(try room.link("lane-1")["sign"] == nil)
    room.run(for: 0.2)
    #expect(try room.link("lane-1")["sign"] == "leader offline")
    let before = try room["lane-1"].status()["display"]
    room.run(for: 1)
    #expect(try state(room["lane-1"]) == "running")
    #expect(try room["lane-1"].status()["display"] != before, "the follower keeps counting")

    // The leader resumes from its saved state, and the follower converges on it at once.
    try room["leader"].startAgain()
    room.run(for: 0.001)
    #expect(try room.link("lane-1")["sign"] == nil)
    #expect(room.agreement(["leader", "lane-1"])?.state == "running")
  }

  @Test func aBrokerOutageOfTwentySeconds() throws {
    let room = try runningLeaderAndFollower()
    room.broker.stop()
    room.run(for: 0.001)
    #expect(try room.link("lane-1")["sign"] == "broker unreachable")
    #expect(try room.link("leader")["connected"] == false)
    // Both keep running what they knew, on the same second.
    room.run(for: 2)
    #expect(room.agreement(["leader", "lane-1"])?.state == "running")
    // A press on the follower cannot reach the leader; the leader's own acts.
    let refused = try request(room["lane-1"], "pause")
    #expect(refused["ok"] == false)
    #expect(refused["error"]?["code"] == "unavailable")
    #expect(try request(room["leader"], "pause")["ok"] == true)
    room.run(for: 18)
    #expect(try state(room["lane-1"]) == "running")
    room.broker.start()
    // Reconnected on a backoff of at most a second: the room agrees again at once, not at a
    // retry half a minute later.
    room.run(for: 1)
    let agreed = try #require(room.agreement(["leader", "lane-1"]))
    #expect(agreed.state == "paused")
    #expect(try room.link("lane-1")["sign"] == nil)
    #expect(try room.link("leader")["connected"] == true)
  }

  @Test func aFollowerStartedMidWorkoutShowsTheRightPlaceAtOnce() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    room.run(for: 1)
    #expect(try request(room["leader"], "start")["ok"] == true)
    room.run(for: 7.5)
    #expect(try state(room["leader"]) == "running")
    try room.add("late", role: "follower")
    room.run(for: 0.001)
    let agreed = try #require(room.agreement(["leader", "late"]))
    #expect(agreed.state == "running")
    // It joined a workout under way: nothing of what went before is in its history.
    #expect(room["late"].logLines(containing: "under_way=yes").count == 1)
  }

  @Test func aFollowerWhoseClockIsNotSynchronizedWaits() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    room.run(for: 1)
    room.time.synchronized = false
    room.run(for: 5)
    #expect(try room.link("lane-1")["sign"] == "clock not synchronized")
    // The leader's start reaches it only once its clock is synchronized again.
    #expect(try request(room["leader"], "start")["ok"] == true)
    room.run(for: 3)
    #expect(try state(room["leader"]) == "countin")
    #expect(try state(room["lane-1"]) == "idle")
    room.time.synchronized = true
    room.run(for: 5)
    #expect(try room.link("lane-1")["sign"] == nil)
    #expect(room.agreement(["leader", "lane-1"])?.state == "running")
  }

  @Test func roomsOnOneBrokerDoNotSeeEachOther() throws {
    let room = InProcessRoom()
    try room.add("hall", role: "leader", room: "hall")
    try room.add("annex", role: "leader", room: "annex")
    try room.add("annex-lane", role: "follower", room: "annex")
    room.run(for: 1)
    #expect(try request(room["hall"], "start")["ok"] == true)
    room.run(for: 5)
    #expect(try state(room["hall"]) == "running")
    #expect(try state(room["annex"]) == "idle")
    #expect(try state(room["annex-lane"]) == "idle")
    #expect(try room.link("annex-lane")["leader"] == "annex")
  }

  @Test func aSecondLeaderInTheRoomDoesNotTakeItOver() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    room.run(for: 1)
    let load = try room["leader"].request(
      #"{"cmd": "load", "workout": "amrap 14", "start": true}"#)
    #expect(load["ok"] == true)
    room.run(for: 5)
    #expect(try room["lane-1"].status()["preset"] == "amrap 14")
    #expect(try state(room["lane-1"]) == "running")

    // A second Pi left at the default role, in the same room, with its idle intervals.
    try room.add("gym-pi", role: "leader")
    room.run(for: 0.001)
    let link = try room.link("gym-pi")
    #expect(link["conflict"]?["leader"] == "leader")
    #expect(link["leading"] == false)
    #expect(link["standing"] == "following")
    #expect(link["sign"] == "not leading: leader leads")
    #expect(room["gym-pi"].logLines(containing: "another clock leads the room").count == 1)
    // It follows the room's workout; the follower never switched to it.
    #expect(room.agreement(["leader", "lane-1", "gym-pi"])?.state == "running")
    #expect(try room["lane-1"].status()["preset"] == "amrap 14")

    // What Home Assistant reads once it stopped: each clock's own availability; the leader
    // stays online, and the claim still names it.
    room.remove("gym-pi")
    room.run(for: 0.001)
    let available = Dictionary(
      uniqueKeysWithValues: room.broker.retainedMessages(
        matching: "wodclock/hall/clock/+/available"))
    #expect(available["wodclock/hall/clock/gym-pi/available"] == "offline")
    #expect(available["wodclock/hall/clock/leader/available"] == "online")
    #expect(available["wodclock/hall/clock/lane-1/available"] == "online")
    let claim = try JSONValue.parse(
      try #require(room.broker.retainedMessage("wodclock/hall/leader/claim")))
    #expect(claim["client"] == "leader")
    // The follower shows no sign, and the AMRAP runs on with the leader's laps.
    #expect(try request(room["leader"], "lap")["ok"] == true)
    room.run(for: 0.001)
    #expect(try room["lane-1"].status()["laps"] == .integer(1))
    #expect(try room.link("lane-1")["sign"] == nil)
    #expect(try room["lane-1"].status()["preset"] == "amrap 14")
  }

  @Test func twoClocksWithOneClientIDSaySoAndDoNotFight() throws {
    let room = InProcessRoom()
    for name in ["twin-a", "twin-b"] {
      try room.add(
        name, role: "follower",
        config: InProcessRoom.config(name: name, role: "follower").replacing(
          "client_id: \(name)", with: "client_id: twin"))
    }
    room.run(for: 1)
    let said = "another client uses the client id 'twin' on the MQTT broker"
    let clashed = try #require(
      ["twin-a", "twin-b"].first { !room[$0].logLines(containing: said).isEmpty })
    #expect(room[clashed].logLines(containing: said).count == 1, "said once")
    #expect(
      room[clashed].logLines(containing: "give each clock its own `mqtt: client_id:`").count == 1)
    let link = try room.link(clashed)
    #expect(link["client_id_clash"] == true)
    #expect(link["sign"] == "client id twin used twice")
    // It does not fight: it waits the clash's 30 s before trying again, while the other twin
    // keeps the connection.
    #expect(link["retry_wait_s"] == .double(30))

    // Over ten minutes the two take the connection from each other a few times, the waits
    // doubling, not every second; the clash is said once all along.
    room.run(for: 600)
    let takeOvers = try ["twin-a", "twin-b"].map {
      try room.stats($0)["link_client_id_take_overs"]?.intValue ?? 0
    }
    let connections = try ["twin-a", "twin-b"].map {
      try room.stats($0)["link_connections"]?.intValue ?? 0
    }
    #expect(takeOvers.reduce(0, +) >= 1)
    #expect(takeOvers.reduce(0, +) <= 8, "\(takeOvers)")
    #expect(connections.reduce(0, +) <= 10, "\(connections)")
    for twin in ["twin-a", "twin-b"] {
      #expect(room[twin].logLines(containing: said).count <= 1, "said once, \(twin)")
    }
  }

  @Test func oversizedAndMalformedMessagesAreCountedAndSaidOnce() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    room.run(for: 1)
    let big = Array("{".utf8) + [UInt8](repeating: 0x20, count: 256 * 1024 + 1) + Array("}".utf8)
    for _ in 0..<2 {
      room.broker.publish("wodclock/hall/state", big)
      room.broker.publish("wodclock/hall/state", Array("not a state".utf8))
      room.broker.publish("wodclock/hall/leader/claim", Array(#"{"v": 1}"#.utf8))
    }
    room.run(for: 0.001)
    let stats = try room.stats("lane-1")
    #expect(stats["link_dropped_oversized"] == .integer(2))
    #expect(stats["link_dropped_malformed"] == .integer(4))
    #expect(room["lane-1"].logLines(containing: "larger than 256 KiB was dropped").count == 1)
    #expect(room["lane-1"].logLines(containing: "cannot be read").count == 1, "said once")
    // The follower still follows its leader.
    #expect(try request(room["leader"], "start")["ok"] == true)
    room.run(for: 1.5)
    #expect(room.agreement(["leader", "lane-1"])?.state == "countin")
  }

  @Test func noBrokerThereAndTheClockStillRuns() throws {
    let room = InProcessRoom()
    let lonely = try room.add(
      "lonely", role: "leader",
      config: InProcessRoom.config(name: "lonely", role: "leader").replacing(
        "127.0.0.1:1883", with: "127.0.0.1:1884"))
    room.run(for: 1)
    #expect(try request(lonely, "start")["ok"] == true)
    room.run(for: 5)
    #expect(try state(lonely) == "running")
    room.run(for: 60)
    #expect(lonely.logLines(containing: "MQTT broker is not reachable").count == 1, "said once")
    #expect(try room.link("lonely")["connected"] == false)
  }

  @Test func rightAndWrongPasswords() throws {
    let room = InProcessRoom()
    room.broker.users = ["front": Array("chalk-and-rings".utf8)]
    let files = try ScratchDirectory(prefix: "wodclock-link-passwords-")
    defer { files.remove() }
    for (name, password) in [("right", "chalk-and-rings"), ("wrong", "nope")] {
      let path = files.file("\(name).password")
      try FileSystem.writeFileAtomically(path, text: password + "\n", mode: 0o600)
      try room.add(
        name, role: "leader", extra: "  username: front\n  password_file: \(path)")
    }
    room.run(for: 2)
    #expect(room["right"].logLines(containing: "connected to the MQTT broker").count == 1)
    #expect(try room.link("right")["connected"] == true)
    #expect(room["wrong"].logLines(containing: "not reachable").count == 1)
    #expect(room["wrong"].logLines(containing: "password").count >= 1)
    #expect(try room.link("wrong")["connected"] == false)
    #expect(try state(room["wrong"]) == "idle")
  }
}

/// Home Assistant on the in-memory broker: what it discovers, and its commands.
@Suite struct HomeAssistantInProcessTests {
  /// The keys Home Assistant's MQTT integration documents per component (its docs'
  /// configuration variables, those a clock can use), and the ones each needs.
  static let commonKeys: Set<String> = [
    "name", "unique_id", "object_id", "device", "availability_topic", "payload_available",
    "payload_not_available", "icon", "entity_category", "qos",
  ]
  static let componentKeys: [String: (allowed: Set<String>, required: Set<String>)] = [
    "button": (["command_topic", "payload_press", "retain", "device_class"], ["command_topic"]),
    "select": (
      ["command_topic", "options", "state_topic", "value_template", "retain"],
      ["command_topic", "options"]
    ),
    "text": (
      [
        "command_topic", "state_topic", "value_template", "min", "max", "mode", "pattern",
        "retain",
      ], ["command_topic"]
    ),
    "sensor": (
      [
        "state_topic", "value_template", "device_class", "unit_of_measurement", "expire_after",
        "json_attributes_topic", "state_class",
      ], ["state_topic"]
    ),
    "binary_sensor": (
      [
        "state_topic", "value_template", "device_class", "payload_on", "payload_off",
        "expire_after",
      ], ["state_topic"]
    ),
    "event": (
      ["state_topic", "event_types", "value_template", "device_class"],
      ["state_topic", "event_types"]
    ),
  ]

  private let base = "wodclock/hall/clock/front/"

  private func front() throws -> InProcessRoom {
    let room = InProcessRoom()
    try room.add("front", role: "leader", extra: "  home_assistant: true")
    room.run(for: 1)
    return room
  }

  private func press(_ room: InProcessRoom, _ entity: String, _ payload: String) {
    room.broker.publish(base + "ha/" + entity, Array(payload.utf8))
    room.run(for: 0.001)
  }

  private func retained(_ room: InProcessRoom, _ topic: String) throws -> JSONValue? {
    try room.broker.retainedMessage(base + topic).map { try JSONValue.parse($0) }
  }

  private func status(_ room: InProcessRoom) throws -> JSONObject { try room["front"].status() }

  @Test func discoveryFollowsTheDocumentedSchemaAndComesBackOnBirth() throws {
    let room = try front()
    let configs = room.broker.retainedMessages(matching: "homeassistant/#")
    #expect(configs.count >= 14)
    var kinds: [String: [String]] = [:]
    for (topic, payload) in configs {
      let levels = topic.split(separator: "/").map(String.init)
      try #require(levels.count == 5, "\(topic)")
      #expect([levels[0], levels[2], levels[4]] == ["homeassistant", "front", "config"])
      let config = try #require(try JSONValue.parse(payload).objectValue)
      let keys = Set(config.keys)
      let (allowed, required) = try #require(Self.componentKeys[levels[1]], "\(topic)")
      #expect(keys.isSubset(of: Self.commonKeys.union(allowed)), "\(topic): \(keys)")
      #expect(required.union(["name", "unique_id", "device"]).isSubset(of: keys), "\(topic)")
      // The clock's own availability, the topic its last will is on.
      #expect(config["availability_topic"] == .string(base + "available"))
      kinds[levels[1], default: []].append(levels[3])
    }
    #expect(kinds["button"]?.sorted() == ["lap", "next", "reset", "start_pause"])
    #expect(kinds["select"] == ["preset"])
    #expect(kinds["text"] == ["workout"])
    #expect(kinds["sensor"]?.contains("end") == true)
    #expect(room.broker.retainedMessage(base + "available") == Array("online".utf8))

    // Home Assistant restarted with its retained configs lost: it says so, they come back.
    let topic = "homeassistant/button/front/lap/config"
    room.broker.publish(topic, [], retain: true)
    room.run(for: 0.001)
    #expect(room.broker.retainedMessage(topic) == nil)
    room.broker.publish("homeassistant/status", Array("online".utf8))
    room.run(for: 0.001)
    #expect(room.broker.retainedMessage(topic) != nil)
  }

  @Test func aButtonAndATypedWorkoutActOnTheClock() throws {
    let room = try front()
    press(room, "start_pause", "PRESS")
    // A leader's start takes effect the lead (1 s) after it was asked for.
    #expect(try status(room)["state"] == "idle")
    room.run(for: 1)
    #expect(try status(room)["state"] == "countin")
    let state = try #require(try retained(room, "ha"))
    #expect(state["state"] == "countin")
    #expect(state["running"] == true)
    press(room, "reset", "PRESS")
    #expect(try status(room)["state"] == "idle")
    press(room, "workout", "amrap 7")
    #expect(try status(room)["preset"] == "amrap 7")
    #expect(try status(room)["mode"] == "amrap")
    room.run(for: 1)
    #expect(try status(room)["state"] == "countin")
    // A press Home Assistant never sends is refused, and the clock goes on.
    press(room, "lap", "PUSH")
    #expect(room["front"].logLines(containing: "Home Assistant's command refused").count == 1)
    #expect(try status(room)["state"] == "countin")
  }

  @Test func aRefusedCommandIsSaidWhereHomeAssistantReadsIt() throws {
    let room = try front()
    press(room, "workout", "amrap 7")
    room.run(for: 1)
    #expect(try status(room)["state"] == "countin")
    #expect(try retained(room, "ha_result")?["result"] == "accepted")
    // The 6 pm class's workout, sent while another runs: refused, and Home Assistant reads
    // why; its text still shows the workout loaded; its select is an option or None.
    press(room, "workout", "emom 10")
    let result = try #require(try retained(room, "ha_result"))
    #expect(result["result"] == "refused")
    let text = try #require(result["text"]?.stringValue)
    #expect(text.hasPrefix("refused: "))
    #expect(text.contains("'amrap 7' is running"))
    let state = try #require(try retained(room, "ha"))
    #expect(state["workout"] == "amrap 7")
    #expect(state["option"] == "None")
    #expect(try status(room)["preset"] == "amrap 7")
    // The event entity says it too, once.
    let events = room.broker.published.filter { $0.topic == base + "ha_event" }
    #expect(events.count == 2)
    // Back on a preset: the select shows it.
    press(room, "reset", "PRESS")
    press(room, "preset", "drill")
    #expect(try retained(room, "ha")?["option"] == "drill")
  }
}

@Suite struct LinkedStartInProcessTests {
  @Test func startPressedTwiceWithinTheLeadStartsTheRoomOnceAtTheFirstPressesInstant() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    try room.add("lane-1", role: "follower")
    room.run(for: 1)
    #expect(try room["leader"].request(#"{"cmd": "start"}"#)["ok"] == true)
    room.run(for: 0.5)
    #expect(try room["leader"].request(#"{"cmd": "start"}"#)["ok"] == true)
    room.run(for: 0.499)
    #expect(room.agreement(["leader", "lane-1"])?.state == "idle")
    room.run(for: 0.001)
    #expect(room.agreement(["leader", "lane-1"])?.state == "countin")
    #expect(room["leader"].logLines(containing: "start refused").isEmpty)
    #expect(room["leader"].logLines(containing: "start in ").count == 1)
  }
}

@Suite struct LaneOverTheBrokerInProcessTests {
  @Test func aLaneInputOnTheRoomsCommandTopicIsRecordedByTheLeader() throws {
    let room = InProcessRoom()
    try room.add("leader", role: "leader")
    room.run(for: 1)
    #expect(try room["leader"].request(#"{"cmd": "start"}"#)["ok"] == true)
    // The lead, the count-in, then 5 s of the workout.
    room.run(for: 9)
    #expect(try room["leader"].status()["state"]?.stringValue == "running")
    let elapsed = try #require(try room["leader"].status()["elapsed_s"]?.doubleValue)
    room.broker.publish(
      "wodclock/hall/command",
      Array(#"{"cmd": "lane", "op": "finish", "lane": 2, "client": "judges", "id": 7}"#.utf8))
    room.run(for: 0)
    let lanes = try room["leader"].status()["heat"]?["lanes"]?.arrayValue ?? []
    let lane = lanes.first { $0["lane"]?.intValue == 2 }
    #expect(lane?["state"]?.stringValue == "finished")
    #expect(lane?["finish_s"]?.doubleValue == (elapsed * 1_000).rounded(.down) / 1_000)
    // Not a command a clock takes over the broker: the sheet stays the coach's.
    room.broker.publish(
      "wodclock/hall/command",
      Array(#"{"cmd": "heats", "op": "clear", "client": "judges", "id": 8}"#.utf8))
    room.run(for: 0)
    #expect(try room["leader"].status()["heat"]?["lanes"]?.arrayValue?.count == lanes.count)
  }
}
