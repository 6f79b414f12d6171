// SPDX-License-Identifier: MIT
// A typed request as the line a client sends: the inverse of `CommandProtocol.parse`, so that
// wodclockctl, the link and the tests build `Command` values and never spell the JSON by hand.

import JSONKit
import WorkoutCore

extension Command {
  /// The request's `cmd`.
  public var name: String {
    switch self {
    case .action(let action): action.rawValue
    case .load: "load"
    case .again: "again"
    case .recent: "recent"
    case .status: "status"
    case .presets: "presets"
    case .history: "history"
    case .reload: "reload"
    case .subscribe: "subscribe"
    case .version: "version"
    case .stats: "stats"
    case .mute: "mute"
    case .snapshot: "snapshot"
    case .schedule: "schedule"
    case .heats: "heats"
    case .lane: "lane"
    case .score: "score"
    case .results: "results"
    }
  }

  /// The members a request of this command carries besides `v`, `id` and `cmd`.
  var members: [(String, JSONValue)] {
    switch self {
    case .load(.preset(let name)): [("preset", .string(name))]
    case .load(.workout(let text)): [("workout", .string(text))]
    case .history(let limit): [("limit", .integer(Int64(limit)))]
    case .mute(let on): on.map { [("on", .bool($0))] } ?? []
    case .snapshot(let request):
      (request.output.map { [("output", .string($0))] } ?? [])
        + (request.previewSize.map {
          [("width", .integer(Int64($0.width))), ("height", .integer(Int64($0.height)))]
        } ?? [])
    case .heats(let request): request.members
    case .lane(let request): request.members
    case .score(let athlete, let score): [("athlete", .string(athlete)), ("score", .string(score))]
    case .action, .again, .recent, .status, .presets, .reload, .subscribe, .version, .stats,
      .schedule, .results:
      []
    }
  }
}

extension CommandRequest {
  /// The request as a JSON object: `{"v": 1, "cmd": "load", "preset": "fran", ...}`.
  /// `CommandProtocol.parse` of its serialization gives this request back.
  public var encoded: JSONValue {
    var object = JSONObject([("v", .integer(CommandProtocol.version))])
    if let id { object["id"] = id }
    object["cmd"] = .string(command.name)
    for (key, value) in command.members { object[key] = value }
    if replace { object["replace"] = .bool(true) }
    if start { object["start"] = .bool(true) }
    return .object(object)
  }

  /// The request line, with its newline.
  public var line: String { encoded.serialized() + "\n" }
}
