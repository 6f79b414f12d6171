// SPDX-License-Identifier: MIT
// The control socket's protocol: one JSON object per line each way, versioned.
//
// Request:  {"v": 1, "id": 7, "cmd": "load", "preset": "fran"}
// A load over a running or paused workout (count-in, running, paused) is answered `busy` unless
// the request says `"replace": true`.
// Reply:    {"v": 1, "id": 7, "ok": true, "status": {...}}
// Error:    {"v": 1, "id": 7, "ok": false, "error": {"code": "unknown_preset", "message": "..."}}
// Events after `subscribe`: {"v": 1, "event": "status", "status": {...}} and
//                           {"v": 1, "event": "cue", "cue": {...}, "due_ms": 81234.567}
// where `due_ms` is the instant the cue was due on the daemon's CLOCK_MONOTONIC, in milliseconds
// to the microsecond (real time, also under --speed).
// `v` and `id` are optional in requests; `id` is echoed back. Requests may be pipelined; the
// replies come in order. Errors about the connection rather than a request, without an id:
// `line_too_long`, `evicted` (closed to make room for a new client), `too_many_clients`; a reply
// too long to queue is answered `too_large` (limits: CommandServer).
// {"cmd": "mute"} toggles the sounders like the `mute` control action; {"cmd": "mute", "on": true}
// sets it, so a script can silence the clock without reading the status first.
//
// {"cmd": "snapshot"} answers with the picture an LED matrix shows:
//   {"v": 1, "ok": true, "width": 64, "height": 32, "rgb_base64": "AAAA...",
//    "output": "wall", "preview": false, "connected": true}
// `rgb_base64` is base64 (RFC 4648, padded) of width × height × 3 bytes: red, green, blue of
// each LED, row by row from the top-left one as people see the wall, before brightness and
// gamma. It is the last picture the matrix output named by `output` sent to its controller
// (the first matrix output, or the one the request's `output` names; `connected` says whether
// the controller is there now). With `width` and `height` in the request, or when no matrix
// output is configured, it is a preview instead (`"preview": true, "output": null`): what a
// matrix of that size (default 64×32) would show now, in the font of the first matrix output.
// Errors: `unknown_output` (the message lists the matrix outputs), `no_picture` (the matrix has
// sent nothing yet), `too_large`, `bad_request`.
//
// {"cmd": "schedule"} answers with the class schedule as it stands now:
//   {"v": 1, "ok": true, "synchronized": true, "today": "2026-01-05", "lead_s": 300,
//    "classes": [CLASS, ...], "next": CLASS or null, "loaded": "fran"}
// where CLASS is {"name": "6 AM WOD", "at": "06:00", "date": "2026-01-05", "weekday": "mon",
// "workout": "fran", "start_unix": ..., "load_unix": ..., "past": false}. `classes` are today's
// (local date) in order of their start; `synchronized` is the kernel's NTP status: while it is
// false no class is loaded. `loaded` is the preset on the clock now.

import JSONKit
import WorkoutCore

/// The commands of protocol version 1.
public enum Command: Equatable, Sendable {
  case action(WorkoutAction)
  /// Load a preset, or a workout written in the notation.
  case load(LoadTarget)
  /// Load the last workout of the history again.
  case again
  /// The last distinct workouts of the history, newest first.
  case recent
  case status
  case presets
  case history(limit: Int)
  case reload
  case subscribe
  case version
  /// The loop's wake-up lateness, CPU time and memory: is this machine keeping time?
  case stats
  /// The `mute` action: nil toggles, true silences the sounders, false lets them sound again.
  case mute(on: Bool?)
  /// The picture of an LED matrix, or a preview at a size.
  case snapshot(SnapshotRequest)
  /// Today's classes, the next one, and whether the wall clock is synchronized.
  case schedule
  /// The heat sheet and the event: show, load, clear, call up the next heat, the leaderboard.
  case heats(HeatsRequest)
  /// A judge's input on a lane: finish, undo, tiebreak, reps at the cap, an AMRAP score.
  case lane(LaneRequest)
  /// A class's score, typed by the coach or an athlete.
  case score(athlete: String, score: String)
  /// The ranked results, as rows and as CSV.
  case results

  /// Every command name, for error messages and the client's help.
  public static let names =
    WorkoutAction.allCases.map(\.rawValue) + [
      "load", "again", "recent", "status", "presets", "history", "reload", "subscribe",
      "version", "stats", "mute", "snapshot", "schedule", "heats", "lane", "score", "results",
    ]
}

/// What a `load` names: a preset of the config, or a workout as a coach writes it.
public enum LoadTarget: Equatable, Sendable {
  case preset(String)
  /// A text in the whiteboard notation (`amrap 14`), read by the daemon.
  case workout(String)
}

/// What `snapshot` asks for.
public struct SnapshotRequest: Equatable, Sendable {
  public struct Size: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
      self.width = width
      self.height = height
    }
  }
  /// The matrix output whose picture is wanted; nil for the first.
  public var output: String?
  /// A preview at this size instead of a matrix output's picture.
  public var previewSize: Size?

  public init(output: String? = nil, previewSize: Size? = nil) {
    self.output = output
    self.previewSize = previewSize
  }
}

public struct CommandRequest: Equatable, Sendable {
  public var id: JSONValue?
  public var command: Command
  /// `"replace": true`: a load may abandon a running or paused workout.
  public var replace = false
  /// `"start": true`: a load starts the workout it loaded (count-in first).
  public var start = false

  public init(id: JSONValue? = nil, command: Command, replace: Bool = false, start: Bool = false) {
    self.id = id
    self.command = command
    self.replace = replace
    self.start = start
  }
}

/// A request that could not be parsed, with the id to echo when one was readable.
public struct CommandRejection: Error, Equatable, Sendable {
  public var failure: CommandFailure
  public var id: JSONValue?
}

/// An error reply's code and message.
public struct CommandFailure: Error, Equatable, Sendable {
  public var code: String
  public var message: String
  public init(_ code: String, _ message: String) {
    self.code = code
    self.message = message
  }
}

public enum CommandProtocol {
  public static let version: Int64 = 1
  /// Longest request line accepted; a longer one is answered with `line_too_long` and the
  /// connection is closed (its end cannot be found reliably). 64 KiB: a heat sheet exported by
  /// competition software, with its extra columns, travels in one `heats load`.
  public static let maximumLineBytes = 64 << 10
  public static let defaultHistoryLimit = 20
  /// The sides a `snapshot` preview may have, in LEDs: those a matrix output may have.
  public static let snapshotSides = 1...1024
  /// The most LEDs a `snapshot` reply carries (128K: 512 KiB of base64), so the reply stays
  /// well inside what the server queues for one client.
  public static let maximumSnapshotLEDs = 1 << 17

  private static let parseOptions = JSONParseOptions(maxDepth: 8, maxInputBytes: maximumLineBytes)

  /// Parses one request line (without its newline).
  public static func parse(_ line: some Collection<UInt8>) -> Result<
    CommandRequest, CommandRejection
  > {
    let value: JSONValue
    do {
      value = try JSONValue.parse(line, options: parseOptions)
    } catch {
      return reject("bad_json", "the request is not JSON: \(error)", nil)
    }
    guard case .object(let object) = value else {
      return reject("bad_request", "a request is a JSON object", nil)
    }
    let id = object["id"]
    if let version = object["v"], version.intValue != Self.version {
      return reject(
        "unsupported_version", "this daemon speaks protocol version \(Self.version)", id)
    }
    guard let name = object["cmd"]?.stringValue else {
      return reject("bad_request", "missing \"cmd\" (a string)", id)
    }
    if let action = WorkoutAction(rawValue: name) {
      return .success(CommandRequest(id: id, command: .action(action)))
    }
    switch name {
    case "load", "again":
      let target: LoadTarget?
      switch (object["preset"], object["workout"]) {
      case (nil, nil) where name == "again":
        target = nil
      case (let preset?, nil) where name == "load":
        guard let preset = preset.stringValue, !preset.isEmpty else {
          return reject("bad_request", "\"preset\" must be a preset's name", id)
        }
        target = .preset(preset)
      case (nil, let workout?) where name == "load":
        guard let workout = workout.stringValue, !workout.isEmpty else {
          return reject(
            "bad_request", "\"workout\" must be a workout as written (\"amrap 14\")", id)
        }
        target = .workout(workout)
      case (nil, nil):
        return reject(
          "bad_request", "\"load\" needs \"preset\" (a name) or \"workout\" (\"amrap 14\")", id)
      default:
        return reject(
          "bad_request",
          name == "load"
            ? "\"load\" takes \"preset\" or \"workout\", not both"
            : "\"again\" loads the last workout of the history: it takes no preset or workout",
          id)
      }
      guard let replace = flag("replace", in: object), let start = flag("start", in: object) else {
        return reject("bad_request", "\"replace\" and \"start\" must be true or false", id)
      }
      return .success(
        CommandRequest(
          id: id, command: target.map { .load($0) } ?? .again, replace: replace, start: start))
    case "recent": return .success(CommandRequest(id: id, command: .recent))
    case "status": return .success(CommandRequest(id: id, command: .status))
    case "presets": return .success(CommandRequest(id: id, command: .presets))
    case "history":
      var limit = defaultHistoryLimit
      if let given = object["limit"] {
        guard let number = given.intValue, number > 0, number <= 10_000 else {
          return reject("bad_request", "\"limit\" must be between 1 and 10000", id)
        }
        limit = Int(number)
      }
      return .success(CommandRequest(id: id, command: .history(limit: limit)))
    case "reload": return .success(CommandRequest(id: id, command: .reload))
    case "subscribe": return .success(CommandRequest(id: id, command: .subscribe))
    case "version": return .success(CommandRequest(id: id, command: .version))
    case "stats": return .success(CommandRequest(id: id, command: .stats))
    case "schedule": return .success(CommandRequest(id: id, command: .schedule))
    case "mute":
      var on: Bool?
      if let given = object["on"] {
        guard let value = given.boolValue else {
          return reject("bad_request", "\"on\" must be true or false (leave it out to toggle)", id)
        }
        on = value
      }
      return .success(CommandRequest(id: id, command: .mute(on: on)))
    case "snapshot":
      return parseSnapshot(object, id: id)
    case "heats": return parseHeats(object, id: id)
    case "lane": return parseLane(object, id: id)
    case "score": return parseScore(object, id: id)
    case "results": return .success(CommandRequest(id: id, command: .results))
    default:
      return reject(
        "unknown_command",
        "unknown command '\(name)'; commands: \(Command.names.joined(separator: ", "))", id)
    }
  }

  private static func parseSnapshot(_ object: JSONObject, id: JSONValue?) -> Result<
    CommandRequest, CommandRejection
  > {
    var request = SnapshotRequest()
    if let given = object["output"] {
      guard let output = given.stringValue, !output.isEmpty else {
        return reject("bad_request", "\"output\" must be an output's id (a string)", id)
      }
      request.output = output
    }
    if object["width"] != nil || object["height"] != nil {
      let sides = "\(snapshotSides.lowerBound) to \(snapshotSides.upperBound)"
      guard let width = object["width"]?.intValue, let height = object["height"]?.intValue,
        snapshotSides.contains(Int(width)), snapshotSides.contains(Int(height))
      else {
        return reject(
          "bad_request", "\"width\" and \"height\" go together, whole numbers from \(sides)", id)
      }
      guard width * height <= maximumSnapshotLEDs else {
        return reject(
          "too_large", "a preview has \(maximumSnapshotLEDs) LEDs at most, not \(width)x\(height)",
          id)
      }
      guard request.output == nil else {
        return reject(
          "bad_request",
          "\"output\" and a size exclude each other: a matrix output's picture has its own size",
          id)
      }
      request.previewSize = SnapshotRequest.Size(width: Int(width), height: Int(height))
    }
    return .success(CommandRequest(id: id, command: .snapshot(request)))
  }

  static func reject(_ code: String, _ message: String, _ id: JSONValue?)
    -> Result<CommandRequest, CommandRejection>
  {
    .failure(CommandRejection(failure: CommandFailure(code, message), id: id))
  }

  /// A success reply with extra members.
  public static func success(id: JSONValue?, _ members: [(String, JSONValue)] = []) -> JSONValue {
    var object = JSONObject([("v", .integer(version))])
    if let id { object["id"] = id }
    object["ok"] = .bool(true)
    for (key, value) in members { object[key] = value }
    return .object(object)
  }

  /// An error reply.
  public static func failure(id: JSONValue?, _ failure: CommandFailure) -> JSONValue {
    var object = JSONObject([("v", .integer(version))])
    if let id { object["id"] = id }
    object["ok"] = .bool(false)
    object["error"] = .object(
      JSONObject([("code", .string(failure.code)), ("message", .string(failure.message))]))
    return .object(object)
  }

  /// An event for subscribers.
  public static func event(_ name: String, _ members: [(String, JSONValue)]) -> JSONValue {
    var object = JSONObject([("v", .integer(version)), ("event", .string(name))])
    for (key, value) in members { object[key] = value }
    return .object(object)
  }

  /// The status object: what `wodclockctl status --json` prints.
  /// `muted`: the `mute` action's state (sounders silent); lamps and displays carry on.
  /// `plan`: the loaded plan, whose whiteboard and media the status lists (nil: none).
  public static func status(
    _ snapshot: WorkoutSnapshot, display: String?, muted: Bool, plan: WorkoutPlan? = nil
  ) -> JSONValue {
    func seconds(_ span: TimeSpan?) -> JSONValue { span.map { .double($0.seconds) } ?? .null }
    func counter(_ counter: Counter?) -> (JSONValue, JSONValue) {
      guard let counter else { return (.null, .null) }
      return (.integer(Int64(counter.index)), counter.count.map { .integer(Int64($0)) } ?? .null)
    }
    let (round, rounds) = counter(snapshot.round)
    let (set, sets) = counter(snapshot.set)
    let (rep, reps) = counter(snapshot.rep)
    let active = snapshot.runState != .idle
    let targetReps: JSONValue = snapshot.targetReps.map { .integer(Int64($0)) } ?? .null
    // The line of the step under way (none before the start or after the finish), only when
    // the plan has that line.
    let underWay = snapshot.runState != .idle && snapshot.runState != .finished
    let line = snapshot.whiteboardLine.flatMap { line in
      underWay && (plan?.whiteboard.indices.contains(line) ?? false) ? line : nil
    }
    // Always a list (empty without a whiteboard), so a client reads it without a check.
    let whiteboard = JSONValue.array((plan?.whiteboard ?? []).map { .string($0.text) })
    let whiteboardLine: JSONValue = line.map { .integer(Int64($0)) } ?? .null
    let nextMovement: JSONValue = snapshot.nextMovement.map { .string($0) } ?? .null
    let media: JSONValue = plan?.mediaShown(atLine: line).map { .string($0) } ?? .null
    return .object(
      JSONObject([
        ("state", .string(snapshot.runState.rawValue)),
        ("preset", .string(snapshot.presetName)),
        ("workout", snapshot.notation.map { .string($0) } ?? .null),
        ("mode", .string(snapshot.mode.rawValue)),
        ("label", snapshot.label.map { .string($0) } ?? .null),
        ("display", display.map { .string($0) } ?? .null),
        ("elapsed_s", .double(snapshot.elapsed.seconds)),
        ("remaining_s", seconds(snapshot.remaining)),
        ("segment", active ? snapshot.segmentKind.map { .string($0.rawValue) } ?? .null : .null),
        ("segment_remaining_s", active ? seconds(snapshot.segmentRemaining) : .null),
        ("round", round), ("rounds", rounds),
        ("set", set), ("sets", sets),
        ("rep", rep), ("reps", reps),
        ("target_reps", targetReps),
        ("side", snapshot.side.map { .string($0.rawValue) } ?? .null),
        ("laps", .integer(Int64(snapshot.laps))),
        ("time_under_tension_s", .double(snapshot.timeUnderTension.seconds)),
        ("finish_reason", snapshot.finishReason.map { .string($0.rawValue) } ?? .null),
        ("muted", .bool(muted)),
        ("whiteboard", whiteboard), ("whiteboard_line", whiteboardLine),
        ("next_movement", nextMovement), ("media", media),
      ]))
  }

  /// Monotonic nanoseconds as milliseconds, to the microsecond (a double holds them exactly for
  /// centuries of uptime).
  public static func milliseconds(ofMonotonic nanoseconds: Int64) -> Double {
    Double(nanoseconds / 1_000) / 1_000
  }

  /// A cue as an event member.
  public static func cue(_ kind: CueKind) -> JSONValue {
    var object = JSONObject([("name", .string(kind.name))])
    for (key, value) in cueFields(kind) { object[key] = .string(value) }
    return .object(object)
  }

  /// What a cue says besides its name, as the log and the events give it.
  public static func cueFields(_ kind: CueKind) -> [(String, String)] {
    switch kind {
    case .segmentStart(let segment): [("segment", segment.rawValue)]
    case .roundStart(let round): [("round", round.description)]
    case .roundsRemaining(let count): [("rounds_left", String(count))]
    case .countdown(let left, let ending):
      [("seconds_left", String(left)), ("ending", ending.rawValue)]
    case .repComplete(let rep): [("rep", rep.description)]
    case .setComplete(let set): [("set", set.description)]
    case .sideSwitch(let side): [("side", side.rawValue)]
    case .lap(let count): [("laps", String(count))]
    default: []
    }
  }
}
