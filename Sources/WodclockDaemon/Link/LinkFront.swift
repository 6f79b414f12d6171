// SPDX-License-Identifier: MIT
// The link between clocks in the daemon's loop: one MQTT connection (an MQTTTransport the
// daemon is given: HardwareKit's MQTTClient, libmosquitto in its external-loop mode) that a leader publishes its workout on
// and a follower takes it from, commands from followers and Home Assistant, and Home
// Assistant's discovery. What is published and how a follower computes the same second is
// ClockLink's (docs/link-protocol.md); this part moves messages and asks the daemon.

import ClockLink
import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import ProductVersion
import RetryKit
import WorkoutCore

/// What the link needs of the daemon.
protocol LinkDaemonAccess: AnyObject {
  /// One reading of this clock, now: its engine instant and wall clock at one instant.
  func linkReading() -> ClockReading
  /// How many changes the workout has had (``EngineHost/revision``): asked on every publish.
  var linkRevision: Int { get }
  /// The engine as it is (a copy: asked only when the revision moved).
  var linkEngine: WorkoutEngine { get }
  /// The start a leader has asked for, taking effect at that engine instant.
  var linkPendingStart: EngineInstant? { get }
  /// The snapshot at `now`, for Home Assistant's state.
  func linkSnapshot(at now: Int64) -> WorkoutSnapshot
  /// The config's preset names, for Home Assistant's select.
  var linkPresetNames: [String] { get }
  /// The loaded workout's notation (nil: it has none), and whether it is the config's preset
  /// of its name: Home Assistant's text and select show it.
  var linkLoadedWorkout: (notation: String?, isPreset: Bool) { get }
  /// A follower takes the leader's workout (its engine on this clock and pending start).
  func linkAdopt(_ workout: LinkedWorkout, named name: String, at now: Int64)
  /// A command from the broker, carried out here as the socket's would be; the reply.
  func linkPerform(_ request: CommandRequest, at now: Int64) -> JSONValue
  /// The link's sign changed: redraw.
  func linkSignChanged(at now: Int64)
}

/// One clock's side of the link.
final class LinkFront {
  let settings: MQTTSettings
  let room: LinkRoom
  let clientID: LinkClientID
  /// Whether this clock runs its room's leader's workout: a follower by its config, or a
  /// leader that found another clock leading its room (`on_conflict: follow`).
  var isFollower: Bool {
    settings.role == .follower
      || (election?.yieldedTo != nil && settings.onConflict == .follow)
  }
  /// Whether this clock runs its own workout for nobody else: a leader that found another
  /// clock leading its room (`on_conflict: standalone`).
  var isStandalone: Bool {
    election?.yieldedTo != nil && settings.onConflict == .standalone
  }
  private let client: any MQTTTransport
  private let logger: Logger
  private let clock: DaemonClock
  private unowned let daemon: any LinkDaemonAccess
  private let resolver: AddressResolver
  private var lookup: AddressLookup?
  private var retiredLookup: AddressLookup?
  private var resolveRetryAt: Int64?
  /// The socket registered with the loop, by the client's count of its connections.
  var registeredWatch: MQTTClient.Watch?

  // Leader
  private var sequence: LeaderSequence
  private var published: (revision: Int, pendingStart: EngineInstant?)?
  /// Whether this leader leads its room (nil for a follower by config).
  private var election: LeaderElection?
  /// This run's claim, once published.
  private var ownClaim: LeaderClaim?
  /// The room's newest state message seen while not following: a leader that gives way and
  /// follows starts from it.
  private var lastRoomState: LeaderState?
  /// Messages dropped as unreadable (a state, a claim or a command that does not decode), and
  /// how many oversized ones were said in the log.
  private(set) var droppedMalformed: UInt64 = 0
  private var oversizedLogged: UInt64 = 0
  /// Whether the current client id clash was said.
  private var clashSaid = false
  // Follower
  private var follower: FollowerLink
  private var nextSynchronizationCheck: Int64 = 0
  private var nextRequestID: Int64 = 1
  // Home Assistant
  private var homeAssistant: HomeAssistantDiscovery?
  private var homeAssistantState: HomeAssistantState?
  /// The last problem logged about the broker: each outage is said once, and its end.
  private var brokerProblem: String?

  /// A leader that loses its power or its network is known gone (its last will) 1.5 times this
  /// after its last word (MQTT v5 section 3.1.2.10): a ping every 5 s costs nothing, and the
  /// followers say "leader offline" within 8 s.
  static let keepAliveSeconds = 5
  /// A clock cut off from its room tries again soon: the broker is on the gym's own network,
  /// and a clock that reconnects a second after the broker is back shows the room's workout
  /// at once. An attempt a second at most costs a refused connection.
  static let reconnectBackoff = RetryBackoff(initial: 250_000_000, maximum: 1_000_000_000)

  /// How often a follower asks whether its wall clock is synchronized.
  static let synchronizationCheckInterval: Int64 = 5_000_000_000
  /// How long after a failed name lookup it is tried again.
  static let lookupRetry: Int64 = 10_000_000_000

  init(
    settings: MQTTSettings, password: [UInt8]?, clientID: LinkClientID,
    daemon: any LinkDaemonAccess,
    logger: Logger, clock: DaemonClock, speed: Int64,
    transport: MQTTTransportMaker = MQTTClient.make, resolver: AddressResolver = .wodclockd
  ) throws(MQTTError) {
    self.settings = settings
    // The loader checked the room's name.
    self.room = LinkRoom(settings.room) ?? .standard
    self.clientID = clientID
    self.daemon = daemon
    self.logger = logger
    self.clock = clock
    self.resolver = resolver
    let wall = clock.wall()
    sequence = LeaderSequence(startingAt: wall.seconds &* 1_000_000_000 &+ Int64(wall.nanoseconds))
    follower = FollowerLink(speed: speed, synchronized: clock.synchronized())
    if settings.role == .leader { election = LeaderElection(own: clientID) }
    // Every clock's last will is its own availability: a clock that leaves marks only itself
    // offline, and the room's leader is offline when its claimant's own topic says so.
    client = try transport(
      MQTTClient.Options(
        clientID: clientID.text,
        keepAliveSeconds: Self.keepAliveSeconds, username: settings.username, password: password,
        certificateAuthorityFile: settings.tls.map(Self.certificateAuthorities),
        will: MQTTClient.Will(
          topic: room.availabilityTopic(of: clientID),
          payload: Array(LinkAvailability.offline.utf8)),
        maximumPayloadBytes: LeaderState.maximumBytes,
        reconnectBackoff: Self.reconnectBackoff))
    if settings.homeAssistant {
      homeAssistant = discovery(presets: daemon.linkPresetNames)
    }
  }

  /// Debian's bundle of the system's certificate authorities (ca-certificates), the file form
  /// of the directory `tls: true` names.
  static let systemCertificateBundle = "/etc/ssl/certs/ca-certificates.crt"

  private static func certificateAuthorities(_ tls: MQTTTLS) -> String {
    switch tls {
    case .systemCertificates: systemCertificateBundle
    case .caFile(let file): file.path
    }
  }

  private var availabilityTopic: String { room.availabilityTopic(of: clientID) }

  private func discovery(presets: [String]) -> HomeAssistantDiscovery {
    HomeAssistantDiscovery(
      room: room, client: clientID,
      device: HomeAssistantDevice(
        name: "wodclock \(clientID.text)", softwareVersion: WodclockVersion.current),
      presets: presets, prefix: settings.discoveryPrefix)
  }

  // MARK: - Connecting

  /// Connects, or starts looking the broker's name up first (in a child: a name server may
  /// take seconds, and the loop may not wait).
  func start(at now: Int64) {
    switch settings.broker.host {
    case .ipv4(let bytes):
      if let address = IPAddress(family: .ipv4, bytes: bytes) { connect(to: address, at: now) }
    case .ipv6(let bytes):
      if let address = IPAddress(family: .ipv6, bytes: bytes) { connect(to: address, at: now) }
    case .name(let name):
      do {
        lookup = try resolver.lookUp(name, at: now)
      } catch {
        problem("cannot look up the MQTT broker's name", error.description, at: now)
        resolveRetryAt = now + Self.lookupRetry
      }
    }
  }

  private func connect(to address: IPAddress, at now: Int64) {
    do {
      try client.connect(to: SocketAddress(address, port: settings.broker.port), now: now)
    } catch {
      problem("cannot connect to the MQTT broker", error.message, error.hint, at: now)
    }
  }

  /// What the loop watches for the broker's connection now.
  var watch: MQTTClient.Watch? { client.watch }

  /// The lookup's descriptor, while one runs.
  var lookupDescriptor: FileDescriptor? { lookup?.fileDescriptor }

  /// When the link must be called even if nothing is ready.
  func nextWakeUp() -> Int64? {
    var best = client.nextWakeUp
    func consider(_ candidate: Int64?) {
      if let candidate, candidate < (best ?? .max) { best = candidate }
    }
    consider(lookup?.deadline)
    consider(resolveRetryAt)
    if isFollower { consider(nextSynchronizationCheck) }
    return best
  }

  /// Does what is due: the lookup's answer, what the broker sent or waits to be sent, the
  /// keepalive, a follower's look at its wall clock.
  func service(readable: Bool, writable: Bool, at now: Int64) {
    retiredLookup?.cancel()
    retiredLookup = nil
    if let lookup, let result = lookup.result(at: now) {
      self.lookup = nil
      retiredLookup = lookup
      switch result {
      case .success(let addresses):
        if let first = addresses.first { connect(to: first, at: now) }
      case .failure(let error):
        problem("cannot look up the MQTT broker's name", error.description, at: now)
        resolveRetryAt = now + Self.lookupRetry
      }
    }
    if let retry = resolveRetryAt, now >= retry {
      resolveRetryAt = nil
      start(at: now)
    }
    for event in client.handleReady(readable: readable, writable: writable, now: now) {
      handle(event, at: now)
    }
    noteOversized()
    if clashSaid && !client.clientIDClash {
      clashSaid = false
      daemon.linkSignChanged(at: now)
    }
    if isFollower && now >= nextSynchronizationCheck {
      nextSynchronizationCheck = now + Self.synchronizationCheckInterval
      let before = follower.sign
      if let held = follower.clockSynchronization(clock.synchronized()) {
        apply(held, at: now)
      }
      if follower.sign != before { daemon.linkSignChanged(at: now) }
    }
  }

  private func handle(_ event: MQTTClient.Event, at now: Int64) {
    switch event {
    case .connected:
      connected(at: now)
    case .refused(let error), .connectionFailed(let error):
      problem("the MQTT broker is not reachable; trying again", error.message, error.hint, at: now)
    case .disconnected(let expected, let error):
      if error?.reason == .clientIDTaken {
        if !clashSaid {
          clashSaid = true
          brokerProblem = error?.message
          logger.error(
            "another client uses the client id '\(clientID.text)' on the MQTT broker "
              + "\(settings.broker): give each clock its own `mqtt: client_id:`",
            [
              ("room", room.name), ("take_overs", String(client.clientIDTakeOvers)),
              ("hint", error?.hint ?? ""),
            ])
        }
      } else if !expected {
        problem(
          "the connection to the MQTT broker ended; reconnecting",
          error?.message ?? "closed by the broker", error?.hint, at: now)
      }
      follower.brokerConnection(false)
      daemon.linkSignChanged(at: now)
    case .message(let message):
      received(message, at: now)
    case .subscribed(let filter, let granted):
      if granted == nil {
        logger.warning(
          "the MQTT broker refused a subscription (its ACL?)",
          [("topic", filter), ("room", room.name)])
      }
    case .delivered:
      break
    }
  }

  private func connected(at now: Int64) {
    if clashSaid {
      // Said once with the clash; every connection of it is not news.
    } else if brokerProblem != nil {
      logger.notice("connected to the MQTT broker again", [("broker", "\(settings.broker)")])
    } else {
      logger.info(
        "connected to the MQTT broker",
        [("broker", "\(settings.broker)"), ("room", room.name), ("role", settings.role.rawValue)])
    }
    if !clashSaid { brokerProblem = nil }
    election?.connected()
    // The claim first, so a follower knows the claimant before the retained state arrives;
    // the clocks' availability last, so the echo of this clock's own `online` comes after
    // everything retained (the election's barrier). Its own retained state tells a restarted
    // leader where its earlier run's sequence was.
    var filters = [room.claimTopic, room.stateTopic]
    if election?.yieldedTo == nil && settings.role == .leader { filters.append(room.commandTopic) }
    filters.append(room.availabilityFilter)
    for filter in filters { subscribe(filter) }
    follower.brokerConnection(true)
    daemon.linkSignChanged(at: now)
    if let homeAssistant {
      subscribe(homeAssistant.statusTopic)
      subscribe(room.homeAssistantCommandTopic(of: clientID, entity: "+"))
    }
    send(availabilityTopic, Array(LinkAvailability.online.utf8), retain: true)
    published = nil
    homeAssistantState = nil
    publishDiscovery()
    publishChanges(at: now)
  }

  private func subscribe(_ filter: String) {
    do {
      try client.subscribe(filter, qos: .atLeastOnce)
    } catch {
      logger.warning(
        "cannot subscribe on the MQTT broker", [("topic", filter), ("error", "\(error)")])
    }
  }

  /// Publishes `payload`; a failure is logged (a connection that just went: everything is
  /// published again on the next connection).
  @discardableResult
  private func send(
    _ topic: String, _ payload: [UInt8], retain: Bool, qos: MQTTClient.QoS = .atLeastOnce
  )
    -> Bool
  {
    guard client.isConnected else { return false }
    do {
      try client.publish(topic: topic, payload: payload, qos: qos, retain: retain)
      return true
    } catch {
      logger.warning(
        "cannot publish on the MQTT broker", [("topic", topic), ("error", "\(error)")])
      return false
    }
  }

  /// Logs a problem with the broker once, not on every retry.
  private func problem(_ message: String, _ detail: String, _ hint: String? = nil, at now: Int64) {
    guard brokerProblem != detail else { return }
    brokerProblem = detail
    var fields = [("broker", "\(settings.broker)"), ("error", detail)]
    if let hint { fields.append(("hint", hint)) }
    logger.warning(message, fields)
  }

  // MARK: - Messages

  private func received(_ message: MQTTClient.Message, at now: Int64) {
    if message.topic == room.stateTopic {
      receivedState(message.payload, at: now)
    } else if message.topic == room.claimTopic {
      receivedClaim(message.payload, at: now)
    } else if let other = room.availabilityClient(topic: message.topic) {
      let before = follower.sign
      follower.availability(of: other, message.payload)
      election?.availability(of: other, message.payload)
      if follower.sign != before && isFollower { daemon.linkSignChanged(at: now) }
      // The echo of this clock's own `online`, published after its subscriptions: what the
      // broker retained has all arrived.
      if other == clientID, !message.retained,
        message.payload.elementsEqual(LinkAvailability.online.utf8), let step = election?.barrier()
      {
        take(step, at: now)
      }
    } else if message.topic == room.commandTopic {
      receivedCommand(message.payload, at: now)
    } else if let homeAssistant {
      if homeAssistant.isBirth(topic: message.topic, payload: message.payload) {
        publishDiscovery()
        homeAssistantState = nil
        publishChanges(at: now)
      } else if let command = homeAssistant.command(
        topic: message.topic, payload: message.payload, requestID: takeRequestID())
      {
        let entity = String(message.topic.split(separator: "/").last ?? "")
        let result: HomeAssistantCommandResult
        switch command {
        case .success(let command):
          result = carryOut(command, from: "Home Assistant", at: now).forHomeAssistant(entity)
        case .failure(let error):
          logger.info("Home Assistant's command refused", [("error", error.message)])
          result = HomeAssistantCommandResult(
            outcome: .refused, entity: entity, message: error.message)
        }
        publishResult(result, at: now)
      }
    }
  }

  /// Says what became of Home Assistant's command where it shows it (the "Last command"
  /// sensor, retained, and the event), and publishes the entities' state again: after a
  /// refusal the text entity shows the workout still loaded, not the one typed.
  private func publishResult(_ result: HomeAssistantCommandResult, at now: Int64) {
    send(room.homeAssistantResultTopic(of: clientID), result.sensorPayload, retain: true)
    send(room.homeAssistantEventTopic(of: clientID), result.eventPayload, retain: false)
    homeAssistantState = nil
    publishChanges(at: now)
  }

  // MARK: - One leader a room

  private func receivedClaim(_ payload: [UInt8], at now: Int64) {
    guard !payload.isEmpty else {
      election?.claimCleared()
      return
    }
    let claim: LeaderClaim
    do {
      claim = try LeaderClaim.decode(payload)
    } catch {
      malformed("a leader's claim that cannot be read", error.message)
      return
    }
    let before = follower.sign
    if follower.claimArrived(claim) && isFollower {
      logger.info("the room's leader", [("room", room.name), ("leader", claim.client.text)])
    }
    if follower.sign != before && isFollower { daemon.linkSignChanged(at: now) }
    if let step = election?.claimArrived(claim, ownEpoch: ownClaim?.epoch ?? -1) {
      take(step, at: now)
    }
  }

  /// Does what the election decided.
  private func take(_ step: LeaderElection.Step, at now: Int64) {
    switch step {
    case .none:
      break
    case .publishClaim:
      let wall = clock.wall()
      let claim =
        ownClaim
        ?? LeaderClaim(
          client: clientID, epoch: sequence.current.epoch,
          sinceWallNanoseconds: wall.seconds &* 1_000_000_000 &+ Int64(wall.nanoseconds))
      ownClaim = claim
      send(room.claimTopic, claim.encoded, retain: true)
    case .lead:
      logger.info("leading the room", [("room", room.name), ("client_id", clientID.text)])
      published = nil
      publishChanges(at: now)
    case .reclaim:
      if let ownClaim {
        logger.notice(
          "another clock claimed the room after this one; it gives way",
          [("room", room.name), ("other", election?.roomClaim?.client.text ?? "")])
        send(room.claimTopic, ownClaim.encoded, retain: true)
      }
    case .yield(let other):
      let follows = settings.onConflict == .follow
      logger.warning(
        "another clock leads the room: this clock does not lead"
          + (follows ? "; it follows that clock" : "; it runs on its own"),
        [
          ("room", room.name), ("leader", other.text), ("client_id", clientID.text),
          (
            "hint",
            "give this clock `mqtt: role: follower`, or its own `room:`; "
              + "`on_conflict: \(settings.onConflict.rawValue)` decides what it does meanwhile"
          ),
        ])
      client.unsubscribe(room.commandTopic)
      if follows, let state = lastRoomState {
        lastRoomState = nil
        follow(state, at: now)
      }
      daemon.linkSignChanged(at: now)
    }
  }

  /// Counts an unreadable message, and says the first of each outage in the log.
  private func malformed(_ what: String, _ error: String) {
    droppedMalformed &+= 1
    guard droppedMalformed == 1 || droppedMalformed % 1000 == 0 else { return }
    logger.warning(
      what, [("room", room.name), ("error", error), ("dropped", String(droppedMalformed))])
  }

  /// Says in the log when the client first dropped a message over the size limit.
  private func noteOversized() {
    let dropped = client.droppedOversizeMessages
    guard dropped > oversizedLogged else { return }
    if oversizedLogged == 0 || dropped / 1000 > oversizedLogged / 1000 {
      logger.warning(
        "a message larger than \(LeaderState.maximumBytes / 1024) KiB was dropped unread",
        [("room", room.name), ("dropped", String(dropped))])
    }
    oversizedLogged = dropped
  }

  private func receivedState(_ payload: [UInt8], at now: Int64) {
    // An empty retained message clears the topic: nothing to follow.
    guard !payload.isEmpty else { return }
    let state: LeaderState
    do {
      state = try LeaderState.decode(payload)
    } catch {
      malformed("a state message that cannot be read", error.message)
      return
    }
    guard isFollower else {
      if state.leader == clientID {
        // Our own, from an earlier run (retained) or just now: go past an earlier run's stamp.
        if sequence.sawEarlierRun(state.stamp) { published = nil }
      }
      if !isStandalone { lastRoomState = state }
      publishChanges(at: now)
      return
    }
    follow(state, at: now)
  }

  private func follow(_ state: LeaderState, at now: Int64) {
    let before = follower.sign
    switch follower.receive(state) {
    case .apply:
      apply(state, at: now)
    case .ignoreOlder:
      break
    case .holdUntilSynchronized:
      logger.info(
        "the leader's workout waits for this clock's time to be synchronized",
        [("leader", state.leader.text)])
    case .refuseSpeed:
      logger.warning(
        "the leader runs at another --speed; not following",
        [("leader", state.leader.text), ("speed", String(state.speed))])
    case .ignoreNotClaimant(let claimant):
      logger.debug(
        "a state message from a clock that does not lead the room; ignored",
        [("from", state.leader.text), ("leader", claimant?.text ?? "none yet")])
    }
    if follower.sign != before { daemon.linkSignChanged(at: now) }
  }

  private func apply(_ state: LeaderState, at now: Int64) {
    do {
      let workout = try state.workout(at: daemon.linkReading())
      daemon.linkAdopt(workout, named: state.preset, at: now)
    } catch {
      logger.warning(
        "the leader's workout cannot be run on this clock",
        [("leader", state.leader.text), ("error", error.message)])
    }
  }

  private func receivedCommand(_ payload: [UInt8], at now: Int64) {
    guard election?.yieldedTo == nil, !isFollower else { return }
    do {
      let command = try LinkCommand.decode(payload)
      carryOut(command, from: command.client.text, at: now)
    } catch {
      malformed("a command from the broker that cannot be read", error.message)
    }
  }

  /// What became of a command from the broker.
  enum Outcome {
    case done(String)
    case refused(String)
    case sent(String)

    func forHomeAssistant(_ entity: String) -> HomeAssistantCommandResult {
      switch self {
      case .done(let words):
        HomeAssistantCommandResult(outcome: .accepted, entity: entity, message: words)
      case .refused(let words):
        HomeAssistantCommandResult(outcome: .refused, entity: entity, message: words)
      case .sent(let words):
        HomeAssistantCommandResult(outcome: .sent, entity: entity, message: words)
      }
    }
  }

  /// A command from a follower or Home Assistant: a leader carries it out, a follower sends it
  /// on to its leader.
  @discardableResult
  private func carryOut(_ command: LinkCommand, from sender: String, at now: Int64) -> Outcome {
    if isFollower {
      if let failure = forward(command) { return .refused(failure.message) }
      return .sent(
        "sent to the room's leader" + (follower.claimant.map { " \($0.text)" } ?? ""))
    }
    switch CommandProtocol.parse(command.requestLine) {
    case .success(let request):
      let reply = daemon.linkPerform(request, at: now)
      if reply["ok"] == false {
        let reason = reply["error"]?["message"]?.stringValue ?? "refused"
        logger.info(
          "a command from the broker was refused",
          [("from", sender), ("command", command.name), ("reason", reason)])
        return .refused(reason)
      }
      let loaded = reply["status"]?["preset"]?.stringValue
      return .done(command.name + (loaded.map { ": \($0) loaded" } ?? ""))
    case .failure(let rejection):
      logger.info(
        "a command from the broker that cannot be read",
        [("from", sender), ("error", rejection.failure.message)])
      return .refused(rejection.failure.message)
    }
  }

  // MARK: - A follower's commands

  private func takeRequestID() -> Int64 {
    defer { nextRequestID = nextRequestID < (1 << 53) ? nextRequestID + 1 : 1 }
    return nextRequestID
  }

  /// Sends a command to the leader; the failure to say when it cannot be sent.
  func forward(_ command: LinkCommand) -> CommandFailure? {
    guard send(room.commandTopic, command.encoded(), retain: false) else {
      return CommandFailure(
        "unavailable",
        "this clock follows a leader, and the MQTT broker is not reachable: the command cannot "
          + "reach the leader")
    }
    logger.info("command sent to the leader", [("command", command.name), ("room", room.name)])
    return nil
  }

  /// An action of this clock's buttons, remotes or socket, sent to the leader.
  func forward(_ action: WorkoutAction) -> CommandFailure? {
    forward(.action(action, client: clientID, requestID: takeRequestID()))
  }

  /// A load, sent to the leader: a preset by name or a workout in the notation.
  func forward(load request: LoadRequest, start: Bool) -> CommandFailure? {
    switch request {
    case .preset(let name):
      return forward(
        .load(preset: name, start: start, client: clientID, requestID: takeRequestID()))
    case .workout(let plan):
      guard let notation = plan.notation else {
        return CommandFailure(
          "refused", "this clock follows a leader; a workout without its notation cannot be sent")
      }
      return forward(
        .load(workout: notation, start: start, client: clientID, requestID: takeRequestID()))
    }
  }

  // MARK: - Publishing

  /// What the room and Home Assistant see, when it changed: a leader's state message after an
  /// action, a load, a start taking effect; the Home Assistant state when one of its fields
  /// moved. Called on every publish of the daemon; costs a comparison when nothing changed.
  func publishChanges(at now: Int64) {
    guard client.isConnected else { return }
    if election?.isLeading == true { publishState(at: now) }
    if homeAssistant != nil {
      let loaded = daemon.linkLoadedWorkout
      let state = HomeAssistantState(
        snapshot: daemon.linkSnapshot(at: now), reading: daemon.linkReading(),
        workout: loaded.notation, isPreset: loaded.isPreset)
      if state.needsPublishing(after: homeAssistantState) {
        if send(room.homeAssistantStateTopic(of: clientID), state.payload, retain: true) {
          homeAssistantState = state
        }
      }
    }
  }

  private func publishState(at now: Int64) {
    let revision = daemon.linkRevision
    let pendingStart = daemon.linkPendingStart
    if let published, published.revision == revision, published.pendingStart == pendingStart {
      return
    }
    let reading = daemon.linkReading()
    do {
      let startsAt = pendingStart.flatMap { reading.wallNanoseconds(atEngine: $0) }
      let state = try LeaderState(
        leader: clientID, stamp: sequence.next(), engine: daemon.linkEngine, reading: reading,
        startsAtWallNanoseconds: startsAt)
      if send(room.stateTopic, try state.encoded(), retain: true) {
        published = (revision, pendingStart)
      }
    } catch {
      logger.error("the workout's state cannot be published", [("error", error.message)])
      published = (revision, pendingStart)
    }
  }

  private func publishDiscovery() {
    guard let homeAssistant else { return }
    for message in homeAssistant.configs { send(message.topic, message.payload, retain: true) }
  }

  /// A reload's presets: the select's options change.
  func presetsChanged(_ names: [String]) {
    guard let earlier = homeAssistant, earlier.presets != names else { return }
    let next = discovery(presets: names)
    for message in next.removals(since: earlier) {
      send(message.topic, message.payload, retain: true)
    }
    homeAssistant = next
    publishDiscovery()
  }

  /// The sign the clock shows about its link; nil when all is well: a client id another
  /// clock uses too, a follower's fault, another clock leading the room of a leader.
  var sign: String? {
    if client.clientIDClash { return "client id \(clientID.text) used twice" }
    if isFollower, let sign = follower.sign { return sign.description }
    if let other = election?.yieldedTo { return "not leading: \(other.text) leads" }
    return nil
  }

  /// Where this clock stands in its room: `leading`, `claiming` (connected, not sure yet),
  /// `following`, `standalone` (another clock leads).
  private var standing: String {
    if settings.role == .follower { return "following" }
    switch election?.standing {
    case .leading?: return "leading"
    case .yielded?: return settings.onConflict == .follow ? "following" : "standalone"
    default: return "claiming"
    }
  }

  /// The link in `status`: the role, the room, the broker, where it stands and the sign.
  var status: JSONValue {
    var object = JSONObject([
      ("role", .string(settings.role.rawValue)), ("room", .string(room.name)),
      ("client_id", .string(clientID.text)), ("connected", .bool(client.isConnected)),
      ("standing", .string(standing)), ("leading", .bool(election?.isLeading == true)),
    ])
    let leader = election?.isLeading == true ? clientID : follower.claimant
    object["leader"] = leader.map { .string($0.text) } ?? .null
    if let other = election?.yieldedTo {
      object["conflict"] = .object(
        JSONObject([
          ("leader", .string(other.text)),
          ("on_conflict", .string(settings.onConflict.rawValue)),
        ]))
    }
    object["client_id_clash"] = .bool(client.clientIDClash)
    // The wait chosen before the next attempt while there is no connection (a clash waits
    // 30 s and more, another failure 1 s doubling to 30 s): what a script or test reads
    // instead of timing the attempts.
    object["retry_wait_s"] = client.retryWait.map { .double(Double($0) / 1e9) } ?? .null
    if let sign { object["sign"] = .string(sign) }
    return .object(object)
  }

  /// The link's counts in `stats`.
  var statistics: [(String, JSONValue)] {
    [
      ("link_connections", .integer(Int64(client.connectionsAccepted))),
      ("link_client_id_take_overs", .integer(Int64(client.clientIDTakeOvers))),
      ("link_dropped_oversized", .integer(Int64(clamping: client.droppedOversizeMessages))),
      ("link_dropped_malformed", .integer(Int64(clamping: droppedMalformed))),
      ("link_dropped_queue_full", .integer(Int64(clamping: client.droppedEvents))),
    ]
  }

  /// Says goodbye: the availability `offline` (a clean disconnect sends no last will), then
  /// disconnects.
  func stop() {
    send(availabilityTopic, Array(LinkAvailability.offline.utf8), retain: true)
    // The message goes out before the connection closes: one write of what waits.
    _ = client.handleReady(readable: false, writable: true, now: clock.monotonic())
    client.close()
    lookup?.cancel()
    retiredLookup?.cancel()
  }
}
