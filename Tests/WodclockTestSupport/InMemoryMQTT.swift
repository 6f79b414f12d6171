// SPDX-License-Identifier: MIT
// An MQTT broker in memory and its clients, for the link between clocks on manual time: several
// daemons in the test's process connect to one broker, publish, subscribe with wildcards, keep
// retained messages and last wills, lose their connection when the broker stops, take a client
// id over from each other, and are cut off without a word as a clock that loses its power. No
// socket, no library, no real time: three clocks agreeing is an exact assertion, and an outage of
// 20 s takes none. What only the real client does (the socket, TLS, reason codes on the wire) is
// tested against Debian's mosquitto (MQTTClientTests, Tests/link).
//
// The semantics are MQTT v5's, as far as the link uses them: a client's own messages reach it
// when it subscribes to them (section 3.8.3.1, No Local 0); a subscription gets the retained
// messages of its filter, flagged retained (section 3.3.1.3), a message published live does not
// carry the flag; an empty retained message clears the topic (section 3.3.1.3); a second client
// with a client id ends the first one's connection with 0x8E "Session taken over" (section
// 3.1.4); a will is published when a connection ends without a DISCONNECT of reason 0 (section
// 3.1.2.5), and after 1.5 times the keepalive of silence (section 3.1.2.10). The broker keeps no
// retained message across a restart, as mosquitto with `persistence false`.

public import HardwareKit

/// A broker in the test's memory, on the test's clock.
public final class InMemoryBroker {
  /// Where the clocks are told the broker is (their `mqtt: broker:`); nothing listens there.
  public let address: SocketAddress
  /// Whether the broker is up: while it is not, every attempt fails as a refused connection.
  public private(set) var isRunning = true
  /// User names and their passwords; empty, the broker takes anonymous clients.
  public var users: [String: [UInt8]] = [:]
  /// Every message published through the broker, in order: what a `mosquitto_sub -t '#' -v`
  /// would have seen (the clients' and the test's own).
  public private(set) var published: [PublishedMessage] = []
  private let now: () -> Int64
  private var retained: [(topic: String, payload: [UInt8])] = []
  /// The connections the broker holds, in the order they were accepted.
  private var sessions: [InMemoryMQTTClient] = []
  /// Clients whose process went without a word: the broker still holds their connection, until
  /// it notices the silence (1.5 times the keepalive) and publishes their will.
  private var silent: [(client: InMemoryMQTTClient, noticedAt: Int64)] = []
  private var nextMessageID = 1

  /// A message as it went through the broker.
  public struct PublishedMessage: Sendable {
    /// The client id of who published it; nil for the test's own, or a will.
    public var from: String?
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    /// The payload as text.
    public var text: String { String(decoding: payload, as: UTF8.self) }
  }

  /// A broker running at `address`, whose clock is `now` (monotonic nanoseconds).
  public init(
    address: SocketAddress = SocketAddress(.loopbackIPv4, port: 1883),
    now: @escaping () -> Int64
  ) {
    self.address = address
    self.now = now
  }

  // MARK: - What the test does

  /// The broker stops: every connection ends (no will: the broker is gone), and with
  /// `persistence false` the retained messages go with it.
  public func stop() {
    isRunning = false
    let ended = sessions
    sessions = []
    silent = []
    retained = []
    for client in ended { client.connectionEnded(.lost, at: now()) }
  }

  /// The broker starts again; clients find it at their next attempt.
  public func start() {
    isRunning = true
  }

  /// Publishes as a client of the test's own would (`mosquitto_pub`): Home Assistant's
  /// birth, a forged or oversized message.
  public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) {
    route(topic: topic, payload: payload, retain: retain, from: nil)
  }

  /// The retained message of `topic`, if any.
  public func retainedMessage(_ topic: String) -> [UInt8]? {
    retained.first { $0.topic == topic }?.payload
  }

  /// The retained messages whose topic `filter` matches, in the order they were retained.
  public func retainedMessages(matching filter: String) -> [(topic: String, text: String)] {
    retained.filter { Self.matches(filter, $0.topic) }.map {
      ($0.topic, String(decoding: $0.payload, as: UTF8.self))
    }
  }

  /// The client ids of the connections the broker holds now.
  public var connectedClientIDs: [String] { sessions.map(\.options.clientID) }

  /// When the broker next has something to do on its own: it notices a silent client.
  public var nextDeadline: Int64? { silent.map(\.noticedAt).min() }

  /// Does what is due at `now`: the wills of clients silent for 1.5 times their keepalive.
  public func expire(at now: Int64) {
    let due = silent.filter { $0.noticedAt <= now }
    silent.removeAll { $0.noticedAt <= now }
    for (client, _) in due where sessions.contains(where: { $0 === client }) {
      sessions.removeAll { $0 === client }
      publishWill(of: client)
    }
  }

  // MARK: - What the clients do

  enum Handshake {
    case accepted
    case refused(code: Int)
    case unreachable
  }

  func handshake(_ client: InMemoryMQTTClient, to address: SocketAddress) -> Handshake {
    guard isRunning, address == self.address else { return .unreachable }
    if !users.isEmpty {
      // 0x86 "Bad User Name or Password" (MQTT v5 section 3.2.2.2).
      guard let name = client.options.username, users[name] == client.options.password else {
        return .refused(code: 0x86)
      }
    }
    // Section 3.1.4: the connection of a client with the same id ends, its will is published.
    for other in sessions
    where other !== client && other.options.clientID == client.options.clientID {
      sessions.removeAll { $0 === other }
      silent.removeAll { $0.client === other }
      other.connectionEnded(.sessionTakenOver, at: now())
      publishWill(of: other)
    }
    sessions.removeAll { $0 === client }
    sessions.append(client)
    return .accepted
  }

  /// The retained messages a new subscription gets.
  func subscribed(_ client: InMemoryMQTTClient, to filter: String) {
    for message in retained where Self.matches(filter, message.topic) {
      client.deliver(
        MQTTClient.Message(
          topic: message.topic, payload: message.payload, retained: true, qos: .atLeastOnce))
    }
  }

  func publish(
    from client: InMemoryMQTTClient, topic: String, payload: [UInt8], retain: Bool
  ) -> Int {
    route(topic: topic, payload: payload, retain: retain, from: client.options.clientID)
    defer { nextMessageID = nextMessageID % 65_535 + 1 }
    return nextMessageID
  }

  /// A clean DISCONNECT: no will.
  func disconnected(_ client: InMemoryMQTTClient) {
    sessions.removeAll { $0 === client }
    silent.removeAll { $0.client === client }
  }

  /// The client's process went: the broker notices after 1.5 times its keepalive.
  func wentSilent(_ client: InMemoryMQTTClient) {
    guard sessions.contains(where: { $0 === client }) else { return }
    let keepAlive = Int64(client.options.keepAliveSeconds) * 1_000_000_000
    silent.append((client, now() + keepAlive + keepAlive / 2))
  }

  private func publishWill(of client: InMemoryMQTTClient) {
    guard let will = client.options.will else { return }
    route(topic: will.topic, payload: will.payload, retain: will.retain, from: nil)
  }

  private func route(topic: String, payload: [UInt8], retain: Bool, from sender: String?) {
    guard isRunning else { return }
    published.append(
      PublishedMessage(from: sender, topic: topic, payload: payload, retain: retain))
    if retain {
      retained.removeAll { $0.topic == topic }
      if !payload.isEmpty { retained.append((topic, payload)) }
    }
    let message = MQTTClient.Message(
      topic: topic, payload: payload, retained: false, qos: .atLeastOnce)
    for client in sessions where client.subscriptions.contains(where: { Self.matches($0, topic) }) {
      client.deliver(message)
    }
  }

  /// Whether a topic filter matches a topic (MQTT v5 section 4.7): `+` one level, `#` this
  /// level and every one below (`a/#` matches `a` too).
  public static func matches(_ filter: String, _ topic: String) -> Bool {
    let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
    let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
    for (index, level) in filterLevels.enumerated() {
      if level == "#" { return true }
      guard index < topicLevels.count else { return false }
      if level != "+" && level != topicLevels[index] { return false }
    }
    return filterLevels.count == topicLevels.count
  }
}

/// A client of an ``InMemoryBroker``: the ``MQTTTransport`` a daemon under test is given. Its
/// connection's life (attempts, the waits between them, a clash) is ``MQTTConnectionCycle``'s,
/// as the real client's is; the broker answers an attempt at the client's next turn.
public final class InMemoryMQTTClient: MQTTTransport {
  public let options: MQTTClient.Options
  private let broker: InMemoryBroker
  private var cycle: MQTTConnectionCycle
  private var events: [MQTTClient.Event] = []
  private(set) var subscriptions: [String] = []
  private var address: SocketAddress?
  /// An attempt the broker answers at the next turn.
  private var attemptPending = false
  /// The instant of the last call that gave one.
  private var lastNow: Int64 = 0
  /// The process went without a word: nothing reaches it any more.
  public private(set) var isSilent = false
  public private(set) var droppedEvents: UInt64 = 0
  public private(set) var droppedOversizeMessages: UInt64 = 0

  init(options: MQTTClient.Options, broker: InMemoryBroker) {
    self.options = options
    self.broker = broker
    cycle = MQTTConnectionCycle(backoff: options.reconnectBackoff)
  }

  /// An ``MQTTTransportMaker`` for clients of one broker, recording every client it makes.
  public final class Maker: @unchecked Sendable {
    public let broker: InMemoryBroker
    public private(set) var made: [InMemoryMQTTClient] = []

    public init(broker: InMemoryBroker) {
      self.broker = broker
    }

    /// The client made last.
    public var current: InMemoryMQTTClient? { made.last }

    public func make(_ options: MQTTClient.Options) throws(MQTTError) -> any MQTTTransport {
      let client = InMemoryMQTTClient(options: options, broker: broker)
      made.append(client)
      return client
    }
  }

  // MARK: - What the link calls

  public var watch: MQTTClient.Watch? { nil }
  public var isConnected: Bool { cycle.isConnected }
  public var retryWait: Int64? { cycle.retryWait }
  public var connectionsAccepted: Int { cycle.connectionsAccepted }
  public var clientIDTakeOvers: Int { cycle.clientIDTakeOvers }
  public var clientIDClash: Bool { cycle.clientIDClash }

  /// Now when something waits to be handed over; else the next attempt, or the instant a
  /// connection has been held long enough to end a clash.
  public var nextWakeUp: Int64? {
    if isSilent { return nil }
    if !events.isEmpty || attemptPending { return lastNow }
    if case .waiting(let retryAt) = cycle.phase { return retryAt }
    return cycle.clashEnds
  }

  public func connect(to address: SocketAddress, now: Int64) throws(MQTTError) {
    guard cycle.phase != .closed else {
      throw MQTTError(reason: .notConnected, message: "the MQTT client is closed")
    }
    if cycle.isConnected { broker.disconnected(self) }
    self.address = address
    lastNow = max(lastNow, now)
    cycle.restart()
    cycle.attemptStarted()
    attemptPending = true
  }

  public func handleReady(readable: Bool, writable: Bool, now: Int64) -> [MQTTClient.Event] {
    lastNow = max(lastNow, now)
    cycle.noteHeld(at: now)
    if cycle.attemptDue(at: now) {
      cycle.attemptStarted()
      attemptPending = true
    }
    if attemptPending {
      attemptPending = false
      answer(broker.handshake(self, to: address ?? broker.address), at: now)
    }
    defer { events = [] }
    return events
  }

  @discardableResult
  public func publish(topic: String, payload: [UInt8], qos: MQTTClient.QoS, retain: Bool)
    throws(MQTTError) -> Int
  {
    guard isConnected, !isSilent else {
      throw MQTTError(
        reason: .notConnected,
        message: "cannot publish to \(topic): not connected to the MQTT broker")
    }
    guard !topic.isEmpty, !topic.contains("+"), !topic.contains("#") else {
      throw MQTTError(
        reason: .invalidSetting, message: "cannot publish to \"\(topic)\": not a topic")
    }
    return broker.publish(from: self, topic: topic, payload: payload, retain: retain)
  }

  public func subscribe(_ filter: String, qos: MQTTClient.QoS) throws(MQTTError) {
    let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
    let wildcardsInPlace = levels.enumerated().allSatisfy { index, level in
      (level == "#" && index == levels.count - 1) || level == "+"
        || (!level.contains("#") && !level.contains("+"))
    }
    guard !filter.isEmpty, wildcardsInPlace else {
      throw MQTTError(
        reason: .invalidSetting, message: "cannot subscribe to \"\(filter)\": not a topic filter")
    }
    if !subscriptions.contains(filter) { subscriptions.append(filter) }
    if isConnected { sendSubscription(filter, qos: qos) }
  }

  public func unsubscribe(_ filter: String) {
    subscriptions.removeAll { $0 == filter }
  }

  public func close() {
    if cycle.isConnected { broker.disconnected(self) }
    cycle.close()
    attemptPending = false
  }

  // MARK: - What the test does

  /// The clock's process is gone without a word (SIGKILL, a power cut): nothing reaches it,
  /// and the broker publishes its will once it notices the silence.
  public func goSilent() {
    isSilent = true
    broker.wentSilent(self)
  }

  // MARK: - What the broker does

  func deliver(_ message: MQTTClient.Message) {
    guard !isSilent else { return }
    if message.payload.count > options.maximumPayloadBytes {
      droppedOversizeMessages += 1
    } else if events.count >= options.maximumQueuedEvents {
      droppedEvents += 1
    } else {
      events.append(.message(message))
    }
  }

  func connectionEnded(_ cause: MQTTConnectionCycle.Cause, at now: Int64) {
    lastNow = max(lastNow, now)
    let wasConnected = cycle.isConnected
    let ending = cycle.ended(cause, at: now)
    guard wasConnected, !isSilent else { return }
    switch ending {
    case .clientIDClash?:
      events.append(
        .disconnected(
          expected: false,
          MQTTError(
            reason: .clientIDTaken,
            message: "another client uses the client id \"\(options.clientID)\" on the MQTT "
              + "broker at \(broker.address)")))
    case .asked?:
      events.append(.disconnected(expected: true, nil))
    default:
      events.append(
        .disconnected(
          expected: false,
          MQTTError(
            reason: .connectionLost,
            message: "the MQTT broker at \(broker.address) closed the connection")))
    }
  }

  private func answer(_ handshake: InMemoryBroker.Handshake, at now: Int64) {
    switch handshake {
    case .accepted:
      cycle.accepted(at: now)
      events.append(.connected(sessionPresent: false))
      for filter in subscriptions { sendSubscription(filter, qos: .atLeastOnce) }
    case .refused(let code):
      events.append(
        .refused(
          MQTTError(
            reason: .credentialsRefused(code: code),
            message: "the MQTT broker at \(broker.address) refused the username or password")))
      cycle.attemptFailed(at: now)
    case .unreachable:
      let target = address ?? broker.address
      events.append(
        .connectionFailed(
          MQTTError(
            reason: .connectionFailed(.connectionRefused),
            message: "cannot connect to the MQTT broker at \(target): "
              + "\(Errno.connectionRefused)")))
      cycle.attemptFailed(at: now)
    }
  }

  private func sendSubscription(_ filter: String, qos: MQTTClient.QoS) {
    events.append(.subscribed(filter: filter, granted: qos))
    broker.subscribed(self, to: filter)
  }
}
