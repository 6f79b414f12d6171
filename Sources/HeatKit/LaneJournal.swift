// SPDX-License-Identifier: MIT
// What the judges did, one line per button press: the journal the daemon appends to and
// replays after a restart, so a power cut in the middle of a heat loses at most the line it
// was writing.

import JSONKit

/// One thing a judge did to a lane.
public enum LaneOperation: Sendable, Hashable {
  /// The athlete finished, at this many milliseconds of the workout.
  case finish(atMilliseconds: Int64)
  /// Takes back the lane's last finish, tiebreak, reps or score (a bumped button).
  case undo
  /// A tiebreak time, at this many milliseconds of the workout; a workout may have several.
  case tiebreak(atMilliseconds: Int64)
  /// Reps done when the cap stopped a For Time workout.
  case reps(Int)
  /// An AMRAP's score.
  case score(AMRAPScore)
}

/// One operation on a lane of a heat, as the journal keeps it.
public struct LaneJournalEntry: Sendable, Hashable {
  /// The heat, 1...999.
  public var heat: Int
  /// The lane, 1...64.
  public var lane: Int
  /// What was done.
  public var operation: LaneOperation

  /// Creates an entry from its parts.
  public init(heat: Int, lane: Int, operation: LaneOperation) {
    self.heat = heat
    self.lane = lane
    self.operation = operation
  }

  /// The entry as one line of JSON without a line break:
  /// `{"heat":3,"lane":2,"op":"finish","ms":462300}`, `{"heat":3,"lane":2,"op":"undo"}`,
  /// `{"heat":3,"lane":2,"op":"reps","reps":12}`, `{"heat":3,"lane":2,"op":"score","score":"5+12"}`.
  public var line: String {
    var object: JSONObject = ["heat": .integer(Int64(heat)), "lane": .integer(Int64(lane))]
    switch operation {
    case .finish(let milliseconds):
      object["op"] = "finish"
      object["ms"] = .integer(milliseconds)
    case .undo:
      object["op"] = "undo"
    case .tiebreak(let milliseconds):
      object["op"] = "tiebreak"
      object["ms"] = .integer(milliseconds)
    case .reps(let reps):
      object["op"] = "reps"
      object["reps"] = .integer(Int64(reps))
    case .score(let score):
      object["op"] = "score"
      object["score"] = .string(score.description)
    }
    return JSONValue.object(object).serialized()
  }

  /// Reads one line written by ``line``; the problem says what is wrong with it.
  public static func decode(_ line: some StringProtocol) -> Result<LaneJournalEntry, ScoreProblem> {
    let options = JSONParseOptions(maxDepth: 4, maxInputBytes: 4096)
    guard let value = try? JSONValue.parse(String(line), options: options),
      let object = value.objectValue
    else {
      return .failure(ScoreProblem(message: "the line is not a JSON object"))
    }
    guard let heat = object["heat"]?.intValue, (1...Int64(HeatSheet.maximumHeat)).contains(heat),
      let lane = object["lane"]?.intValue, (1...Int64(HeatSheet.maximumLane)).contains(lane)
    else {
      return .failure(ScoreProblem(message: "the line has no heat 1...999 and lane 1...64"))
    }
    let operation: LaneOperation
    switch object["op"]?.stringValue {
    case "finish":
      guard let milliseconds = object["ms"]?.intValue else { return missing("ms", of: "finish") }
      operation = .finish(atMilliseconds: milliseconds)
    case "tiebreak":
      guard let milliseconds = object["ms"]?.intValue else { return missing("ms", of: "tiebreak") }
      operation = .tiebreak(atMilliseconds: milliseconds)
    case "undo":
      operation = .undo
    case "reps":
      guard let reps = object["reps"]?.intValue, (0...Int64(AMRAPScore.maximum)).contains(reps)
      else { return missing("reps", of: "reps") }
      operation = .reps(Int(reps))
    case "score":
      guard let text = object["score"]?.stringValue,
        case .success(let score) = AMRAPScore.parse(text)
      else { return missing("score", of: "score") }
      operation = .score(score)
    default:
      return .failure(
        ScoreProblem(message: "the line's 'op' is not finish, undo, tiebreak, reps or score"))
    }
    return .success(LaneJournalEntry(heat: Int(heat), lane: Int(lane), operation: operation))
  }

  private static func missing(_ key: String, of operation: String) -> Result<
    LaneJournalEntry, ScoreProblem
  > {
    .failure(ScoreProblem(message: "the line's '\(operation)' has no valid '\(key)'"))
  }
}

/// A journal's text read back: the entries, and the lines that could not be read.
public struct LaneJournal: Sendable, Equatable {
  /// A line that was skipped.
  public struct SkippedLine: Sendable, Hashable {
    /// Its 1-based line number.
    public var line: Int
    /// Why it was skipped.
    public var reason: String
    /// True for the last line when the text does not end in a line break: a write cut short,
    /// by a power cut most likely.
    public var isTorn: Bool

    /// Creates a skipped line's report.
    public init(line: Int, reason: String, isTorn: Bool) {
      self.line = line
      self.reason = reason
      self.isTorn = isTorn
    }
  }

  /// The entries read, in order.
  public var entries: [LaneJournalEntry]
  /// The lines that were not entries, in order.
  public var skipped: [SkippedLine]

  /// Creates a journal from its parts.
  public init(entries: [LaneJournalEntry] = [], skipped: [SkippedLine] = []) {
    self.entries = entries
    self.skipped = skipped
  }

  /// Reads a journal's text, one entry a line. Nothing in it can stop the reading: a line that
  /// is not an entry is skipped and reported, and the rest are read.
  public static func decode(_ text: String) -> LaneJournal {
    var journal = LaneJournal()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let endsInLineBreak = text.hasSuffix("\n")
    for (index, line) in lines.enumerated() {
      let trimmed = line.hasSuffix("\r") ? line.dropLast() : line[...]
      if TextScan.trimmed(trimmed).isEmpty { continue }
      switch LaneJournalEntry.decode(trimmed) {
      case .success(let entry): journal.entries.append(entry)
      case .failure(let problem):
        let isTorn = index == lines.count - 1 && !endsInLineBreak
        journal.skipped.append(
          SkippedLine(line: index + 1, reason: problem.message, isTorn: isTorn))
      }
    }
    return journal
  }

  /// The entries as text, each line ended by a line break: what a journal file holds.
  public static func encode(_ entries: [LaneJournalEntry]) -> String {
    entries.map { $0.line + "\n" }.joined()
  }
}
