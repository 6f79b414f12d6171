// SPDX-License-Identifier: MIT
// The daemon's event loop: one thread that sleeps until the next thing that must happen (the
// engine's next deadline, a plugin's timer, an input, a signal, a client) and never polls. It
// starts the parts, runs the loop and dispatches; the parts do the work (docs/architecture.md).

import ConfigFormat
import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
import WorkoutCore

/// The running daemon. Single-threaded: everything happens on `run()`'s thread.
public final class Daemon {
  let configPath: String
  var configuration: WodclockConfiguration
  let logger: Logger
  let environment: DaemonEnvironment
  var clock: DaemonClock { environment.clock }
  let timeBase: TimeBase
  let host: EngineHost
  private let poller: EventPoller
  let sources: EventSources
  private let timer: DeadlineTimer
  private let signals: SignalWatcher
  let server: CommandServer
  let frames: FrameComposer
  let scheduler: ClassScheduler
  let systemd: SystemdSession
  /// The web interface, when the configuration has a `web:` section.
  var web: WebFront?
  /// The web server's descriptor was ready in this wake-up.
  var webReady = false
  /// The link between clocks, when the configuration has an `mqtt:` section.
  var link: LinkFront?
  /// What the link's socket was ready for in this wake-up (its name lookup counts as
  /// readable).
  var linkReady = Readiness(isReadable: false)
  /// A start that waits for its instant: a leader's, a lead after it was asked for, or a
  /// follower's, as its leader said.
  var pendingStart = PendingStart()
  /// The heats, the lanes' results and today's class scores.
  let heatDesk: HeatDesk
  private var feed = SubscriberFeed()
  lazy var supervisor = Supervisor(
    catalog: environment.catalog, sources: sources, logger: logger, clock: clock,
    makeContext: { [unowned self] id in context(for: id) })
  lazy var responder = makeResponder()
  /// The loop's ready descriptors: one array for every wait, so waking up allocates nothing.
  private var readyEvents: [EventPoller.Event] = []
  /// How late the loop gets to the engine deadline it sleeps until: the turn that gets to it
  /// counts how late it was, whatever woke the loop.
  var lateness = DeadlineLateness()
  var stopping = false
  /// What a keypad composes, and a load at the wall that waits for its second press.
  var wallLoading = WallLoading()
  /// 70 (EX_SOFTWARE) once the loop broke: the unit's `Restart=on-failure` restarts only a
  /// non-zero exit.
  private var exitStatus: Int32 = 0

  /// Builds everything that can fail before the loop starts: throws a ``DaemonFailure`` with a
  /// sysexits code when something a person must fix is wrong.
  public init(
    options: DaemonOptions, configuration: WodclockConfiguration, logger: Logger,
    environment: DaemonEnvironment = .system
  ) throws {
    self.configPath = configuration.file
    self.configuration = configuration
    self.logger = logger
    self.environment = environment
    let clock = environment.clock
    timeBase = TimeBase(origin: clock.monotonic(), speed: options.speed)
    systemd = SystemdSession(
      notifier: environment.notifier, watchdogInterval: environment.watchdogInterval, clock: clock)

    // SIGPIPE would kill us when a client hangs up mid-reply; writes report EPIPE.
    try Signal.ignore(.pipe)
    signals = try SignalWatcher(signals: [.hangup, .terminate, .interrupt, .windowChanged])
    poller = try EventPoller()
    sources = EventSources(poller: poller)
    timer = try DeadlineTimer()
    try sources.watch(timer.fileDescriptor, for: .readable, as: .timer)
    try sources.watch(signals.fileDescriptor, for: .readable, as: .signals)

    let store = StateStore.usable(
      directory: options.stateDirectory ?? DefaultPaths.stateDirectory(), logger: logger)
    guard let preset = EngineHost.initialPreset(configuration) else {
      throw DaemonFailure(exitCode: 78, message: "\(configuration.file): no presets are configured")
    }
    host = try EngineHost(
      configuration: configuration, preset: preset, store: store, logger: logger,
      timeBase: timeBase, clock: clock)
    if let store { host.restore(from: store, at: clock.monotonic()) }
    heatDesk = HeatDesk(
      settings: configuration.heats, directory: store?.directory, logger: logger)
    frames = FrameComposer(
      host: host, configuration: configuration, timeBase: timeBase, clock: clock)
    scheduler = ClassScheduler(schedule: configuration.schedule, clock: clock, logger: logger)

    let socketPath = options.socketPath ?? DefaultPaths.socket()
    do {
      let listener = try UnixListener(
        path: socketPath, mode: 0o660, group: configuration.daemon.socketGroup)
      server = try CommandServer(listener: listener, sources: sources, logger: logger)
      server.idleTimeout = configuration.daemon.clientTimeout.nanoseconds
      logger.info("control socket ready", [("path", socketPath)])
    } catch {
      throw DaemonFailure(exitCode: 69, message: "cannot open the control socket: \(error)")
    }
    if let settings = configuration.web { try startWeb(settings) }
    if let settings = configuration.mqtt { try startLink(settings, at: clock.monotonic()) }
  }

  /// The loop's own descriptors go with it (a daemon run inside a test's process leaves none
  /// behind; `wodclockd` exits anyway).
  deinit {
    try? timer.close()
    try? signals.close()
    try? poller.close()
  }

  // MARK: - Run

  /// Runs until SIGTERM, SIGINT or a quit key. Returns the exit status.
  public func run() -> Int32 {
    start()
    while !stopping {
      turn()
      do {
        try timer.arm(at: nextWakeUp(after: clock.monotonic()))
        try poller.wait(timeoutMilliseconds: nil, into: &readyEvents)
        for event in readyEvents { dispatch(event) }
        server.serve(now: clock.monotonic()) { request in respond(to: request) }
        serveWeb()
        serveLink()
      } catch {
        logger.error("event loop failed", [("error", "\(error)")])
        stopping = true
        exitStatus = 70
      }
    }
    shutDown()
    return exitStatus
  }

  /// Starts the plugins, tells systemd the clock is up and shows the first frame.
  func start() {
    let now = clock.monotonic()
    heatDesk.restore(
      today: today(), runState: host.snapshot(at: timeBase.engineInstant(atMonotonic: now)).runState
    )
    supervisor.start(configuration, at: now)
    systemd.ready(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)))
    publish(cues: [], at: now)
    logger.info(
      "ready",
      [("preset", host.preset.name), ("speed", String(timeBase.speed)), ("config", configPath)])
  }

  /// One turn of the loop, at the clock's now: time moves on, what is due is done, and every
  /// output gets the frame.
  func turn() {
    let now = clock.monotonic()
    recordLateness(at: now)
    let instant = timeBase.engineInstant(atMonotonic: now)
    var cues = startPendingStart(upTo: instant)
    cues += host.advance(to: instant)
    loadScheduledClass(at: now)
    startCalledUpHeat(at: now)
    handle(supervisor.serviceWakeUps(at: now), at: now)
    expireWallLoading(at: now)
    frames.expireMessage(at: now)
    server.expire(now: now)
    web?.keepStreamsAlive(at: now)
    publish(cues: cues, at: now)
    systemd.pingWatchdog(at: now)
  }

  /// When the next turn is due: the earliest of what every part waits for.
  func nextWakeUp(after now: Int64) -> Int64 {
    var best = now + 3_600_000_000_000
    func consider(_ candidate: Int64?) {
      if let candidate, candidate < best { best = candidate }
    }
    let engineDeadline = self.engineDeadline
    lateness.wait(for: engineDeadline)
    consider(engineDeadline)
    consider(supervisor.nextWakeUp(after: now))
    consider(frames.nextWakeUp(after: now))
    consider(wallLoading.deadline)
    consider(server.nextWakeUp(after: now))
    consider(web?.nextWakeUp(after: now))
    consider(link?.nextWakeUp())
    consider(pendingStart.wakeUp(on: timeBase))
    consider(systemd.nextWakeUp)
    consider(scheduler.nextWakeUp(after: now))
    consider(heatDesk.callUpStart)
    return best
  }

  private func dispatch(_ event: EventPoller.Event) {
    guard let source = sources.source(of: event.token) else { return }
    let now = clock.monotonic()
    switch source {
    case .timer:
      // Not read: the loop re-arms the timer before it waits again, and re-arming clears the
      // expiration (timerfd_settime resets the tick count), so a read would only cost a syscall.
      break
    case .signals:
      while let delivery = try? signals.next() { handle(delivery.signal) }
    case .commandListener:
      server.acceptClients(now: now)
    case .commandClient(let client):
      server.handle(client: client, Readiness(event), now: now)
    case .web:
      webReady = true
    case .link:
      let readiness = Readiness(event)
      linkReady.isReadable = linkReady.isReadable || readiness.isReadable
      linkReady.isWritable = linkReady.isWritable || readiness.isWritable
      linkReady.isHangup = linkReady.isHangup || readiness.isHangup
      linkReady.isError = linkReady.isError || readiness.isError
    case .linkLookup:
      linkReady.isReadable = true
    case .plugin(let slot, let descriptor):
      handle(supervisor.handleReady(slot: slot, descriptor, Readiness(event), at: now), at: now)
    }
  }

  func handle(_ signal: Signal) {
    let now = clock.monotonic()
    switch signal {
    case .hangup:
      _ = reload(at: now)
    case .terminate, .interrupt:
      logger.info("stopping", [("signal", signal.description)])
      stopping = true
    case .windowChanged:
      publish(cues: [], at: now, force: true)
    default:
      break
    }
  }

  // MARK: - Frames, lateness and the end

  /// Sends the current picture to every output, with the cues since their last frame, and to
  /// the command socket's subscribers; keeps systemd's status line current.
  func publish(cues: [Cue], at now: Int64, force: Bool = false) {
    frames.idleNote = scheduler.idleNote(at: now, face: configuration.clock.face)
    heatDesk.observe(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)).runState)
    // Ranked on every frame only while a heat is on the wall.
    frames.lanes = heatDesk.phase == nil ? nil : heatDesk.board(rule: scoringRule)
    frames.announcements = heatDesk.announcements
    let frame = frames.frame(cues: cues, at: now, rereadTimeZone: force)
    let staleAfter = configuration.defaults.staleCuesAfter.nanoseconds / timeBase.speed
    supervisor.render(frame, at: now, staleAfter: staleAfter)
    web?.publish(cues: frame.cues, at: now, force: force)
    link?.publishChanges(at: now)
    if server.hasSubscribers {
      let status = responder.status(at: now)
      for event in feed.events(cues: frame.cues, status: status, force: force) {
        server.broadcast(event)
      }
    }
    systemd.update(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)))
  }

  /// The engine's next deadline, on the monotonic clock.
  var engineDeadline: Int64? { host.nextDeadline.map { timeBase.monotonic(forEngine: $0) } }

  /// Counts how late the loop got to the engine deadline it was waiting for, once that is due
  /// and before the engine is advanced past it (see ``DeadlineLateness``).
  func recordLateness(at now: Int64) {
    lateness.record(at: now, engineDeadline: engineDeadline)
  }

  /// Saves the workout, stops the plugins in order and closes the socket.
  func shutDown() {
    systemd.stopping()
    host.save(at: timeBase.engineInstant(atMonotonic: clock.monotonic()))
    supervisor.stopAll()
    logger.resetSink()
    server.close()
    stopWeb()
    stopLink()
    logger.info("stopped")
  }
}

/// A start-up failure with its exit status.
public struct DaemonFailure: Error, CustomStringConvertible {
  public var exitCode: Int32
  public var message: String
  public var description: String { message }
}
