// SPDX-License-Identifier: MIT
// What the daemon does when asked: an action from a button, a key, the command socket or a
// plugin; the mute; a message; a reload of the config file. Each takes one path, whoever asks.

import Configuration
import ControlProtocol
import WorkoutCore

extension Daemon: CommandActions {
  /// Performs an action from any source. Returns the refusal or failure, if any. A load over a
  /// running or paused workout is refused `busy` unless `replacing`. A lane's action here has
  /// no press instant (the socket, a keyboard's key): it happens `now`.
  @discardableResult
  func perform(_ action: ControlAction, replacing: Bool = false, at now: Int64)
    -> CommandFailure?
  {
    if case .lane(let what, let lane) = action {
      return laneAction(what, lane: lane, pressedAt: nil, at: now)
    }
    if let forwarded = forwardToLeader(action) { return forwarded }
    if case .load(let name) = action {
      return load(resolved: .preset(name), replacing: replacing, start: false, at: now)
    }
    if case .engine(let engineAction) = action, let scheduled = scheduleStart(engineAction, at: now)
    {
      return scheduled
    }
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
    case .load, .lane:
      break  // carried out by load(resolved:) and laneAction before the switch
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

  func handle(_ events: [InputEvent], at now: Int64) {
    for event in events {
      switch event {
      case .control(let name, let gesture, let pressedAt):
        guard let action = configuration.control(named: name)?.actions[gesture] else {
          logger.debug("control has no action", [("control", name), ("gesture", gesture.rawValue)])
          continue
        }
        switch action {
        case .load(let preset):
          loadAtTheWall(.preset(preset), at: now)
        case .lane(let what, let lane):
          // The lane's time is the press, by the input's own timestamp, however late the loop
          // got round to it.
          _ = laneAction(what, lane: lane, pressedAt: pressedAt, at: now)
        case .engine, .mute:
          perform(action, at: now)
        }
      case .action(let action):
        perform(action, at: now)
      case .loadPresetNumber(let number):
        guard number >= 1 && number <= configuration.presets.count else { continue }
        loadAtTheWall(.preset(configuration.presets[number - 1].name), at: now)
      case .compose(let key, let otherwise):
        compose(key, otherwise: otherwise, at: now)
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
      scheduler.replaceSchedule(next.schedule)
      supervisor.apply(from: previous, to: next, at: now)
      server.idleTimeout = next.daemon.clientTimeout.nanoseconds
      applyWeb(from: previous.web, to: next.web)
      applyLink(from: previous.mqtt, to: next.mqtt, at: now)
      heatDesk.settings = next.heats
      systemd.note = nil
      logger.info("reloaded", [("presets", String(next.presets.count))])
    }
    systemd.ready(host.snapshot(at: timeBase.engineInstant(atMonotonic: now)))
    publish(cues: [], at: now, force: true)
    return failure
  }
}
