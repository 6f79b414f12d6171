// SPDX-License-Identifier: MIT
// The plan in a state message: as the coach wrote it when it reads back the same, else whole.

import JSONKit
import WorkoutCore
import WorkoutNotation

/// The workout a leader runs, as its state message carries it.
public enum LinkPlan: Sendable, Hashable {
  /// The notation (`amrap 14`), with what the notation takes from the leader's config rather
  /// than from the text: the count-in of a text that names none, and the cues (which decide
  /// the cue cursor's meaning, so they must be the leader's, not the follower's defaults).
  case notation(String, countIn: TimeSpan, cues: CueOptions)
  /// A preset of the config's own keys: the plan itself, in the state file's form.
  case compiled(WorkoutPlan)

  /// How `plan` travels: as its notation when that reads back into the same plan (as
  /// `--print-config` decides for a preset), else whole.
  public init(_ plan: WorkoutPlan) {
    if let notation = plan.notation,
      case .success(let read) = WorkoutNotation.parse(
        notation, defaultCountIn: plan.countIn, library: .empty),
      read.mode == plan.mode, read.countIn == plan.countIn, read.label == plan.label,
      read.whiteboard == plan.whiteboard, read.media == plan.media,
      read.notation == plan.notation
    {
      self = .notation(notation, countIn: plan.countIn, cues: plan.cues)
    } else {
      self = .compiled(plan)
    }
  }

  /// The plan it names, called `preset`; checked as a config's plan is when it is compiled.
  func workoutPlan(preset: String) throws(LinkError) -> WorkoutPlan {
    switch self {
    case .notation(let text, let countIn, let cues):
      guard PlanLimits.countIn.contains(countIn) else {
        throw LinkError("the plan's count-in of \(countIn.nanoseconds) ns is out of range")
      }
      switch WorkoutNotation.parse(text, defaultCountIn: countIn, library: .empty) {
      case .success(var plan):
        plan.name = preset
        plan.cues = cues
        return plan
      case .failure(let error):
        throw LinkError("the plan's notation does not read: \(error)")
      }
    case .compiled(var plan):
      plan.name = preset
      return plan
    }
  }

  var json: JSONValue {
    get throws {
      switch self {
      case .notation(let text, let countIn, let cues):
        .object(
          JSONObject([
            ("notation", .string(text)), ("count_in_ns", .integer(countIn.nanoseconds)),
            ("cues", try JSONValueEncoder().encode(cues)),
          ]))
      case .compiled(let plan):
        .object(JSONObject([("compiled", try JSONValueEncoder().encode(plan))]))
      }
    }
  }

  init(json: JSONValue) throws(LinkError) {
    guard let object = json.objectValue else { throw LinkError("\"plan\" is not an object") }
    do {
      if let compiled = object["compiled"] {
        guard object.count == 1 else {
          throw LinkError("\"plan\" holds \"compiled\" or \"notation\", not both")
        }
        self = .compiled(try JSONValueDecoder().decode(WorkoutPlan.self, from: compiled))
        return
      }
      guard let text = object["notation"]?.stringValue,
        text.unicodeScalars.count <= WorkoutNotation.maximumLength,
        let countIn = object["count_in_ns"]?.intValue, let cues = object["cues"]
      else {
        throw LinkError(
          "\"plan\" needs \"compiled\", or \"notation\" (at most "
            + "\(WorkoutNotation.maximumLength) characters), \"count_in_ns\" and \"cues\"")
      }
      self = .notation(
        text, countIn: TimeSpan(nanoseconds: countIn),
        cues: try JSONValueDecoder().decode(CueOptions.self, from: cues))
    } catch let error as LinkError {
      throw error
    } catch {
      throw LinkError("\"plan\" does not decode: \(error)")
    }
  }
}
