// SPDX-License-Identifier: MIT
// wodclockctl's commands for a throwdown and a class's scores: heats, lane, score, results.

import ControlProtocol
import HardwareKit
import JSONKit

extension ClientMain {
  static let competitionSubcommands: [Subcommand] = [
    Subcommand(
      name: "heats", arguments: "[load FILE|next|clear|board on|off]",
      summary: "the heat sheet: load a CSV, call up the next heat, the leaderboard",
      details: """
        heats               the heats and their lanes, and where the event stands
        heats load FILE     a heat sheet: CSV with at least heat,lane,athlete,division
                            (header names in any case; other columns are kept)
        heats next          call up the next heat: its lanes on the displays, the transition
                            countdown, then the start
        heats clear         no sheet: lanes are numbered, scores are a class's
        heats board on|off  the event's leaderboard on the TV
        """,
      action: .send { words, _ in HeatsArguments.parse(words).map { Exchange(.heats($0)) } }),
    Subcommand(
      name: "lane", arguments: "finish|undo|tiebreak N", summary: "a judge's input on lane N",
      synopsis: "finish|undo|tiebreak N | reps N COUNT | score N ROUNDS+REPS",
      details: """
        lane finish N       lane N finished, now (a lane's button is timed by its press)
        lane undo N         take back lane N's last finish, tiebreak, reps or score
        lane tiebreak N     lane N reached a tiebreak point (as often as the workout has them)
        lane reps N COUNT   the reps lane N did when the cap ended a For Time
        lane score N 5+12   lane N's AMRAP score: rounds+reps, or reps alone
        """,
      action: .send { words, _ in LaneArguments.parse(words).map { Exchange(.lane($0)) } }),
    Subcommand(
      name: "score", arguments: "ATHLETE SCORE",
      summary: "a class score for today's last For Time or AMRAP: score Anna 7:42",
      details: "SCORE is a time (7:42), CAP+12 (capped, 12 reps short) or rounds+reps (5+12).",
      action: .send { words, _ in
        guard words.count >= 2, let score = words.last else {
          return .failure(
            ArgumentProblem(
              message: "'score' needs a name and a score, e.g. 'score Anna 7:42'",
              showsCommandUsage: true))
        }
        let athlete = words.dropLast().joined(separator: " ")
        return .success(Exchange(.score(athlete: athlete, score: score)))
      }),
    Subcommand(
      name: "results", arguments: "[--csv]",
      summary: "the ranked results per division (--csv: one row per athlete)",
      action: .send { words, _ in
        switch words {
        case []: return .success(Exchange(.results))
        case ["--csv"]:
          return .success(
            Exchange(.results) { reply, json in
              if !json { emitText(reply["csv"]?.stringValue ?? "") }
              return ExitCode.ok
            })
        default:
          return .failure(ArgumentProblem(message: "'results' takes only '--csv'"))
        }
      }),
  ]
}

/// The words after `heats`.
enum HeatsArguments {
  /// The largest heat sheet read: what one request carries.
  static let maximumFileBytes = maximumHeatSheetBytes

  static func parse(_ words: [String]) -> Result<HeatsRequest, ClientMain.ArgumentProblem> {
    switch words {
    case []: return .success(.show)
    case ["next"]: return .success(.next)
    case ["clear"]: return .success(.clear)
    case ["board", "on"]: return .success(.board(on: true))
    case ["board", "off"]: return .success(.board(on: false))
    case _ where words.count == 2 && words[0] == "load": return read(words[1])
    default:
      return .failure(
        ClientMain.ArgumentProblem(
          message: "'heats' takes 'load FILE', 'next', 'clear', 'board on|off' or nothing",
          showsCommandUsage: true))
    }
  }

  private static func read(_ path: String) -> Result<HeatsRequest, ClientMain.ArgumentProblem> {
    do throws(SystemError) {
      let text = try FileSystem.readTextFile(path, maximumCount: maximumFileBytes)
      return .success(.load(csv: text, name: path))
    } catch  where error.errno == .fileTooLarge {
      return .failure(
        ClientMain.ArgumentProblem(
          message: "\(path): a heat sheet has \(maximumFileBytes) bytes at most"))
    } catch {
      return .failure(ClientMain.ArgumentProblem(message: "cannot read the heat sheet: \(error)"))
    }
  }
}

/// The words after `lane`.
enum LaneArguments {
  static func parse(_ words: [String]) -> Result<LaneRequest, ClientMain.ArgumentProblem> {
    guard let name = words.first else { return problem("'lane' needs what happened and a lane") }
    guard words.count >= 2 else { return problem("'lane \(name)' needs a lane number") }
    guard let lane = Int(words[1]), LaneRequest.lanes.contains(lane) else {
      return problem(
        "'\(words[1])' is not a lane: lanes are numbered \(LaneRequest.lanes.lowerBound) to "
          + "\(LaneRequest.lanes.upperBound)")
    }
    let rest = Array(words.dropFirst(2))
    switch (name, rest.count) {
    case ("finish", 0): return .success(LaneRequest(lane: lane, .finish))
    case ("undo", 0): return .success(LaneRequest(lane: lane, .undo))
    case ("tiebreak", 0): return .success(LaneRequest(lane: lane, .tiebreak))
    case ("reps", 1):
      guard let reps = Int(rest[0]), (0...LaneRequest.maximumReps).contains(reps) else {
        return problem("'\(rest[0])' is not a count of reps (0 to \(LaneRequest.maximumReps))")
      }
      return .success(LaneRequest(lane: lane, .reps(reps)))
    case ("score", 1...):
      return .success(LaneRequest(lane: lane, .score(rest.joined(separator: " "))))
    case ("finish", _), ("undo", _), ("tiebreak", _):
      return problem("'lane \(name)' takes only the lane's number")
    case ("reps", _): return problem("'lane reps' takes the lane and the reps: 'lane reps 3 12'")
    case ("score", _):
      return problem("'lane score' takes the lane and the score: 'lane score 3 5+12'")
    default:
      return problem(
        "unknown lane input '\(name)'; they are: finish, undo, tiebreak, reps, score")
    }
  }

  private static func problem(_ message: String) -> Result<
    LaneRequest, ClientMain.ArgumentProblem
  > {
    .failure(ClientMain.ArgumentProblem(message: message, showsCommandUsage: true))
  }
}

extension HumanOutput {
  /// `heats`: one line per heat with its lanes; the current heat marked.
  static func heats(_ reply: JSONValue) -> String {
    guard let heats = reply["heats"], let list = heats["heats"]?.arrayValue, !list.isEmpty else {
      let lanes = reply["heats"]?["lanes"]?.intValue ?? 0
      return "no heat sheet: \(lanes) numbered lanes\n"
    }
    let current = heats["current"]?.intValue
    var text = heats["name"]?.stringValue.map { "\($0)\n" } ?? ""
    for heat in list {
      let number = heat["number"]?.intValue ?? 0
      text += (number == current ? "* " : "  ") + "heat \(number)\n"
      for lane in heat["lanes"]?.arrayValue ?? [] {
        let division = lane["division"]?.stringValue ?? ""
        text += "    lane \(pad(String(lane["lane"]?.intValue ?? 0), 3))"
        text += pad(lane["athlete"]?.stringValue ?? "", 28) + division + "\n"
      }
    }
    return text
  }

  /// The status's heat on a line of its own: `heat 3/5 running: L1 Anna 7:42.3 (1st) ...`.
  static func heatLine(_ heat: JSONValue) -> String {
    var text = "heat"
    if let number = heat["number"]?.intValue, number > 0 {
      text += " \(number)" + (heat["of"]?.intValue.map { "/\($0)" } ?? "")
    }
    text += " " + (heat["phase"]?.stringValue ?? "").replacingUnderscores()
    if let startsIn = heat["starts_in_s"]?.doubleValue {
      text += ", starts in " + clock(Int(startsIn.rounded(.up)))
    }
    text += ":"
    for lane in heat["lanes"]?.arrayValue ?? [] {
      text += "  L\(lane["lane"]?.intValue ?? 0)"
      if let athlete = lane["athlete"]?.stringValue, !athlete.isEmpty { text += " \(athlete)" }
      text += " " + (lane["score"]?.stringValue ?? lane["state"]?.stringValue ?? "")
      if let place = lane["place"]?.intValue { text += " (\(place))" }
    }
    return text + "\n"
  }
}

extension ClientMain {
  static func emitText(_ text: String) {
    _ = try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
  }
}
