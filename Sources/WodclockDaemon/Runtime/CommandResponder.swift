// SPDX-License-Identifier: MIT
// The answers to the command vocabulary (start, load, status, presets, history, stats,
// snapshot ...), for the command socket and for plugins that act on the clock.

import Configuration
import ControlProtocol
import DisplayKit
import HardwareKit
import JSONKit
import MatrixKit
import ProductVersion
import WorkoutCore
import WorkoutNotation

/// What a request can make the daemon do: the daemon carries these out, so a command from the
/// socket, a button and a plugin all take the same path.
protocol CommandActions: AnyObject {
  /// Performs an action; returns its refusal or failure, if any. A load over a running or
  /// paused workout is refused `busy` unless `replacing`.
  func perform(_ action: ControlAction, replacing: Bool, at now: Int64) -> CommandFailure?
  /// Loads a preset or a written workout (`busy` over a running one unless `replacing`), and
  /// starts it when `start`.
  func load(_ target: LoadTarget, replacing: Bool, start: Bool, at now: Int64) -> CommandFailure?
  /// Loads the last workout of the history again.
  func again(replacing: Bool, start: Bool, at now: Int64) -> CommandFailure?
  /// The last distinct workouts of the history, newest first.
  func recentWorkouts() -> [HistoryEntry]
  /// Silences the sounders or lets them sound again.
  func setMuted(_ on: Bool, at now: Int64)
  /// Reads the config file again; returns why it was not taken, if it was not.
  func reload(at now: Int64) -> CommandFailure?
  /// Shows, loads or clears the heat sheet, calls up the next heat, shows the leaderboard.
  func heats(_ request: HeatsRequest, at now: Int64) -> CommandFailure?
  /// A judge's input on a lane, timed at `pressedAt` when the input has its own instant.
  func lane(_ request: LaneRequest, pressedAt: Int64?, at now: Int64) -> CommandFailure?
  /// A class's score for the loaded For Time or AMRAP.
  func classScore(athlete: String, score: String, at now: Int64) -> CommandFailure?
}

/// Answers requests from what the daemon's parts know.
final class CommandResponder {
  private let host: EngineHost
  private let frames: FrameComposer
  private let supervisor: Supervisor
  private let timeBase: TimeBase
  private let configPath: String
  private unowned let actions: any CommandActions
  /// How many command socket clients there are, for `stats`.
  var clientCount: () -> Int = { 0 }
  /// The loop's wake-up lateness as of now, for `stats`.
  var lateness: (_ now: Int64) -> LatenessRecorder.Summary? = { _ in nil }
  /// The members of the `schedule` reply at an instant.
  var schedule: (Int64) -> [(String, JSONValue)] = { _ in [] }
  /// The web interface's figures for `stats`, nil without one.
  var web: () -> JSONValue? = { nil }
  /// The link between clocks in `status`, when the config has an `mqtt:` section.
  var link: () -> JSONValue? = { nil }
  /// The link's counts for `stats` (dropped messages, connections), empty without one.
  var linkStatistics: () -> [(String, JSONValue)] = { [] }
  /// The status's `heat` and `board` members at an instant.
  var heatStatus: (Int64) -> [(String, JSONValue)] = { _ in [] }
  /// The `heats` reply's member.
  var heatsSummary: () -> JSONValue = { .null }
  /// The `results` reply's members.
  var results: () -> [(String, JSONValue)] = { [] }

  init(
    host: EngineHost, frames: FrameComposer, supervisor: Supervisor, timeBase: TimeBase,
    configPath: String, actions: any CommandActions
  ) {
    self.host = host
    self.frames = frames
    self.supervisor = supervisor
    self.timeBase = timeBase
    self.configPath = configPath
    self.actions = actions
  }

  /// The reply to `request` at `now`, and whether the asker now subscribes to events.
  func respond(to request: CommandRequest, at now: Int64) -> (reply: JSONValue, subscribe: Bool) {
    let id = request.id
    switch request.command {
    case .action(let action):
      return (performing(.engine(action), id: id, at: now), false)
    case .load(let target):
      return (
        replying(
          actions.load(target, replacing: request.replace, start: request.start, at: now),
          id: id, at: now), false
      )
    case .again:
      return (
        replying(
          actions.again(replacing: request.replace, start: request.start, at: now), id: id,
          at: now), false
      )
    case .recent:
      let encoder = JSONValueEncoder()
      let entries = actions.recentWorkouts().compactMap { try? encoder.encode($0) }
      return (CommandProtocol.success(id: id, [("recent", .array(entries))]), false)
    case .mute(let on):
      // Setting the state it already has still answers ok (and shows the message again):
      // `mute on` from a script is idempotent.
      actions.setMuted(on ?? !frames.muted, at: now)
      return (statusReply(id: id, at: now), false)
    case .status:
      return (statusReply(id: id, at: now), false)
    case .presets:
      return (presets(id: id), false)
    case .history(let limit):
      let encoder = JSONValueEncoder()
      let entries = host.history(limit: limit).compactMap { try? encoder.encode($0) }
      return (CommandProtocol.success(id: id, [("history", .array(entries))]), false)
    case .reload:
      if let failure = actions.reload(at: now) {
        return (CommandProtocol.failure(id: id, failure), false)
      }
      return (CommandProtocol.success(id: id, [("config", .string(configPath))]), false)
    case .subscribe:
      return (statusReply(id: id, at: now), true)
    case .stats:
      return (stats(id: id, at: now), false)
    case .snapshot(let wanted):
      return (snapshot(wanted, id: id, at: now), false)
    case .schedule:
      return (CommandProtocol.success(id: id, schedule(now)), false)
    case .heats(let heats):
      if let failure = actions.heats(heats, at: now) {
        return (CommandProtocol.failure(id: id, failure), false)
      }
      return (
        CommandProtocol.success(
          id: id, [("heats", heatsSummary()), ("status", status(at: now))]), false
      )
    case .lane(let lane):
      return (replying(actions.lane(lane, pressedAt: nil, at: now), id: id, at: now), false)
    case .score(let athlete, let score):
      return (
        replying(actions.classScore(athlete: athlete, score: score, at: now), id: id, at: now),
        false
      )
    case .results:
      return (CommandProtocol.success(id: id, results()), false)
    case .version:
      return (
        CommandProtocol.success(
          id: id,
          [
            ("version", .string(WodclockVersion.current)),
            ("protocol", .integer(CommandProtocol.version)),
          ]), false
      )
    }
  }

  /// The status object of the socket: the engine's snapshot, its display text, the mute.
  func status(at now: Int64) -> JSONValue {
    let snapshot = host.snapshot(at: timeBase.engineInstant(atMonotonic: now))
    let status = CommandProtocol.status(
      snapshot, display: snapshot.display.map(TimeText.format), muted: frames.muted,
      plan: host.engine.plan)
    guard case .object(var members) = status else { return status }
    for (key, value) in heatStatus(now) { members[key] = value }
    if let link = link() { members["link"] = link }
    return .object(members)
  }

  private func performing(_ action: ControlAction, id: JSONValue?, at now: Int64) -> JSONValue {
    replying(actions.perform(action, replacing: false, at: now), id: id, at: now)
  }

  /// The failure, or the status after what was done.
  private func replying(_ failure: CommandFailure?, id: JSONValue?, at now: Int64) -> JSONValue {
    if let failure { return CommandProtocol.failure(id: id, failure) }
    return statusReply(id: id, at: now)
  }

  private func statusReply(id: JSONValue?, at now: Int64) -> JSONValue {
    CommandProtocol.success(id: id, [("status", status(at: now))])
  }

  private func presets(id: JSONValue?) -> JSONValue {
    let list = frames.configuration.presets.map { preset -> JSONValue in
      let length = (try? preset.plan.compile())?.workoutLength
      return .object(
        JSONObject([
          ("name", .string(preset.name)), ("mode", .string(preset.plan.mode.name.rawValue)),
          ("label", preset.plan.label.map { .string($0) } ?? .null),
          ("length_s", length.map { .double($0.seconds) } ?? .null),
        ]))
    }
    return CommandProtocol.success(
      id: id,
      [
        ("presets", .array(list)), ("current", .string(host.preset.name)),
        ("library", frames.configuration.workouts.json),
      ])
  }

  private func stats(id: JSONValue?, at now: Int64) -> JSONValue {
    var members: [(String, JSONValue)] = [("clients", .integer(Int64(clientCount())))]
    if let summary = lateness(now) {
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
    members.append(("web", web() ?? .null))
    members += linkStatistics()
    return CommandProtocol.success(id: id, members)
  }

  /// `snapshot`: the last picture a matrix output sent, or a preview of what the displays show
  /// now.
  private func snapshot(_ wanted: SnapshotRequest, id: JSONValue?, at now: Int64) -> JSONValue {
    let outputs = supervisor.outputs
    return SnapshotReply.reply(to: wanted, id: id, outputs: outputs) { size in
      // In the font of the first matrix output, as that matrix would show it at this size.
      let font = outputs.lazy.compactMap { $0 as? any PictureShowing }.first?.captionFont
      return MatrixPicture.preview(
        frames.stillFrame(at: now), width: size.width, height: size.height, font: font ?? .small)
    }
  }
}
