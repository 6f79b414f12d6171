// SPDX-License-Identifier: MIT
// The daemon's event loop: one thread that sleeps until the next thing that must happen (the
// engine's next deadline, a plugin's timer, an input, a signal, a client) and never polls. It
// starts the parts, runs the loop and dispatches; the parts do the work (docs/architecture.md).

import ConfigFormat
import Configuration
import HardwareKit
import JSONKit
import WorkoutCore

/// What the daemon is given from outside: its clocks, the service manager, the plugin kinds.
/// The machine's own for `wodclockd`; tests give manual time, a socket of their own and fake
/// plugin kinds, and run the whole daemon in their process.
public struct DaemonEnvironment {
  public var clock: DaemonClock
  public var notifier: SystemdNotifier
  /// How often to ping the watchdog (half of `WatchdogSec=`), nil without one.
  public var watchdogInterval: Int64?
  public var catalog: [PluginKind]

  public init(
    clock: DaemonClock, notifier: SystemdNotifier, watchdogInterval: Int64?,
    catalog: [PluginKind]
  ) {
    self.clock = clock
    self.notifier = notifier
    self.watchdogInterval = watchdogInterval
    self.catalog = catalog
  }

  /// The machine's clocks, systemd's `NOTIFY_SOCKET` and `WATCHDOG_USEC`, every plugin kind.
  public static var system: DaemonEnvironment {
    DaemonEnvironment(
      clock: .system, notifier: .fromEnvironment(), watchdogInterval: Watchdog.interval(),
      catalog: PluginCatalog.kinds)
  }
}

/// The running daemon. Single-threaded: everything happens on `run()`'s thread.
public final class Daemon: CommandActions {
  private let configPath: String
  private var configuration: WodclockConfiguration
  private let logger: Logger
  private let environment: DaemonEnvironment
  private var clock: DaemonClock { environment.clock }
  private let timeBase: TimeBase
  private let host: EngineHost
  private let poller: EventPoller
  private let sources: EventSources
  private let timer: DeadlineTimer
  private let signals: SignalWatcher
  private let server: CommandServer
  private let frames: FrameComposer
  private let systemd: SystemdSession
  private var feed = SubscriberFeed()
  private lazy var supervisor = Supervisor(
    catalog: environment.catalog, sources: sources, logger: logger, clock: clock,
    makeContext: { [unowned self] id in context(for: id) })
  private lazy var responder = makeResponder()
  /// The loop's ready descriptors: one array for every wait, so waking up allocates nothing.
  private var readyEvents: [EventPoller.Event] = []
  /// The engine's next deadline as the loop last went to sleep, on the monotonic clock: the
  /// turn that gets to it counts how late it was, whatever woke the loop.
  private var awaitedEngineDeadline: Int64?
  private var lateness = LatenessRecorder()
  private(set) var stopping = false
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
    frames = FrameComposer(
      host: host, configuration: configuration, timeBase: timeBase, clock: clock)

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
    let cues = host.advance(to: timeBase.engineInstant(atMonotonic: now))
    handle(supervisor.serviceWakeUps(at: now), at: now)
    frames.expireMessage(at: now)
    server.expire(now: now)
    publish(cues: cues, at: now)
    systemd.pingWatchdog(at: now)
  }

  /// When the next turn is due: the earliest of what every part waits for.
  func nextWakeUp(after now: Int64) -> Int64 {
    var best = now + 3_600_000_000_000
    func consider(_ candidate: Int64?) {
      if let candidate, candidate < best { best = candidate }
    }
    awaitedEngineDeadline = host.nextDeadline.map { timeBase.monotonic(forEngine: $0) }
    consider(awaitedEngineDeadline)
    consider(supervisor.nextWakeUp(after: now))
    consider(frames.nextWakeUp(after: now))
    consider(server.nextWakeUp(after: now))
    consider(systemd.nextWakeUp)
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

  // MARK: - Actions

  /// Performs an action from any source. Returns the refusal or failure, if any.
  @discardableResult
  func perform(_ action: ControlAction, at now: Int64) -> CommandFailure? {
    let instant = timeBase.engineInstant(atMonotonic: now)
    recordLateness(at: now)
    var cues = host.advance(to: instant)
    var failure: CommandFailure?
    switch action {
    case .engine(let engineAction):
      do {
        cues += try host.perform(engineAction, at: instant)
        logger.info("action", [("action", engineAction.rawValue), ("preset", host.preset.name)])
      } catch {
        failure = CommandFailure("refused", error.description)
        logger.info(
          "action refused", [("action", engineAction.rawValue), ("reason", error.reason)])
      }
    case .load(let name):
      do {
        try host.load(presetNamed: name, at: instant)
        logger.info("preset loaded", [("preset", name)])
      } catch {
        failure = CommandFailure(error.code, error.message)
      }
    case .mute:
      setMuted(!frames.muted, at: now)
    }
    publish(cues: cues, at: now)
    return failure
  }

  /// Silences the sounders or lets them sound again, and says so on the displays.
  func setMuted(_ on: Bool, at now: Int64) {
    frames.muted = on
    logger.info("action", [("action", "mute"), ("muted", on ? "yes" : "no")])
    frames.show(on ? "sound off" : "sound on", at: now)
    publish(cues: [], at: now, force: true)
  }

  private func handle(_ events: [InputEvent], at now: Int64) {
    for event in events {
      switch event {
      case .control(let name, let gesture):
        guard let action = configuration.control(named: name)?.actions[gesture] else {
          logger.debug("control has no action", [("control", name), ("gesture", gesture.rawValue)])
          continue
        }
        perform(action, at: now)
      case .action(let action):
        perform(action, at: now)
      case .loadPresetNumber(let number):
        guard number >= 1 && number <= configuration.presets.count else { continue }
        perform(.load(preset: configuration.presets[number - 1].name), at: now)
      case .message(let text):
        frames.show(text, at: now)
        publish(cues: [], at: now, force: true)
      case .quit:
        logger.info("quit requested from the keyboard")
        stopping = true
      }
    }
  }

  /// Re-reads the config file. A bad file changes nothing: its diagnostics are logged and the
  /// clock keeps running on the old configuration.
  func reload(at now: Int64) -> CommandFailure? {
    systemd.reloading()
    logger.info("reloading", [("config", configPath)])
    var failure: CommandFailure?
    switch ConfigurationFile.load(path: configPath, plugins: environment.catalog.map(\.schema)) {
    case .failure(let problem):
      for line in problem.renderedLines { logger.error(line) }
      systemd.note = "reload failed, running the previous config"
      frames.show("reload failed: \(problem.summary)", at: now)
      failure = CommandFailure("config_invalid", problem.summary)
    case .success(let loaded):
      let next = loaded.configuration
      for line in loaded.warnings?.renderedLines ?? [] { logger.warning(line) }
      let previous = configuration
      configuration = next
      frames.configuration = next
      host.replaceConfiguration(next, at: timeBase.engineInstant(atMonotonic: now))
      supervisor.apply(from: previous, to: next, at: now)
      server.idleTimeout = next.daemon.clientTimeout.nanoseconds
      systemd.note = nil
      logger.info("reloaded", [("presets", String(next.presets.count))])
    }
    systemd.ready(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)))
    publish(cues: [], at: now, force: true)
    return failure
  }

  // MARK: - Parts

  /// Answers a request of the command vocabulary now, from the socket or a plugin.
  func respond(to request: CommandRequest) -> (reply: JSONValue, subscribe: Bool) {
    responder.respond(to: request, at: clock.monotonic())
  }

  private func makeResponder() -> CommandResponder {
    let responder = CommandResponder(
      host: host, frames: frames, supervisor: supervisor, timeBase: timeBase,
      configPath: configPath, actions: self)
    responder.clientCount = { [unowned self] in server.clientCount }
    responder.lateness = { [unowned self] in lateness.summary }
    return responder
  }

  private func context(for id: String) -> PluginContext {
    PluginContext(
      id: id, logger: logger, speed: timeBase.speed, clock: clock,
      claimTerminal: { [unowned self] show in claimTerminal(show) },
      command: { [unowned self] request in respond(to: request).reply })
  }

  /// A full-screen terminal view takes the terminal: log lines go to its message line instead
  /// of scribbling across the picture (they still go to the journal when stderr is not a TTY).
  private func claimTerminal(_ show: @escaping (String) -> Void) {
    guard Terminal.isTTY(.standardError) else { return }
    logger.sink = { level, line in
      if level >= .notice { show(line) }
    }
  }

  /// Sends the current picture to every output, with the cues since their last frame, and to
  /// the command socket's subscribers; keeps systemd's status line current.
  private func publish(cues: [Cue], at now: Int64, force: Bool = false) {
    let frame = frames.frame(cues: cues, at: now, rereadTimeZone: force)
    let staleAfter = configuration.defaults.staleCuesAfter.nanoseconds / timeBase.speed
    supervisor.render(frame, at: now, staleAfter: staleAfter)
    if server.hasSubscribers {
      let status = responder.status(at: now)
      for event in feed.events(cues: cues.map(\.kind), status: status, force: force) {
        server.broadcast(event)
      }
    }
    systemd.update(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)))
  }

  /// Counts how late the loop got to the engine deadline it was waiting for, once that is due:
  /// measured when the engine is about to be advanced past it, so a deadline that passed during
  /// a long wake-up (a flood of requests), an interrupted wait or a wake-up for something else
  /// counts as late as it really was. Not when an action has moved the deadline since.
  private func recordLateness(at now: Int64) {
    guard let deadline = awaitedEngineDeadline, deadline <= now else { return }
    awaitedEngineDeadline = nil
    guard host.nextDeadline.map({ timeBase.monotonic(forEngine: $0) }) == deadline else { return }
    lateness.record(now - deadline)
  }

  /// Saves the workout, stops the plugins in order and closes the socket.
  func shutDown() {
    systemd.stopping()
    host.save(at: timeBase.engineInstant(atMonotonic: clock.monotonic()))
    supervisor.stopAll()
    logger.resetSink()
    server.close()
    logger.info("stopped")
  }
}

/// A start-up failure with its exit status.
public struct DaemonFailure: Error, CustomStringConvertible {
  public var exitCode: Int32
  public var message: String
  public var description: String { message }
}

public enum WodclockVersion {
  public static let current = "0.1.0"
}
