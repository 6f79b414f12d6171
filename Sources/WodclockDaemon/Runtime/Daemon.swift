// SPDX-License-Identifier: MIT
// The daemon's event loop: one thread that sleeps until the next thing that must happen (the
// engine's next deadline, an output's wake-up, an input, a signal, a client) and never polls.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import JSONKit
import MatrixKit
import WorkoutCore

/// The running daemon. Owns the engine (through ``EngineHost``), the plugins, the control
/// socket and the systemd conversation. Single-threaded: everything happens on `run()`'s thread.
public final class Daemon {
  private enum SlotState {
    case running
    /// Failed; retried at `retryAt` (monotonic ns), the next wait being `backoff`.
    case failed(retryAt: Int64, backoff: Int64)

    /// The state after a failure at `now`, and how to log it: once when a running plugin fails
    /// and once when it first cannot start; the retries after that are quiet.
    func afterFailure(at now: Int64) -> (SlotState, wording: String?) {
      switch self {
      case .running:
        return (
          .failed(retryAt: now + Daemon.initialBackoff, backoff: Daemon.initialBackoff * 2),
          "failed"
        )
      case .failed(_, let backoff):
        let next = SlotState.failed(
          retryAt: now + backoff, backoff: min(backoff * 2, Daemon.maximumBackoff))
        return (next, backoff == Daemon.initialBackoff ? "cannot start" : nil)
      }
    }
  }

  private final class OutputSlot: WatchingSlot {
    let instance: PluginInstance
    var plugin: any OutputPlugin
    var state: SlotState = .failed(retryAt: 0, backoff: Daemon.initialBackoff)
    var pendingCues: [Cue] = []
    var watched: [FileDescriptor] = []
    var descriptorsToWatch: [FileDescriptor] { plugin.watchedDescriptors }
    init(instance: PluginInstance, plugin: any OutputPlugin) {
      self.instance = instance
      self.plugin = plugin
    }
  }

  private final class InputSlot: WatchingSlot {
    let instance: PluginInstance
    var plugin: any InputPlugin
    var state: SlotState = .failed(retryAt: 0, backoff: Daemon.initialBackoff)
    var watched: [FileDescriptor] = []
    var descriptorsToWatch: [FileDescriptor] { plugin.watchedDescriptors }
    init(instance: PluginInstance, plugin: any InputPlugin) {
      self.instance = instance
      self.plugin = plugin
    }
  }

  /// A slot whose plugin may have descriptors for the loop to watch.
  private protocol WatchingSlot: AnyObject {
    var watched: [FileDescriptor] { get set }
    var descriptorsToWatch: [FileDescriptor] { get }
  }

  static let maximumPendingCues = 64
  /// A plugin's `stop()` should take well under this; a slower one is named in the log.
  static let stopBudget: Int64 = 500_000_000
  static let initialBackoff: Int64 = 1_000_000_000
  static let maximumBackoff: Int64 = 30_000_000_000
  /// How long a message ("reload failed", "press r again") stays on the displays.
  static let messageDuration: Int64 = 5_000_000_000

  private static let timerToken: UInt64 = 1
  private static let signalToken: UInt64 = 2
  private static let inputTokenBase: UInt64 = 1_000
  /// Each plugin's descriptors get consecutive tokens: at most this many per plugin.
  private static let tokensPerPlugin: UInt64 = 64
  private static let outputTokenBase: UInt64 = 1 << 24
  private static let serverTokenBase: UInt64 = 1 << 32

  private let options: DaemonOptions
  private let configPath: String
  private var configuration: WodclockConfiguration
  private let logger: Logger
  private let timeBase: TimeBase
  private let host: EngineHost
  private let poller: EventPoller
  private let timer: DeadlineTimer
  private let signals: SignalWatcher
  private var server: CommandServer?
  private let notifier: SystemdNotifier
  private let watchdogInterval: Int64?
  private var nextWatchdogPing: Int64 = 0
  private var outputs: [OutputSlot] = []
  private var inputs: [InputSlot] = []
  private var message: (text: String, until: Int64)?
  private var stopping = false
  private var lastStatusText = ""
  private var nextTimeZoneReload = Int64.min
  private var civilTimes = WallClock.CivilTimeCache()
  /// The time-of-day engine the idle screen shows, kept while its preset name and face stay.
  private var idleClock: (name: String, face: ClockFace, engine: WorkoutEngine)?
  /// The loop's ready descriptors: one array for every wait, so waking up allocates nothing.
  private var readyEvents: [EventPoller.Event] = []
  /// Where frames look ahead (see ``picture(at:from:wall:)``): made once, not per frame.
  private lazy var previewSource: (Int64, Int64, WallClock.Instant) -> FramePreview.Picture? = {
    [weak self] later, now, wall in self?.picture(at: later, from: now, wall: wall)
  }
  private static let timeZoneReloadInterval: Int64 = 60_000_000_000
  private var lastBroadcastStatus: JSONValue?
  private var terminalLine: ((String) -> Void)?
  private var statusNote: String?
  /// The engine's next deadline as the loop last went to sleep, on the monotonic clock: the
  /// wake-up that gets to it is counted in `lateness`, whatever woke the loop.
  private var awaitedEngineDeadline: Int64?
  private var lateness = LatenessRecorder()
  /// The `mute` action's toggle: sounders stay silent while it is set. Kept across reloads,
  /// forgotten on restart (a restarted clock is never silently mute).
  private var muted = false

  /// Builds everything that can fail before the loop starts: exits with a sysexits code when
  /// something a person must fix is wrong.
  public init(options: DaemonOptions, configuration: WodclockConfiguration, logger: Logger) throws {
    self.options = options
    self.configPath = configuration.file
    self.configuration = configuration
    self.logger = logger
    let start = MonotonicClock.now()
    timeBase = TimeBase(origin: start, speed: options.speed)
    notifier = SystemdNotifier.fromEnvironment()
    watchdogInterval = Watchdog.interval()

    // SIGPIPE would kill us when a control client hangs up mid-reply; writes report EPIPE.
    try Signal.ignore(.pipe)
    signals = try SignalWatcher(signals: [.hangup, .terminate, .interrupt, .windowChanged])
    poller = try EventPoller()
    timer = try DeadlineTimer()
    try poller.register(timer.fileDescriptor, token: Self.timerToken, interest: .readable)
    try poller.register(signals.fileDescriptor, token: Self.signalToken, interest: .readable)

    let stateDirectory = options.stateDirectory ?? DefaultPaths.stateDirectory()
    let store = StateStore(directory: stateDirectory)
    var usableStore: StateStore? = store
    do {
      try store.prepare()
    } catch {
      logger.warning(
        "cannot use the state directory; a crash will lose the running workout",
        [("path", stateDirectory), ("error", "\(error)")])
      usableStore = nil
    }
    guard let preset = EngineHost.initialPreset(configuration) else {
      throw DaemonFailure(exitCode: 78, message: "\(configuration.file): no presets are configured")
    }
    host = try EngineHost(
      configuration: configuration, preset: preset, store: usableStore, logger: logger,
      timeBase: timeBase)
    if let usableStore { restoreState(from: usableStore) }

    let socketPath = options.socketPath ?? DefaultPaths.socket()
    do {
      let listener = try UnixListener(
        path: socketPath, mode: 0o660, group: configuration.daemon.socketGroup)
      server = try CommandServer(
        listener: listener, poller: poller, tokenBase: Self.serverTokenBase, logger: logger)
      server?.idleTimeout = configuration.daemon.clientTimeout.nanoseconds
      logger.info("control socket ready", [("path", socketPath)])
    } catch {
      throw DaemonFailure(exitCode: 69, message: "cannot open the control socket: \(error)")
    }
  }

  // MARK: - Run

  /// Runs until SIGTERM, SIGINT or a quit key. Returns the exit status.
  public func run() -> Int32 {
    startPlugins()
    let now = MonotonicClock.now()
    lastStatusText = statusText(at: now)
    notifier.ready(status: lastStatusText)
    publish(cues: [], at: now)
    logger.info(
      "ready",
      [("preset", host.preset.name), ("speed", String(timeBase.speed)), ("config", configPath)])
    // 70 (EX_SOFTWARE) when the loop broke: the unit's `Restart=on-failure` restarts only a
    // non-zero exit.
    var exitStatus: Int32 = 0
    while !stopping {
      let now = MonotonicClock.now()
      recordLateness(at: now)
      let cues = host.advance(to: timeBase.engineInstant(atMonotonic: now))
      serviceWakeUps(at: now)
      publish(cues: cues, at: now)
      pingWatchdog(at: now)
      do {
        let wakeUp = nextWakeUp(after: now)
        try timer.arm(at: wakeUp)
        try poller.wait(timeoutMilliseconds: nil, into: &readyEvents)
        for event in readyEvents { dispatch(event) }
        server?.serve(now: MonotonicClock.now()) { request in respond(to: request) }
      } catch {
        logger.error("event loop failed", [("error", "\(error)")])
        stopping = true
        exitStatus = 70
      }
    }
    shutDown()
    return exitStatus
  }

  private func dispatch(_ event: EventPoller.Event) {
    let now = MonotonicClock.now()
    switch event.token {
    case Self.timerToken:
      // Not read: the loop re-arms the timer before it waits again, and re-arming clears the
      // expiration (timerfd_setup resets the tick count), so a read would only cost a syscall.
      break
    case Self.signalToken:
      while let delivery = try? signals.next() { handleSignal(delivery.signal) }
    case let token where server?.owns(token) == true:
      server?.handle(event, now: now)
    case let token where token >= Self.outputTokenBase:
      handleOutput(token: token, at: now)
    default:
      handleInput(token: event.token, at: now)
    }
  }

  private func handleSignal(_ signal: Signal) {
    switch signal {
    case .hangup:
      _ = reload()
    case .terminate, .interrupt:
      logger.info("stopping", [("signal", signal.description)])
      stopping = true
    case .windowChanged:
      publish(cues: [], at: MonotonicClock.now(), force: true)
    default:
      break
    }
  }

  // MARK: - Actions

  /// Performs an action from any source. Returns the refusal or failure, if any.
  @discardableResult
  private func perform(_ action: ControlAction, at now: Int64) -> CommandFailure? {
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
      setMuted(!muted, at: now)
    }
    publish(cues: cues, at: now)
    return failure
  }

  /// Silences the sounders or lets them sound again, and says so on the displays.
  private func setMuted(_ on: Bool, at now: Int64) {
    muted = on
    logger.info("action", [("action", "mute"), ("muted", muted ? "yes" : "no")])
    message = (muted ? "sound off" : "sound on", now + Self.messageDuration)
  }

  private func handleInputEvents(_ events: [InputEvent], at now: Int64) {
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
        message = text.map { ($0, now + Self.messageDuration) }
        publish(cues: [], at: now, force: true)
      case .quit:
        logger.info("quit requested from the keyboard")
        stopping = true
      }
    }
  }

  // MARK: - Control socket

  private func respond(to request: CommandRequest) -> (reply: JSONValue, subscribe: Bool) {
    let now = MonotonicClock.now()
    let id = request.id
    switch request.command {
    case .action(let action):
      if let failure = perform(.engine(action), at: now) {
        return (CommandProtocol.failure(id: id, failure), false)
      }
      return (CommandProtocol.success(id: id, [("status", currentStatus(at: now))]), false)
    case .load(let preset):
      if let failure = perform(.load(preset: preset), at: now) {
        return (CommandProtocol.failure(id: id, failure), false)
      }
      return (CommandProtocol.success(id: id, [("status", currentStatus(at: now))]), false)
    case .mute(let on):
      // Setting the state it already has still answers ok (and shows the message again):
      // `mute on` from a script is idempotent.
      setMuted(on ?? !muted, at: now)
      publish(cues: [], at: now, force: true)
      return (CommandProtocol.success(id: id, [("status", currentStatus(at: now))]), false)
    case .status:
      return (CommandProtocol.success(id: id, [("status", currentStatus(at: now))]), false)
    case .presets:
      let list = configuration.presets.map { preset -> JSONValue in
        let length = (try? preset.plan.compile())?.workoutLength
        return .object(
          JSONObject([
            ("name", .string(preset.name)), ("mode", .string(preset.plan.mode.name.rawValue)),
            ("label", preset.plan.label.map { .string($0) } ?? .null),
            ("length_s", length.map { .double($0.seconds) } ?? .null),
          ]))
      }
      return (
        CommandProtocol.success(
          id: id, [("presets", .array(list)), ("current", .string(host.preset.name))]), false
      )
    case .history(let limit):
      let encoder = JSONValueEncoder()
      let entries = host.history(limit: limit).compactMap { try? encoder.encode($0) }
      return (CommandProtocol.success(id: id, [("history", .array(entries))]), false)
    case .reload:
      if let failure = reload() { return (CommandProtocol.failure(id: id, failure), false) }
      return (CommandProtocol.success(id: id, [("config", .string(configPath))]), false)
    case .subscribe:
      return (CommandProtocol.success(id: id, [("status", currentStatus(at: now))]), true)
    case .stats:
      var members: [(String, JSONValue)] = [("clients", .integer(Int64(server?.clientCount ?? 0)))]
      if let summary = lateness.summary {
        members.append(
          (
            "wake_lateness_us",
            .object(
              JSONObject([
                ("count", .integer(Int64(summary.count))),
                ("p50", .double(Double(summary.p50) / 1_000)),
                ("p99", .double(Double(summary.p99) / 1_000)),
                ("max", .double(Double(summary.max) / 1_000)),
                ("over_1ms", .integer(Int64(summary.overOneMillisecond))),
              ]))
          ))
      } else {
        members.append(("wake_lateness_us", .null))
      }
      let usage = try? ProcessStats.sample()
      members.append(("cpu_s", .double(Double(usage?.cpuNanoseconds ?? 0) / 1e9)))
      members.append(("peak_rss_bytes", .integer(Int64(usage?.peakResidentBytes ?? 0))))
      members.append(("dropped_cues", .integer(Int64(host.engine.state.droppedCues))))
      return (CommandProtocol.success(id: id, members), false)
    case .snapshot(let wanted):
      return (snapshotReply(wanted, id: id, at: now), false)
    case .version:
      return (
        CommandProtocol.success(
          id: id,
          [
            ("version", .string(WodclockVersion.current)),
            ("protocol", .integer(CommandProtocol.version)),
          ]),
        false
      )
    }
  }

  /// `snapshot`: the last picture a matrix output sent, or a preview of what the displays show now.
  private func snapshotReply(_ wanted: SnapshotRequest, id: JSONValue?, at now: Int64)
    -> JSONValue
  {
    SnapshotReply.reply(to: wanted, id: id, outputs: outputs.map(\.plugin)) { size in
      let frame = OutputFrame(
        snapshot: displayedSnapshot(at: timeBase.engineInstant(atMonotonic: now)), cues: [],
        tokens: configuration.tokens, words: configuration.words, clock: configuration.clock,
        civilTime: WallClock.civilTime(at: WallClock.now()), monotonicNow: now,
        speed: timeBase.speed, message: message?.text, muted: muted)
      // In the font of the first matrix output, as that matrix would show it at this size.
      let font = outputs.lazy.compactMap { $0.plugin as? MatrixOutput }.first?.captionFont
      return MatrixPicture.preview(
        frame, width: size.width, height: size.height, font: font ?? .small)
    }
  }

  private func currentStatus(at now: Int64) -> JSONValue {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    return CommandProtocol.status(
      snapshot, display: snapshot.display.map(TimeText.format), muted: muted)
  }

  // MARK: - Reload

  /// Re-reads the config file. A bad file changes nothing: its diagnostics are logged and the
  /// clock keeps running on the old configuration.
  private func reload() -> CommandFailure? {
    notifier.reloading()
    logger.info("reloading", [("config", configPath)])
    let now = MonotonicClock.now()
    switch ConfigurationFile.load(path: configPath, plugins: PluginCatalog.schemas) {
    case .failure(let problem):
      for line in problem.renderedLines { logger.error(line) }
      statusNote = "reload failed, running the previous config"
      message = ("reload failed: \(problem.summary)", now + Self.messageDuration)
      notifier.ready(status: statusText(at: now))
      publish(cues: [], at: now, force: true)
      return CommandFailure("config_invalid", problem.summary)
    case .success(let loaded):
      let next = loaded.configuration
      for line in loaded.warnings?.renderedLines ?? [] { logger.warning(line) }
      let previous = configuration
      configuration = next
      host.replaceConfiguration(next, at: timeBase.engineInstant(atMonotonic: now))
      restartChangedPlugins(from: previous, to: next)
      server?.idleTimeout = next.daemon.clientTimeout.nanoseconds
      statusNote = nil
      logger.info("reloaded", [("presets", String(next.presets.count))])
      notifier.ready(status: statusText(at: now))
      publish(cues: [], at: now, force: true)
      return nil
    }
  }

  // MARK: - Plugins

  private func startPlugins() {
    for instance in configuration.outputs { addOutput(instance) }
    for instance in configuration.inputs { addInput(instance) }
    let now = MonotonicClock.now()
    for slot in outputs { startOutput(slot, at: now) }
    for slot in inputs { startInput(slot, at: now) }
  }

  private func addOutput(_ instance: PluginInstance) {
    guard case .output(let make)? = PluginCatalog.kind(named: instance.kind)?.factory else {
      return
    }
    do {
      outputs.append(OutputSlot(instance: instance, plugin: try make(instance)))
    } catch {
      logger.error("cannot create output", [("plugin", instance.id), ("error", "\(error)")])
    }
  }

  private func addInput(_ instance: PluginInstance) {
    guard case .input(let make)? = PluginCatalog.kind(named: instance.kind)?.factory else { return }
    do {
      inputs.append(InputSlot(instance: instance, plugin: try make(instance)))
    } catch {
      logger.error("cannot create input", [("plugin", instance.id), ("error", "\(error)")])
    }
  }

  private func context(for id: String) -> PluginContext {
    PluginContext(
      id: id, logger: logger, speed: timeBase.speed,
      claimTerminal: { [weak self] show in self?.claimTerminal(show) })
  }

  /// A full-screen terminal view takes the terminal: log lines go to its message line instead
  /// of scribbling across the picture (they still go to the journal when stderr is not a TTY).
  private func claimTerminal(_ show: @escaping (String) -> Void) {
    guard Terminal.isTTY(.standardError) else { return }
    terminalLine = show
    logger.sink = { level, line in
      if level >= .notice { show(line) }
    }
  }

  private func startOutput(_ slot: OutputSlot, at now: Int64) {
    do {
      try slot.plugin.start(context(for: slot.instance.id))
      slot.state = .running
      watch(slot)
      logger.info("output started", [("plugin", slot.instance.id), ("kind", slot.instance.kind)])
    } catch {
      fail(slot, error, at: now)
    }
  }

  private func startInput(_ slot: InputSlot, at now: Int64) {
    do {
      try slot.plugin.start(context(for: slot.instance.id))
      slot.state = .running
      watch(slot)
      logger.info("input started", [("plugin", slot.instance.id), ("kind", slot.instance.kind)])
    } catch {
      fail(slot, error, at: now)
    }
  }

  private func fail(_ slot: OutputSlot, _ error: any Error, at now: Int64) {
    let (next, wording) = slot.state.afterFailure(at: now)
    if let wording { logFailure("output", wording, slot.instance.id, error, next) }
    unwatch(slot)
    slot.plugin.stop()
    slot.state = next
  }

  private func fail(_ slot: InputSlot, _ error: any Error, at now: Int64) {
    let (next, wording) = slot.state.afterFailure(at: now)
    if let wording { logFailure("input", wording, slot.instance.id, error, next) }
    unwatch(slot)
    slot.plugin.stop()
    slot.state = next
  }

  private func logFailure(
    _ direction: String, _ wording: String, _ id: String, _ error: any Error, _ next: SlotState
  ) {
    var fields = [("plugin", id), ("error", "\(error)")]
    if case .failed(let retryAt, _) = next {
      fields.append(
        ("retry_in", "\((retryAt - MonotonicClock.now() + 999_999_999) / 1_000_000_000)s"))
    }
    logger.error("\(direction) \(wording)", fields)
  }

  /// Watches `descriptors` for readability under consecutive tokens from `firstToken`; returns
  /// the ones now watched.
  private func register(_ descriptors: [FileDescriptor], firstToken: UInt64) -> [FileDescriptor] {
    var registered: [FileDescriptor] = []
    for (number, descriptor) in descriptors.prefix(Int(Self.tokensPerPlugin)).enumerated() {
      let token = firstToken + UInt64(number)
      if (try? poller.register(descriptor, token: token, interest: .readable)) != nil {
        registered.append(descriptor)
      }
    }
    return registered
  }

  private func watch(_ slot: InputSlot) {
    guard let index = inputs.firstIndex(where: { $0 === slot }) else { return }
    watch(slot, firstToken: Self.inputTokenBase + UInt64(index) * Self.tokensPerPlugin)
  }

  private func watch(_ slot: OutputSlot) {
    guard let index = outputs.firstIndex(where: { $0 === slot }) else { return }
    watch(slot, firstToken: Self.outputTokenBase + UInt64(index) * Self.tokensPerPlugin)
  }

  /// A plugin's descriptors are watched while it runs: from its start until before its stop
  /// (a failure, a reload, the shutdown), so none stays registered past its close.
  private func watch(_ slot: some WatchingSlot, firstToken: UInt64) {
    unwatch(slot)
    slot.watched = register(slot.descriptorsToWatch, firstToken: firstToken)
  }

  private func unwatch(_ slot: some WatchingSlot) {
    for descriptor in slot.watched { try? poller.unregister(descriptor) }
    slot.watched = []
  }

  private func handleOutput(token: UInt64, at now: Int64) {
    let index = Int((token - Self.outputTokenBase) / Self.tokensPerPlugin)
    let number = Int((token - Self.outputTokenBase) % Self.tokensPerPlugin)
    guard outputs.indices.contains(index) else { return }
    let slot = outputs[index]
    guard case .running = slot.state, slot.watched.indices.contains(number) else { return }
    do {
      try slot.plugin.handleReadable(slot.watched[number], at: now)
      if slot.plugin.watchedDescriptors != slot.watched { watch(slot) }
    } catch {
      fail(slot, error, at: now)
    }
  }

  private func handleInput(token: UInt64, at now: Int64) {
    guard token >= Self.inputTokenBase else { return }
    let index = Int((token - Self.inputTokenBase) / Self.tokensPerPlugin)
    let number = Int((token - Self.inputTokenBase) % Self.tokensPerPlugin)
    guard inputs.indices.contains(index) else { return }
    let slot = inputs[index]
    guard case .running = slot.state, slot.watched.indices.contains(number) else { return }
    do {
      let events = try slot.plugin.handleReadable(slot.watched[number], at: now)
      if slot.plugin.watchedDescriptors != slot.watched { watch(slot) }
      handleInputEvents(events, at: now)
    } catch {
      fail(slot, error, at: now)
    }
  }

  private func restartChangedPlugins(
    from previous: WodclockConfiguration, to next: WodclockConfiguration
  ) {
    let now = MonotonicClock.now()
    if previous.outputs != next.outputs {
      for slot in outputs.reversed() {
        unwatch(slot)
        slot.plugin.stop()
      }
      outputs = []
      for instance in next.outputs { addOutput(instance) }
      for slot in outputs { startOutput(slot, at: now) }
    } else {
      // The same entries may name files that changed (a matrix's font).
      for slot in outputs {
        do {
          if try slot.plugin.reloadFiles() {
            logger.info("output re-read its files", [("plugin", slot.instance.id)])
          }
        } catch {
          logger.error(
            "output keeps its previous files",
            [("plugin", slot.instance.id), ("error", "\(error)")])
        }
      }
    }
    if previous.inputs != next.inputs {
      for slot in inputs.reversed() {
        unwatch(slot)
        slot.plugin.stop()
      }
      inputs = []
      for instance in next.inputs { addInput(instance) }
      for slot in inputs { startInput(slot, at: now) }
    }
  }

  /// Long-press timers, plugin retries, message expiry, silent clients.
  private func serviceWakeUps(at now: Int64) {
    for slot in inputs {
      switch slot.state {
      case .running:
        if let due = slot.plugin.nextWakeUp(after: now), due <= now {
          let events = slot.plugin.handleWakeUp(at: now)
          // A wake-up may open devices (a remote found by a rescan): watch what it has now.
          if slot.plugin.watchedDescriptors != slot.watched { watch(slot) }
          handleInputEvents(events, at: now)
        }
      case .failed(let retryAt, _) where retryAt <= now:
        startInput(slot, at: now)
      case .failed:
        break
      }
    }
    for slot in outputs {
      if case .failed(let retryAt, _) = slot.state, retryAt <= now { startOutput(slot, at: now) }
    }
    if let current = message, current.until <= now { message = nil }
    server?.expire(now: now)
  }

  // MARK: - Frames

  /// Sends the current picture to every output, with the cues since their last frame, and to
  /// the control socket's subscribers.
  private func publish(cues: [Cue], at now: Int64, force: Bool = false) {
    let instant = timeBase.engineInstant(atMonotonic: now)
    let snapshot = displayedSnapshot(at: instant)
    if force || now >= nextTimeZoneReload {
      // A zone changed with `timedatectl set-timezone` shows within a minute (or at a reload).
      WallClock.reloadTimeZone()
      civilTimes.removeAll()
      nextTimeZoneReload = now + Self.timeZoneReloadInterval
    }
    let wall = WallClock.now()
    // Outputs schedule sound and light from a cue's instant: give it to them on the real
    // monotonic clock (engine instants run N times faster under --speed).
    let cues = cues.map { cue -> Cue in
      var real = cue
      real.instant = EngineInstant(nanoseconds: timeBase.monotonic(forEngine: cue.instant))
      return real
    }
    // One frame for every output that has no cues left over from being down.
    let frame = OutputFrame(
      snapshot: snapshot, cues: cues, tokens: configuration.tokens, words: configuration.words,
      clock: configuration.clock, civilTime: civilTimes.civilTime(at: wall), monotonicNow: now,
      speed: timeBase.speed, message: message?.text, muted: muted,
      nextChange: nextDisplayChange(at: now, wall: wall),
      preview: FramePreview(source: previewSource, now: now, wall: wall))
    for slot in outputs {
      if case .running = slot.state, slot.pendingCues.isEmpty {
        render(frame, to: slot, at: now)
        continue
      }
      slot.pendingCues += cues
      // An output that is down keeps its cues for when it comes back, but not forever: past
      // this many they would be stale anyway (the engine drops stale cues the same way).
      if slot.pendingCues.count > Self.maximumPendingCues {
        slot.pendingCues.removeFirst(slot.pendingCues.count - Self.maximumPendingCues)
      }
      guard case .running = slot.state else { continue }
      var own = frame
      own.cues = slot.pendingCues
      render(own, to: slot, at: now)
    }
    if let server, server.hasSubscribers {
      for cue in cues {
        server.broadcast(CommandProtocol.event("cue", [("cue", CommandProtocol.cue(cue))]))
      }
      let status = currentStatus(at: now)
      // Continuous figures (elapsed to the nanosecond) change on every wake-up; an event is
      // sent when something a person would see changes.
      var visible = status.objectValue ?? JSONObject()
      for key in ["elapsed_s", "remaining_s", "segment_remaining_s", "time_under_tension_s"] {
        visible[key] = nil
      }
      if force || JSONValue.object(visible) != lastBroadcastStatus {
        lastBroadcastStatus = .object(visible)
        server.broadcast(CommandProtocol.event("status", [("status", status)]))
      }
    }
    if notifier.isEnabled {
      let text = statusText(at: now)
      if text != lastStatusText {
        lastStatusText = text
        notifier.status(text)
      }
    }
  }

  /// Gives `frame` to a running output; if it fails, the frame's cues wait for its return.
  private func render(_ frame: OutputFrame, to slot: OutputSlot, at now: Int64) {
    do {
      try slot.plugin.render(frame)
      slot.pendingCues = []
    } catch {
      slot.pendingCues = frame.cues
      fail(slot, error, at: now)
    }
  }

  /// What the displays will show at monotonic `later` if nobody presses anything, for a frame
  /// made at `now` and wall-clock `wall`. A copy of the engine runs ahead; the cues it produces
  /// are dropped with it.
  private func picture(at later: Int64, from now: Int64, wall: WallClock.Instant)
    -> FramePreview.Picture
  {
    var engine = host.engine
    let ahead = timeBase.engineInstant(atMonotonic: later)
    _ = engine.advance(to: ahead)
    let future = displayedSnapshot(engine.snapshot(at: ahead), at: ahead)
    var futureWall = wall
    let nanoseconds = Int64(wall.nanoseconds) + max(0, later - now)
    futureWall.seconds += nanoseconds / 1_000_000_000
    futureWall.nanoseconds = Int32(nanoseconds % 1_000_000_000)
    return (future, WallClock.civilTime(at: futureWall))
  }

  /// What the displays show: the workout, or the time of day while idle when so configured.
  private func displayedSnapshot(at instant: EngineInstant) -> WorkoutSnapshot {
    displayedSnapshot(host.snapshot(at: instant), at: instant)
  }

  private func displayedSnapshot(_ snapshot: WorkoutSnapshot, at instant: EngineInstant)
    -> WorkoutSnapshot
  {
    guard snapshot.runState == .idle, configuration.clock.idle == .clock else { return snapshot }
    let name = host.preset.name
    let face = configuration.clock.face
    if let idleClock, idleClock.name == name, idleClock.face == face {
      return idleClock.engine.snapshot(at: instant)
    }
    guard let clock = try? WorkoutEngine(plan: WorkoutPlan(name: name, mode: .clock(face))) else {
      return snapshot
    }
    idleClock = (name, face, clock)
    return clock.snapshot(at: instant)
  }

  private func statusText(at now: Int64) -> String {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    var text = "\(snapshot.runState.rawValue) \(snapshot.presetName)"
    if let display = snapshot.display { text += " " + TimeText.format(display) }
    if let round = snapshot.round, snapshot.runState != .idle { text += " R \(round)" }
    if let note = statusNote { text += "; " + note }
    return text
  }

  // MARK: - Time

  /// When the displays change next: the engine's next deadline, or the next second of the time
  /// of day while it is shown.
  private func nextDisplayChange(at now: Int64, wall: WallClock.Instant) -> Int64? {
    if let deadline = host.nextDeadline { return timeBase.monotonic(forEngine: deadline) }
    if host.showsTimeOfDay(idleShowsClock: configuration.clock.idle == .clock) {
      return now + (1_000_000_000 - Int64(wall.nanoseconds))
    }
    return nil
  }

  private func nextWakeUp(after now: Int64) -> Int64 {
    var best = now + 3_600_000_000_000
    func consider(_ candidate: Int64?) {
      if let candidate, candidate < best { best = candidate }
    }
    let engineDeadline = host.nextDeadline.map { timeBase.monotonic(forEngine: $0) }
    consider(engineDeadline)
    for slot in outputs {
      switch slot.state {
      case .running: consider(slot.plugin.nextWakeUp(after: now))
      case .failed(let retryAt, _): consider(retryAt)
      }
    }
    for slot in inputs {
      switch slot.state {
      case .running: consider(slot.plugin.nextWakeUp(after: now))
      case .failed(let retryAt, _): consider(retryAt)
      }
    }
    consider(message?.until)
    consider(server?.nextWakeUp(after: now))
    if watchdogInterval != nil { consider(nextWatchdogPing) }
    // The time of day changes every second; only wake for it while it is shown.
    if host.showsTimeOfDay(idleShowsClock: configuration.clock.idle == .clock) {
      let wall = WallClock.now()
      consider(now + (1_000_000_000 - Int64(wall.nanoseconds)))
    }
    awaitedEngineDeadline = engineDeadline
    return best
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

  private func pingWatchdog(at now: Int64) {
    guard let interval = watchdogInterval, now >= nextWatchdogPing else { return }
    notifier.watchdog()
    nextWatchdogPing = now + interval
  }

  // MARK: - State

  private func restoreState(from store: StateStore) {
    switch store.load() {
    case .none:
      return
    case .corrupt(let reason, let movedTo):
      logger.warning(
        "the saved workout state was unreadable; moved aside, starting idle",
        [("moved_to", movedTo), ("reason", reason)])
    case .loaded(let saved):
      let now = MonotonicClock.now()
      guard
        let plan = host.restore(
          saved, bootID: (try? BootID.current()) ?? "", monotonicNow: now, wallNow: WallClock.now())
      else { return }
      let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
      let how: String
      switch plan {
      case .resumeByMonotonic: how = "resumed"
      case .resumeByWallClock: how = "resumed after a reboot"
      case .restorePaused: how = "restored paused"
      }
      logger.notice(
        "workout state restored",
        [
          ("how", how), ("preset", saved.preset), ("state", snapshot.runState.rawValue),
          ("elapsed", snapshot.elapsed.description),
        ])
    }
  }

  private func shutDown() {
    notifier.stopping()
    let now = MonotonicClock.now()
    host.save(at: timeBase.engineInstant(atMonotonic: now))
    // Inputs first, so no action arrives while outputs go to their safe state; both in the
    // reverse of the order they started in.
    for slot in inputs.reversed() {
      unwatch(slot)
      timedStop(slot.instance.id) { slot.plugin.stop() }
    }
    for slot in outputs.reversed() {
      unwatch(slot)
      timedStop(slot.instance.id) { slot.plugin.stop() }
    }
    logger.resetSink()
    server?.close()
    logger.info("stopped")
  }
}

extension Daemon {
  /// Runs a plugin's `stop()` and names the plugin in the log when it overran its budget.
  fileprivate func timedStop(_ id: String, _ stop: () -> Void) {
    let start = MonotonicClock.now()
    stop()
    let took = MonotonicClock.now() - start
    if took > Self.stopBudget {
      logger.warning("plugin was slow to stop", [("plugin", id), ("ms", String(took / 1_000_000))])
    }
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
