// SPDX-License-Identifier: MIT
// The link between clocks in the daemon (docs/link-protocol.md): a leader's start takes effect
// a short lead ahead, at the same instant on every clock; a follower runs the leader's
// workout, and its buttons, remotes and socket act on the leader.

import ClockLink
import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import WorkoutCore

extension Daemon: LinkDaemonAccess {
  /// Read now, not at the turn's instant: the loop's `now` may be milliseconds old by the
  /// time a message is made, and every millisecond between the two readings would put the
  /// followers that much late. The wall clock is read between two monotonic readings, and
  /// paired with their middle.
  func linkReading() -> ClockReading {
    let before = clock.monotonic()
    let wall = clock.wall()
    let after = clock.monotonic()
    let now = before + (after - before) / 2
    return ClockReading(
      engineInstant: timeBase.engineInstant(atMonotonic: now),
      wallNanoseconds: wall.seconds &* 1_000_000_000 &+ Int64(wall.nanoseconds),
      speed: timeBase.speed)
  }

  var linkRevision: Int { host.revision }

  var linkEngine: WorkoutEngine { host.engine }

  var linkPendingStart: EngineInstant? { pendingStart.instant }

  func linkSnapshot(at now: Int64) -> WorkoutSnapshot {
    host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
  }

  var linkPresetNames: [String] { configuration.presets.map(\.name) }

  var linkLoadedWorkout: (notation: String?, isPreset: Bool) {
    (host.engine.plan.notation, host.preset.location != EngineHost.writtenWorkoutLocation)
  }

  /// A workout that ended before this clock took it (a retained message of a workout that ran
  /// out before it joined) is taken ended, without its cues: the history and the finish cue
  /// are for a workout this clock followed while it ran.
  func linkAdopt(_ workout: LinkedWorkout, named name: String, at now: Int64) {
    let instant = timeBase.engineInstant(atMonotonic: now)
    let cues = host.advance(to: instant)
    let (joined, live) = workout.joined(at: instant)
    host.adopt(joined.engine, named: name, at: instant)
    pendingStart = PendingStart(at: joined.pendingStart)
    logger.info(
      "following the leader",
      [
        ("preset", name), ("state", host.engine.state.phase.rawValue),
        ("under_way", live ? "yes" : "no"),
      ])
    publish(cues: cues, at: now, force: true)
  }

  func linkPerform(_ request: CommandRequest, at now: Int64) -> JSONValue {
    respond(to: request).reply
  }

  func linkSignChanged(at now: Int64) {
    frames.linkSign = link?.sign
    publish(cues: [], at: now, force: true)
  }

  // MARK: - Starting and stopping

  /// Starts the link. A password file that cannot be read keeps the daemon from starting (78):
  /// `--check-config` says the same. A broker that is not there is not a failure: the link
  /// tries again with backoff, and the clock runs meanwhile.
  func startLink(_ settings: MQTTSettings, at now: Int64) throws(DaemonFailure) {
    var password: [UInt8]?
    if let file = settings.passwordFile {
      do {
        let bytes = try FileSystem.readFile(file.path, maximumCount: MQTTLimits.passwordFileBytes)
        switch MQTTPassword.read(bytes, file: file.path) {
        case .success(let text): password = Array(text.utf8)
        case .failure(let problem):
          throw DaemonFailure(
            exitCode: 78, message: "\(configPath): mqtt: password_file: \(problem.message)")
        }
      } catch let failure as DaemonFailure {
        throw failure
      } catch {
        throw DaemonFailure(
          exitCode: 78, message: "\(configPath): mqtt: password_file: \(error)")
      }
    }
    let id = settings.clientID.flatMap(LinkClientID.init) ?? Self.defaultLinkClientID()
    do {
      let front = try LinkFront(
        settings: settings, password: password, clientID: id, daemon: self, logger: logger,
        clock: clock, speed: timeBase.speed, transport: environment.linkTransport)
      link = front
      front.start(at: now)
      watchLink()
      frames.linkSign = front.sign
    } catch {
      throw DaemonFailure(exitCode: 69, message: "\(configPath): mqtt: \(error)")
    }
  }

  /// The host's name, made a client id (`gym-pi`), or `wodclock` when it has none that fits.
  static func defaultLinkClientID() -> LinkClientID {
    let name = Environment.hostName ?? ""
    let cleaned = String(
      name.unicodeScalars.prefix(LinkClientID.maximumLength).map { scalar in
        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar)
          || ("A"..."Z").contains(scalar) || scalar == "-" || scalar == "_" || scalar == "."
          ? Character(scalar) : "_"
      })
    return LinkClientID(cleaned) ?? LinkClientID("wodclock")!
  }

  func stopLink() {
    // The socket registered is still open only while it is the client's current one.
    if let link, link.watch?.connection == link.registeredWatch?.connection {
      sources.unwatch(.link)
    } else {
      sources.forget(.link)
    }
    sources.unwatch(.linkLookup)
    link?.stop()
    link = nil
    frames.linkSign = nil
  }

  /// A reload's `mqtt:` section: any change connects again with the new settings.
  func applyLink(from previous: MQTTSettings?, to next: MQTTSettings?, at now: Int64) {
    guard previous != next else {
      link?.presetsChanged(linkPresetNames)
      return
    }
    stopLink()
    pendingStart.clear()
    guard let next else {
      logger.info("link between clocks stopped")
      return
    }
    do {
      try startLink(next, at: now)
    } catch {
      logger.error("link between clocks not started", [("error", error.message)])
    }
  }

  // MARK: - In the loop

  /// Keeps the loop watching the link's socket (it changes with every connection) and its
  /// name lookup.
  func watchLink() {
    guard let link else { return }
    let watch = link.watch
    if watch != link.registeredWatch {
      // Another connection, or none: libmosquitto closed the socket registered before.
      if watch?.connection != link.registeredWatch?.connection { sources.forget(.link) }
      if let watch {
        do {
          try sources.watch(
            watch.descriptor, for: watch.writable ? [.readable, .writable] : .readable, as: .link)
        } catch {
          logger.warning("cannot watch the MQTT connection", [("error", "\(error)")])
        }
      }
      link.registeredWatch = watch
    }
    if let descriptor = link.lookupDescriptor {
      try? sources.watch(descriptor, for: .readable, as: .linkLookup)
    } else {
      sources.unwatch(.linkLookup)
    }
  }

  /// Lets the link work when its socket was ready or it has work due.
  func serveLink() {
    guard let link else { return }
    let now = clock.monotonic()
    let ready = linkReady
    linkReady = Readiness(isReadable: false)
    if ready.isReadable || ready.isWritable || ready.isHangup || ready.isError
      || (link.nextWakeUp().map { $0 <= now } ?? false)
    {
      // A hang-up or an error is read: the read reports it, and the client reconnects.
      link.service(
        readable: ready.isReadable || ready.isHangup || ready.isError, writable: ready.isWritable,
        at: now)
    }
    watchLink()
  }

  // MARK: - Starts, with a lead

  /// A start a leader asked for takes effect at `lead` from now, on every clock at once: the
  /// state message carries that instant, and each clock starts at it. Returns nil when the
  /// action is not such a start (it is carried out as it is).
  func scheduleStart(_ action: WorkoutAction, at now: Int64) -> CommandFailure?? {
    guard let link, !link.isFollower, !link.isStandalone else { return nil }
    let decision = pendingStart.decide(
      action, phase: host.engine.state.phase, at: timeBase.engineInstant(atMonotonic: now),
      lead: link.settings.lead, speed: timeBase.speed)
    switch decision {
    case .passedThrough:
      return nil
    case .alreadyWaiting:
      return .some(nil)
    case .calledOff:
      logger.info("start called off", [("action", action.rawValue)])
    case .scheduled:
      logger.info(
        "start in \(link.settings.lead)", [("preset", host.preset.name), ("room", link.room.name)])
    }
    publish(cues: [], at: now)
    return .some(nil)
  }

  /// Applies the pending start once its instant has come: at that instant exactly, not at the
  /// turn that noticed it, so every clock's count-in begins together.
  func startPendingStart(upTo instant: EngineInstant) -> [Cue] {
    guard let start = pendingStart.due(by: instant) else { return [] }
    var cues = host.advance(to: start)
    do {
      cues += try host.perform(.start, at: start)
      logger.info("action", [("action", "start"), ("preset", host.preset.name)])
    } catch {
      logger.info("start refused", [("reason", error.reason)])
    }
    return cues
  }

  /// For a follower: sends what this clock was asked to the leader. Nil when this clock acts
  /// itself (no link, or the leader).
  func forwardToLeader(_ action: ControlAction) -> CommandFailure?? {
    guard let link, link.isFollower else { return nil }
    switch action {
    case .engine(let engineAction): return .some(link.forward(engineAction))
    case .load(let name): return .some(link.forward(load: .preset(name), start: false))
    case .mute: return nil
    // A lane's button belongs to the clock its lanes are run on.
    case .lane: return nil
    }
  }

  func forwardToLeader(load request: LoadRequest, start: Bool) -> CommandFailure?? {
    guard let link, link.isFollower else { return nil }
    return .some(link.forward(load: request, start: start))
  }
}
