// SPDX-License-Identifier: MIT
// How the parts the daemon makes reach back into it: the command responder answers from the
// engine, the loop's figures, the schedule, the web and the link; a plugin's context gives it
// the logger, the clock and the command vocabulary.

import Configuration
import ControlProtocol
import JSONKit
import WorkoutCore

extension Daemon {
  /// Answers a request of the command vocabulary now, from the socket or a plugin.
  func respond(to request: CommandRequest) -> (reply: JSONValue, subscribe: Bool) {
    responder.respond(to: request, at: clock.monotonic())
  }

  func makeResponder() -> CommandResponder {
    let responder = CommandResponder(
      host: host, frames: frames, supervisor: supervisor, timeBase: timeBase,
      configPath: configPath, actions: self)
    responder.clientCount = { [unowned self] in server.clientCount }
    // A deadline that passed while the loop was held (stopped, or busy with a flood) and that
    // the loop has not got to yet shows in the answer at its lateness so far: a request served
    // in the same wake-up as that deadline would otherwise report the figures from before it.
    // It is not recorded here: the loop gets to it only when it advances the engine, and that
    // lateness is the one that counts.
    responder.lateness = { [unowned self] now in
      lateness.summary(at: now, engineDeadline: engineDeadline)
    }
    responder.schedule = { [unowned self] now in
      scheduler.report(at: now, loadedPreset: host.preset.name)
    }
    responder.web = { [unowned self] in web?.statistics }
    responder.link = { [unowned self] in link?.status }
    responder.linkStatistics = { [unowned self] in link?.statistics ?? [] }
    responder.heatStatus = { [unowned self] now in
      let rule = scoringRule
      let runState = host.snapshot(at: timeBase.engineInstant(atMonotonic: now)).runState
      return [
        ("heat", heatDesk.statusJSON(rule: rule, at: now)),
        ("board", heatDesk.boardJSON(rule: rule, runState: runState)),
      ]
    }
    responder.heatsSummary = { [unowned self] in heatDesk.heatsJSON() }
    responder.results = { [unowned self] in heatDesk.resultsMembers(rule: scoringRule) }
    return responder
  }

  func context(for id: String) -> PluginContext {
    PluginContext(
      id: id, logger: logger, speed: timeBase.speed, clock: clock,
      claimTerminal: { [logger] show in logger.showOnTerminalView(show) },
      command: { [unowned self] request in respond(to: request).reply })
  }
}
