// SPDX-License-Identifier: MIT
// The MQTT client for real: Debian's mosquitto on a free loopback port (MosquittoBroker), the
// clients driven by a small epoll loop of the test's own as the daemon's loop drives them.
// Connecting, subscribing, retained messages, the last will, refused credentials, a broker
// that is not there (the backoff's instants), and a broker that stops and comes back.

import Glibc
import RetryKit
import Testing
import WodclockTestSupport

@testable import HardwareKit

/// Clients, their events, and the loop that drives them.
final class ClientLoop {
  let poller: EventPoller
  private(set) var clients: [MQTTClient] = []
  /// Every event of each client, in order.
  var events: [[MQTTClient.Event]] = []
  private var registered: [MQTTClient.Watch?] = []

  init() throws { poller = try EventPoller() }

  deinit {
    for client in clients { client.close() }
    try? poller.close()
  }

  /// Makes a client and connects it to `broker`.
  @discardableResult
  func add(_ options: MQTTClient.Options, connectingTo broker: SocketAddress) throws -> Int {
    let client = try MQTTClient(options: options)
    clients.append(client)
    events.append([])
    registered.append(nil)
    try client.connect(to: broker, now: MonotonicClock.now())
    collect(clients.count - 1)
    return clients.count - 1
  }

  func client(_ index: Int) -> MQTTClient { clients[index] }

  func messages(_ index: Int) -> [MQTTClient.Message] {
    events[index].compactMap {
      if case .message(let message) = $0 { return message }
      return nil
    }
  }

  func connections(_ index: Int) -> Int {
    events[index].count {
      if case .connected = $0 { return true }
      return false
    }
  }

  /// Takes what a client did outside the loop (connect, publish).
  func collect(_ index: Int) { events[index] += clients[index].takeEvents() }

  /// Keeps epoll in step with a client's socket, as the daemon must: a new connection is a new
  /// registration (epoll dropped the old socket when it closed, and the number may be reused),
  /// the same one is modified when the wish to write changes.
  private func sync(_ index: Int) throws {
    let watch = clients[index].watch
    guard watch != registered[index] else { return }
    defer { registered[index] = watch }
    guard let watch else { return }
    let interest: EventPoller.Interest = watch.writable ? [.readable, .writable] : .readable
    if let old = registered[index], old.connection == watch.connection {
      try poller.modify(watch.descriptor, token: UInt64(index), interest: interest)
    } else {
      try poller.register(watch.descriptor, token: UInt64(index), interest: interest)
    }
  }

  /// One turn: waits for a socket or the earliest wake-up (at most `slice`), then hands each
  /// client what is ready.
  func turn(slice: Int64 = 20_000_000) throws {
    for index in clients.indices { try sync(index) }
    let now = MonotonicClock.now()
    let wakeUp = clients.compactMap(\.nextWakeUp).min() ?? Int64.max
    let ready = try poller.wait(until: min(wakeUp, now + slice))
    let after = MonotonicClock.now()
    for (index, client) in clients.enumerated() {
      let event = ready.first { $0.token == UInt64(index) }
      let due = client.nextWakeUp.map { $0 <= after } ?? false
      guard event != nil || due else { continue }
      events[index] += client.handleReady(
        readable: event.map { $0.isReadable || $0.isHangup || $0.isError } ?? false,
        writable: event?.isWritable ?? false, now: after)
      try sync(index)
    }
  }

  /// Turns until `condition` holds (at most 10 s, a bound against a hang, not a timing
  /// assert); returns whether it did.
  @discardableResult
  func pump(until condition: () -> Bool) throws -> Bool {
    let deadline = MonotonicClock.now() + 10_000_000_000
    while MonotonicClock.now() < deadline {
      if condition() { return true }
      try turn()
    }
    return condition()
  }
}

private func text(_ payload: [UInt8]) -> String { String(decoding: payload, as: UTF8.self) }

@Suite(.serialized) struct MQTTClientTests {
  @Test func subscribesPublishesAndGetsTheRetainedMessageOnANewSubscription() throws {
    let broker = try MosquittoBroker()
    let loop = try ClientLoop()
    let leader = try loop.add(
      MQTTClient.Options(clientID: "leader", maximumPayloadBytes: 64), connectingTo: broker.address)
    #expect(try loop.pump { loop.client(leader).isConnected })
    #expect(loop.events[leader].first == .connected(sessionPresent: false))

    try loop.client(leader).subscribe("wodclock/main/#", qos: .atLeastOnce)
    #expect(
      try loop.pump {
        loop.events[leader].contains(.subscribed(filter: "wodclock/main/#", granted: .atLeastOnce))
      })
    try loop.client(leader).publish(
      topic: "wodclock/main/state", payload: Array("running".utf8), qos: .atLeastOnce,
      retain: true)
    // Too large for this client: dropped and counted, and the next one still comes.
    try loop.client(leader).publish(
      topic: "wodclock/main/big", payload: [UInt8](repeating: 7, count: 65), qos: .atLeastOnce)
    try loop.client(leader).publish(
      topic: "wodclock/main/small", payload: [1], qos: .atLeastOnce)
    #expect(try loop.pump { loop.messages(leader).count == 2 })
    #expect(
      loop.messages(leader) == [
        MQTTClient.Message(
          topic: "wodclock/main/state", payload: Array("running".utf8), retained: false,
          qos: .atLeastOnce),
        MQTTClient.Message(
          topic: "wodclock/main/small", payload: [1], retained: false, qos: .atLeastOnce),
      ])
    #expect(loop.client(leader).droppedOversizeMessages == 1)

    // A client that subscribes later gets the retained state from the broker's store.
    let follower = try loop.add(
      MQTTClient.Options(clientID: "follower"), connectingTo: broker.address)
    #expect(try loop.pump { loop.client(follower).isConnected })
    try loop.client(follower).subscribe("wodclock/main/state", qos: .exactlyOnce)
    #expect(try loop.pump { !loop.messages(follower).isEmpty })
    #expect(
      loop.messages(follower) == [
        MQTTClient.Message(
          topic: "wodclock/main/state", payload: Array("running".utf8), retained: true,
          qos: .atLeastOnce)
      ])
  }

  @Test func theWillIsPublishedWhenTheConnectionDropsButNotAfterACleanClose() throws {
    let broker = try MosquittoBroker()
    let loop = try ClientLoop()
    let observer = try loop.add(
      MQTTClient.Options(clientID: "observer"), connectingTo: broker.address)
    #expect(try loop.pump { loop.client(observer).isConnected })
    try loop.client(observer).subscribe("wodclock/main/leader")
    try loop.client(observer).subscribe("wodclock/main/marker")
    #expect(try loop.pump { loop.events[observer].count >= 3 })

    let will = MQTTClient.Will(
      topic: "wodclock/main/leader", payload: Array("offline".utf8), qos: .atLeastOnce,
      retain: true)
    let leader = try loop.add(
      MQTTClient.Options(clientID: "leader", keepAliveSeconds: 5, will: will),
      connectingTo: broker.address)
    #expect(try loop.pump { loop.client(leader).isConnected })
    try loop.client(leader).publish(
      topic: "wodclock/main/leader", payload: Array("online".utf8), qos: .atLeastOnce,
      retain: true)
    #expect(try loop.pump { loop.messages(observer).map(\.payload).map(text) == ["online"] })

    // The connection drops without a DISCONNECT, as when the leader's machine loses power:
    // the broker sees the socket end and publishes the will.
    let watch = try #require(loop.client(leader).watch)
    #expect(shutdown(watch.descriptor.rawValue, Int32(SHUT_RDWR)) == 0)
    #expect(
      try loop.pump { loop.messages(observer).map(\.payload).map(text) == ["online", "offline"] })
    #expect(try loop.pump { loop.connections(leader) == 2 })
    let drop = loop.events[leader].first {
      if case .disconnected = $0 { return true }
      return false
    }
    guard case .disconnected(let expected, let error) = drop else {
      Issue.record("no disconnection in \(loop.events[leader])")
      return
    }
    #expect(!expected)
    #expect(error?.reason == .connectionLost)

    // Back, says so, then closes cleanly: DISCONNECT is sent and the will is not published.
    try loop.client(leader).publish(
      topic: "wodclock/main/leader", payload: Array("online".utf8), qos: .atLeastOnce,
      retain: true)
    #expect(try loop.pump { loop.messages(observer).count == 3 })
    loop.client(leader).close()
    // Two round trips through the broker after the close: by then it has long handled the
    // leader's socket, and a will would have come first.
    for marker in ["1", "2"] {
      try loop.client(observer).publish(
        topic: "wodclock/main/marker", payload: Array(marker.utf8), qos: .atLeastOnce)
      #expect(try loop.pump { loop.messages(observer).last?.payload == Array(marker.utf8) })
    }
    #expect(
      loop.messages(observer).map(\.payload).map(text) == [
        "online", "offline", "online", "1", "2",
      ])
  }

  @Test func twoClientsWithOneIDSayTheClashAndStopTakingTheConnectionFromEachOther() throws {
    let broker = try MosquittoBroker()
    let loop = try ClientLoop()
    let options = MQTTClient.Options(
      clientID: "twin", keepAliveSeconds: 5,
      reconnectBackoff: RetryBackoff(initial: 250_000_000, maximum: 1_000_000_000))
    let first = try loop.add(options, connectingTo: broker.address)
    #expect(try loop.pump { loop.client(first).isConnected })
    let second = try loop.add(options, connectingTo: broker.address)
    #expect(
      try loop.pump { loop.client(first).clientIDClash || loop.client(second).clientIDClash })
    let clashed = loop.client(first).clientIDClash ? first : second
    let said = loop.events[clashed].compactMap { event -> MQTTError? in
      if case .disconnected(_, let error?) = event, error.reason == .clientIDTaken { return error }
      return nil
    }
    #expect(said.count == 1)
    #expect(said.first?.message.contains("another client uses the client id \"twin\"") == true)
    #expect(loop.client(clashed).clientIDTakeOvers >= 1)
    // It waits half a minute or more: the other keeps the connection meanwhile.
    let now = MonotonicClock.now()
    #expect((loop.client(clashed).nextWakeUp ?? .max) - now >= 20_000_000_000)
    let accepted = {
      loop.client(first).connectionsAccepted + loop.client(second).connectionsAccepted
    }
    let before = accepted()
    let end = MonotonicClock.now() + 3_000_000_000
    while MonotonicClock.now() < end { try loop.turn() }
    // At most the connection that took this one's over, still in flight at the clash.
    #expect(accepted() - before <= 1)
    #expect(loop.client(first).isConnected != loop.client(second).isConnected)
  }

  @Test func aWrongPasswordIsRefusedWithItsOwnReasonAndTheRightOneIsLetIn() throws {
    let broker = try MosquittoBroker(
      users: [("clock", "right horse battery")],
      acl: "user clock\ntopic readwrite wodclock/#\n")
    let loop = try ClientLoop()
    let wrong = try loop.add(
      MQTTClient.Options(clientID: "wrong", username: "clock", password: Array("staple".utf8)),
      connectingTo: broker.address)
    let anonymous = try loop.add(
      MQTTClient.Options(clientID: "anonymous"), connectingTo: broker.address)
    let right = try loop.add(
      MQTTClient.Options(
        clientID: "right", username: "clock", password: Array("right horse battery".utf8)),
      connectingTo: broker.address)
    #expect(
      try loop.pump {
        loop.client(right).isConnected && !loop.events[wrong].isEmpty
          && !loop.events[anonymous].isEmpty
      })

    guard case .refused(let refusal) = loop.events[wrong].first else {
      Issue.record("not refused: \(loop.events[wrong])")
      return
    }
    #expect(refusal.reason == .credentialsRefused(code: 0x87))
    #expect(
      refusal.message
        == "the MQTT broker at \(broker.address) refused the username or password (Not authorized)")
    #expect(refusal.hint?.contains("mosquitto_passwd") == true)
    // The refusal is reported once, not again as a dropped connection, and tried again later.
    #expect(loop.events[wrong].count == 1)
    #expect(!loop.client(wrong).isConnected && loop.client(wrong).watch == nil)
    #expect(loop.client(wrong).nextWakeUp != nil)

    guard case .refused(let anonymousRefusal) = loop.events[anonymous].first else {
      Issue.record("not refused: \(loop.events[anonymous])")
      return
    }
    #expect(anonymousRefusal.hint?.contains("set `username` and a `password_file`") == true)

    // The ACL lets the user read and write its own topics only: mosquitto 2.0 grants the
    // subscription and keeps out what the user may not see or publish. Sent in order on one
    // connection, the allowed message arriving says the other was handled before it.
    try loop.client(right).subscribe("#")
    #expect(try loop.pump { loop.events[right].count == 2 })
    try loop.client(right).publish(topic: "other/state", payload: [1], qos: .atLeastOnce)
    try loop.client(right).publish(topic: "wodclock/main/state", payload: [2], qos: .atLeastOnce)
    #expect(try loop.pump { !loop.messages(right).isEmpty })
    #expect(loop.messages(right).map(\.topic) == ["wodclock/main/state"])
  }

  @Test func noBrokerIsReportedAndTriedAgainAtTheBackoffsInstants() throws {
    // A port nothing listens on.
    let probe = try TCPListener(SocketAddress(.loopbackIPv4, port: 0))
    let address = probe.address
    try probe.close()
    let client = try MQTTClient(options: MQTTClient.Options(clientID: "alone"))
    let poller = try EventPoller()
    defer { try? poller.close() }

    /// Hands the client its socket's readiness at the instant `now` until the attempt is over.
    func settle(at now: Int64) throws -> [MQTTClient.Event] {
      var events = client.takeEvents()
      var tries = 0
      while let watch = client.watch, tries < 100 {
        tries += 1
        try poller.register(watch.descriptor, token: 1, interest: [.readable, .writable])
        let ready = try poller.wait(timeoutMilliseconds: 100)
        try? poller.unregister(watch.descriptor)
        events += client.handleReady(
          readable: ready.contains { $0.isReadable || $0.isError || $0.isHangup },
          writable: ready.contains(where: \.isWritable), now: now)
      }
      return events
    }

    let second: Int64 = 1_000_000_000
    try client.connect(to: address, now: 0)
    var events = try settle(at: 0)
    guard case .connectionFailed(let error) = events.first, events.count == 1 else {
      Issue.record("not a failure: \(events)")
      return
    }
    #expect(error.reason == .connectionFailed(.connectionRefused))
    #expect(
      error.message
        == "cannot connect to the MQTT broker at \(address): Connection refused (ECONNREFUSED)")
    #expect(error.hint?.hasPrefix("nothing listens on port \(address.port) there") == true)
    #expect(client.nextWakeUp == 1 * second)

    // Before its instant nothing is tried; at it, one attempt, and the wait doubles to 30 s.
    #expect(client.handleReady(readable: false, writable: false, now: second - 1).isEmpty)
    var instant = 1 * second
    for wait in [2, 4, 8, 16, 30, 30] as [Int64] {
      events = client.handleReady(readable: false, writable: false, now: instant)
      events += try settle(at: instant)
      #expect(events.count == 1, "at \(instant): \(events)")
      #expect(client.nextWakeUp == instant + wait * second)
      instant += wait * second
    }
  }

  @Test func aBrokerThatStopsAndComesBackIsFoundAgainWithTheSubscriptions() throws {
    let broker = try MosquittoBroker()
    let loop = try ClientLoop()
    let follower = try loop.add(
      MQTTClient.Options(clientID: "follower"), connectingTo: broker.address)
    #expect(try loop.pump { loop.client(follower).isConnected })
    try loop.client(follower).subscribe("wodclock/main/#")
    #expect(try loop.pump { loop.events[follower].count == 2 })
    let firstConnection = try #require(loop.client(follower).watch).connection

    try broker.stop()
    #expect(try loop.pump { !loop.client(follower).isConnected })
    try broker.start()
    #expect(try loop.pump { loop.client(follower).isConnected })
    #expect(try #require(loop.client(follower).watch).connection > firstConnection)
    #expect(
      try loop.pump {
        loop.events[follower].count(where: {
          $0 == .subscribed(filter: "wodclock/main/#", granted: .atLeastOnce)
        }) == 2
      })

    // The broker kept nothing (no persistence): the message arrives because the client
    // subscribed again by itself.
    let leader = try loop.add(MQTTClient.Options(clientID: "leader"), connectingTo: broker.address)
    #expect(try loop.pump { loop.client(leader).isConnected })
    try loop.client(leader).publish(
      topic: "wodclock/main/state", payload: Array("paused".utf8), qos: .atLeastOnce)
    #expect(try loop.pump { loop.messages(follower).map(\.payload).map(text) == ["paused"] })
    let drop = loop.events[follower].first {
      if case .disconnected = $0 { return true }
      return false
    }
    #expect(drop != nil)
  }

  @Test func aHostNameIsRefusedForAnAddress() throws {
    let client = try MQTTClient(options: MQTTClient.Options(clientID: "named"))
    #expect(throws: MQTTError.self) { try client.connect(host: "broker.local", port: 1883, now: 0) }
    do {
      try client.connect(host: "broker.local", port: 1883, now: 0)
    } catch {
      #expect(error.reason == .notNumericAddress)
      #expect(error.message.hasPrefix("\"broker.local\" is not a numeric address"))
    }
    #expect(client.watch == nil && client.nextWakeUp == nil)
  }

  @Test func aCAFileThatDoesNotLoadIsAClearError() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    do {
      _ = try MQTTClient(
        options: MQTTClient.Options(
          clientID: "tls", certificateAuthorityFile: scratch.file("missing.pem")))
      Issue.record("a missing CA file was taken")
    } catch {
      #expect(error.reason == .certificateAuthorityFile)
      #expect(
        error.message == "cannot read the MQTT broker's CA file \(scratch.file("missing.pem"))")
    }
    try writeFile(scratch.file("garbage.pem"), text: "not a certificate\n")
    let client = try MQTTClient(
      options: MQTTClient.Options(
        clientID: "tls", certificateAuthorityFile: scratch.file("garbage.pem")))
    do {
      try client.connect(host: "127.0.0.1", port: 8883, now: 0)
      Issue.record("a CA file without certificates was taken")
    } catch {
      #expect(error.reason == .certificateAuthorityFile)
      #expect(
        error.message
          == "the MQTT broker's CA file \(scratch.file("garbage.pem")) does not load: no certificate or crl found"
      )
    }
  }

  @Test func settingsTheProtocolRefusesAreErrorsNotTraps() throws {
    for options in [
      MQTTClient.Options(clientID: ""),
      MQTTClient.Options(clientID: "a", keepAliveSeconds: 1),
      MQTTClient.Options(clientID: "a", keepAliveSeconds: 70_000),
      MQTTClient.Options(clientID: "a", password: [1]),
      MQTTClient.Options(clientID: "a", username: "u", password: [0x41, 0, 0x42]),
      MQTTClient.Options(clientID: "a", will: MQTTClient.Will(topic: "a/#", payload: [])),
      MQTTClient.Options(clientID: "a\u{0}b"),
    ] {
      #expect(throws: MQTTError.self, "\(options)") { _ = try MQTTClient(options: options) }
    }
    let client = try MQTTClient(options: MQTTClient.Options(clientID: "a"))
    #expect(throws: MQTTError.self) { try client.subscribe("a/#/b") }
    #expect(throws: MQTTError.self) { try client.publish(topic: "a", payload: []) }
    #expect(client.subscriptions.isEmpty)
  }
}
