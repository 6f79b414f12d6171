// SPDX-License-Identifier: MIT
// The commands of a throwdown and a class's scores: the heat sheet, a lane's finish, a typed
// score and the results.
//
// {"cmd": "heats"}                                      the sheet and where the event stands
// {"cmd": "heats", "op": "load", "csv": TEXT, "name": "heats.csv"}
//     a heat sheet (CSV); refused `bad_heat_sheet` with the rendered diagnostics
// {"cmd": "heats", "op": "clear"}                       no sheet: numbered lanes
// {"cmd": "heats", "op": "next"}                        call up the next heat, then its start
// {"cmd": "heats", "op": "board", "on": true}           the event's leaderboard on the TV
// {"cmd": "lane", "op": "finish", "lane": 3}            also "undo" and "tiebreak"
// {"cmd": "lane", "op": "reps", "lane": 3, "reps": 12}  reps done at the cap (For Time)
// {"cmd": "lane", "op": "score", "lane": 3, "score": "5+12"}   an AMRAP's rounds and reps
// {"cmd": "score", "athlete": "Anna", "score": "7:42"}  a class score, for today's last
//                                                      For Time or AMRAP
// {"cmd": "results"}  -> "results": [ROW, ...], "csv": TEXT, ROW = {"division", "place",
//     "athlete", "heat", "lane", "score", "time_s", "tiebreak_s"}

import JSONKit

/// What `heats` asks for.
public enum HeatsRequest: Equatable, Sendable {
  /// The sheet and the event's state.
  case show
  /// Loads a heat sheet: its CSV text and the name its diagnostics give it.
  case load(csv: String, name: String)
  /// Drops the sheet: lanes are numbered, scores are a class's.
  case clear
  /// Calls up the next heat; its start follows the transition countdown.
  case next
  /// Shows the event's leaderboard on the TV, or takes it away.
  case board(on: Bool)

  /// The `op` member.
  public var operation: String {
    switch self {
    case .show: "show"
    case .load: "load"
    case .clear: "clear"
    case .next: "next"
    case .board: "board"
    }
  }

  static let operations = ["show", "load", "clear", "next", "board"]
}

/// What `lane` asks for: one judge's input on one lane.
public struct LaneRequest: Equatable, Sendable {
  public enum Operation: Equatable, Sendable {
    /// The lane's athlete finished, at the instant the request is handled.
    case finish
    /// Takes back the lane's last finish, tiebreak, reps or score (a bumped button).
    case undo
    /// The athlete reached a tiebreak point.
    case tiebreak
    /// Reps done when the cap ended a For Time.
    case reps(Int)
    /// An AMRAP's score as written: "5+12", or reps alone.
    case score(String)

    /// The `op` member.
    public var name: String {
      switch self {
      case .finish: "finish"
      case .undo: "undo"
      case .tiebreak: "tiebreak"
      case .reps: "reps"
      case .score: "score"
      }
    }

    static let names = ["finish", "undo", "tiebreak", "reps", "score"]
  }

  /// The lanes a request may name (a sheet's lanes are checked by the daemon).
  public static let lanes = 1...64
  /// The most reps a lane may report.
  public static let maximumReps = 100_000
  /// The longest score text.
  public static let maximumScoreBytes = 32

  public var lane: Int
  public var operation: Operation

  public init(lane: Int, _ operation: Operation) {
    self.lane = lane
    self.operation = operation
  }
}

/// The most bytes of a heat sheet in one request (the request line's limit leaves room for the
/// JSON around it).
public let maximumHeatSheetBytes = CommandProtocol.maximumLineBytes - 1_024

extension CommandProtocol {
  static func parseHeats(_ object: JSONObject, id: JSONValue?) -> Result<
    CommandRequest, CommandRejection
  > {
    let operation = object["op"].map { $0.stringValue ?? "" } ?? "show"
    let request: HeatsRequest
    switch operation {
    case "show": request = .show
    case "clear": request = .clear
    case "next": request = .next
    case "board":
      guard let on = object["on"]?.boolValue else {
        return reject("bad_request", "\"board\" needs \"on\": true or false", id)
      }
      request = .board(on: on)
    case "load":
      guard let csv = object["csv"]?.stringValue else {
        return reject("bad_request", "\"load\" needs \"csv\": the heat sheet's text", id)
      }
      guard csv.utf8.count <= maximumHeatSheetBytes else {
        return reject(
          "too_large", "a heat sheet has \(maximumHeatSheetBytes) bytes at most", id)
      }
      let name = object["name"]?.stringValue ?? "heats.csv"
      guard !name.isEmpty, name.utf8.count <= 255, !name.contains(where: \.isNewline) else {
        return reject("bad_request", "\"name\" must be a file name (one line, 255 bytes)", id)
      }
      request = .load(csv: csv, name: name)
    default:
      return reject(
        "bad_request",
        "unknown heats operation '\(operation)'; operations: "
          + HeatsRequest.operations.joined(separator: ", "), id)
    }
    return .success(CommandRequest(id: id, command: .heats(request)))
  }

  static func parseLane(_ object: JSONObject, id: JSONValue?) -> Result<
    CommandRequest, CommandRejection
  > {
    let names = LaneRequest.Operation.names.joined(separator: ", ")
    guard let name = object["op"]?.stringValue else {
      return reject("bad_request", "\"lane\" needs \"op\": one of \(names)", id)
    }
    guard let number = object["lane"]?.intValue, LaneRequest.lanes.contains(Int(number)) else {
      return reject(
        "bad_request",
        "\"lane\" must be a lane's number, \(LaneRequest.lanes.lowerBound) to "
          + "\(LaneRequest.lanes.upperBound)", id)
    }
    let operation: LaneRequest.Operation
    switch name {
    case "finish": operation = .finish
    case "undo": operation = .undo
    case "tiebreak": operation = .tiebreak
    case "reps":
      guard let reps = object["reps"]?.intValue, (0...Int64(LaneRequest.maximumReps)).contains(reps)
      else {
        return reject(
          "bad_request", "\"reps\" must be a whole number from 0 to \(LaneRequest.maximumReps)",
          id)
      }
      operation = .reps(Int(reps))
    case "score":
      guard let score = object["score"]?.stringValue, !score.isEmpty,
        score.utf8.count <= LaneRequest.maximumScoreBytes
      else {
        return reject(
          "bad_request",
          "\"score\" must be a score as written (\"5+12\"), \(LaneRequest.maximumScoreBytes) "
            + "bytes at most", id)
      }
      operation = .score(score)
    default:
      return reject("bad_request", "unknown lane operation '\(name)'; operations: \(names)", id)
    }
    return .success(
      CommandRequest(id: id, command: .lane(LaneRequest(lane: Int(number), operation))))
  }

  static func parseScore(_ object: JSONObject, id: JSONValue?) -> Result<
    CommandRequest, CommandRejection
  > {
    guard let athlete = object["athlete"]?.stringValue,
      !athlete.allSatisfy({ $0 == " " }), athlete.count <= 80,
      !athlete.contains(where: \.isNewline)
    else {
      return reject("bad_request", "\"athlete\" must be a name, 1 to 80 characters", id)
    }
    guard let score = object["score"]?.stringValue, !score.isEmpty,
      score.utf8.count <= LaneRequest.maximumScoreBytes
    else {
      return reject(
        "bad_request", "\"score\" must be a score as written (\"7:42\", \"5+12\", \"CAP+12\")", id
      )
    }
    return .success(CommandRequest(id: id, command: .score(athlete: athlete, score: score)))
  }
}

extension HeatsRequest {
  var members: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [("op", .string(operation))]
    switch self {
    case .load(let csv, let name): members += [("csv", .string(csv)), ("name", .string(name))]
    case .board(let on): members.append(("on", .bool(on)))
    case .show, .clear, .next: break
    }
    return members
  }
}

extension LaneRequest {
  var members: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      ("op", .string(operation.name)), ("lane", .integer(Int64(lane))),
    ]
    switch operation {
    case .reps(let reps): members.append(("reps", .integer(Int64(reps))))
    case .score(let score): members.append(("score", .string(score)))
    case .finish, .undo, .tiebreak: break
    }
    return members
  }
}
