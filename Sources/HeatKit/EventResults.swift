// SPDX-License-Identifier: MIT
// The lanes of every heat as the judges left them: the journal's entries applied one by one,
// each checked against the sheet and the lane's state, so a bumped button is refused or taken
// back and a replay after a restart gives the same lanes.

/// Why a lane operation was not applied, in the words a judge or a coach reads.
public struct LaneRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// The control protocol's error code for the refusal.
  public enum Code: String, Sendable, Hashable {
    /// The heat or the lane does not exist; the message names the ones there are.
    case noSuchLane = "no_such_lane"
    /// The lane exists but cannot take the operation now.
    case refused
  }

  /// Which kind of refusal it is.
  public var code: Code
  /// What is wrong: `lane 3 finished at 7:42.3 already`.
  public var message: String
  /// What to do: `'lane undo 3' takes it back`.
  public var hint: String?

  /// Creates a refusal from its parts.
  public init(code: Code, message: String, hint: String? = nil) {
    self.code = code
    self.message = message
    self.hint = hint
  }

  /// `message; hint: ...`, one line for a reply.
  public var description: String { hint.map { "\(message); hint: \($0)" } ?? message }
}

/// One lane of one heat: who is in it and what the judge recorded.
public struct LaneResult: Sendable, Hashable {
  /// Where a lane stands.
  public enum State: String, Sendable, Hashable {
    /// Nothing recorded yet (tiebreaks may be).
    case working
    /// Finished a For Time workout.
    case finished
    /// Stopped by the cap with reps recorded.
    case capped
    /// An AMRAP score recorded.
    case scored
  }

  /// The heat.
  public var heat: Int
  /// The lane.
  public var lane: Int
  /// The athlete's name; "" for a numbered lane without a sheet.
  public var athlete: String
  /// The athlete's division; "" for a numbered lane without a sheet.
  public var division: String
  /// When the lane finished, in milliseconds of the workout.
  public var finishMilliseconds: Int64?
  /// The tiebreak times recorded, in order.
  public var tiebreakMilliseconds: [Int64]
  /// Reps done at the cap.
  public var capReps: Int?
  /// The AMRAP score.
  public var amrap: AMRAPScore?

  /// Creates a lane's result from its parts.
  public init(
    heat: Int, lane: Int, athlete: String, division: String, finishMilliseconds: Int64? = nil,
    tiebreakMilliseconds: [Int64] = [], capReps: Int? = nil, amrap: AMRAPScore? = nil
  ) {
    self.heat = heat
    self.lane = lane
    self.athlete = athlete
    self.division = division
    self.finishMilliseconds = finishMilliseconds
    self.tiebreakMilliseconds = tiebreakMilliseconds
    self.capReps = capReps
    self.amrap = amrap
  }

  /// Where the lane stands, from what is recorded (one of finish, reps and score at most).
  public var state: State {
    if finishMilliseconds != nil { return .finished }
    if capReps != nil { return .capped }
    if amrap != nil { return .scored }
    return .working
  }

  /// The lane's score as the wall shows it: `7:42.3`, `CAP+12`, `5+12`; nil while working.
  public func scoreText(format: LaneTimeFormat) -> String? {
    if let finishMilliseconds { return format.text(milliseconds: finishMilliseconds) }
    if let capReps { return "CAP+\(capReps)" }
    return amrap?.description
  }
}

/// An operation the journal held that the lanes refused on replay.
public struct RefusedEntry: Sendable, Hashable {
  /// The entry.
  public var entry: LaneJournalEntry
  /// Why it was refused.
  public var refusal: LaneRefusal
}

/// Every lane of an event (or of a class's numbered lanes), built from journal entries.
///
/// With a sheet, the lanes of a heat are the sheet's; without one, every heat 1...999 has the
/// numbered lanes 1...`numberedLanes`, unnamed. A lane holds at most one of a finish, reps at the
/// cap and an AMRAP score, and any number of tiebreaks up to ``maximumTiebreaks``; each
/// operation is undone the last first. Entries are applied in order and nothing else is read,
/// so the same entries always give the same lanes.
public struct EventResults: Sendable, Equatable {
  /// The most tiebreaks one lane records.
  public static let maximumTiebreaks = 16
  /// The most operations one lane keeps to undo; past it, a lane refuses more.
  public static let maximumOperationsPerLane = 256
  /// The latest finish or tiebreak accepted: a day, in milliseconds.
  public static let maximumMilliseconds: Int64 = 24 * 3600 * 1000

  /// The heat sheet, or nil for numbered lanes.
  public let sheet: HeatSheet?
  /// How many numbered lanes a heat has without a sheet, 1...64.
  public let numberedLanes: Int
  /// How times are written in refusals.
  public var timeFormat: LaneTimeFormat

  private struct LaneKey: Hashable, Sendable {
    var heat: Int
    var lane: Int
  }

  /// The operations of each lane still in effect (an undo removes the last one), oldest first.
  private var operations: [LaneKey: [LaneOperation]] = [:]

  /// An event with no operations yet. `numberedLanes` is clamped to 1...64.
  public init(sheet: HeatSheet?, numberedLanes: Int, timeFormat: LaneTimeFormat = .tenths) {
    self.sheet = sheet
    self.numberedLanes = min(max(1, numberedLanes), HeatSheet.maximumLane)
    self.timeFormat = timeFormat
  }

  /// The heats: the sheet's, or without a sheet those with something recorded, in order.
  public var heats: [Int] {
    if let sheet { return sheet.heats }
    return Set(operations.filter { !$0.value.isEmpty }.keys.map(\.heat)).sorted()
  }

  /// The lanes of `heat` by lane number; empty for a heat the sheet does not have.
  public func lanes(inHeat heat: Int) -> [LaneResult] {
    if let sheet {
      return sheet.entries(inHeat: heat).map {
        result(heat: heat, lane: $0.lane, athlete: $0.athlete, division: $0.division)
      }
    }
    guard (1...HeatSheet.maximumHeat).contains(heat) else { return [] }
    return (1...numberedLanes).map { result(heat: heat, lane: $0, athlete: "", division: "") }
  }

  /// One lane of a heat, or nil when there is no such lane.
  public func lane(_ lane: Int, inHeat heat: Int) -> LaneResult? {
    lanes(inHeat: heat).first { $0.lane == lane }
  }

  /// Applies one operation, or says why it cannot be applied (and changes nothing).
  public mutating func apply(_ entry: LaneJournalEntry) throws(LaneRefusal) {
    try checkLaneExists(heat: entry.heat, lane: entry.lane)
    let key = LaneKey(heat: entry.heat, lane: entry.lane)
    var done = operations[key] ?? []
    let current = result(heat: entry.heat, lane: entry.lane, athlete: "", division: "")
    let lane = entry.lane
    switch entry.operation {
    case .undo:
      guard !done.isEmpty else {
        throw LaneRefusal(
          code: .refused, message: "lane \(lane) has nothing to undo",
          hint: "undo takes back a finish, a tiebreak, reps or a score, the last first")
      }
      done.removeLast()
    case .finish(let milliseconds):
      try checkTime(milliseconds, of: "finish", lane: lane)
      try checkNoResult(current)
      done.append(entry.operation)
    case .tiebreak(let milliseconds):
      try checkTime(milliseconds, of: "tiebreak", lane: lane)
      guard current.tiebreakMilliseconds.count < Self.maximumTiebreaks else {
        throw LaneRefusal(
          code: .refused,
          message: "lane \(lane) has \(Self.maximumTiebreaks) tiebreaks already",
          hint: "'lane undo \(lane)' takes back the last one")
      }
      done.append(entry.operation)
    case .reps(let reps):
      guard (0...AMRAPScore.maximum).contains(reps) else {
        throw LaneRefusal(
          code: .refused,
          message: "reps at the cap are from 0 to \(AMRAPScore.maximum), found \(reps)",
          hint: "the reps lane \(lane) completed before the cap")
      }
      // New reps replace the lane's earlier ones (a recount); undo brings those back.
      if current.capReps == nil { try checkNoResult(current) }
      done.append(entry.operation)
    case .score:
      if current.amrap == nil { try checkNoResult(current) }
      done.append(entry.operation)
    }
    guard done.count <= Self.maximumOperationsPerLane else {
      throw LaneRefusal(
        code: .refused,
        message: "lane \(lane) has \(Self.maximumOperationsPerLane) operations to undo already",
        hint: "'lane undo \(lane)' takes back the last one")
    }
    // A lane taken back to nothing is no lane at all, so equal histories compare equal.
    operations[key] = done.isEmpty ? nil : done
  }

  /// Applies entries in order, as after a restart; those refused are skipped and returned.
  @discardableResult
  public mutating func replay(_ entries: [LaneJournalEntry]) -> [RefusedEntry] {
    var refused: [RefusedEntry] = []
    for entry in entries {
      do throws(LaneRefusal) {
        try apply(entry)
      } catch {
        refused.append(RefusedEntry(entry: entry, refusal: error))
      }
    }
    return refused
  }

  // MARK: Checks

  private func checkLaneExists(heat: Int, lane: Int) throws(LaneRefusal) {
    guard let sheet else {
      guard (1...HeatSheet.maximumHeat).contains(heat) else {
        throw LaneRefusal(
          code: .noSuchLane, message: "there is no heat \(heat): heats are 1 to 999")
      }
      guard (1...numberedLanes).contains(lane) else {
        throw LaneRefusal(
          code: .noSuchLane,
          message:
            "there is no lane \(lane): the lanes are \(Self.spans([Int](1...numberedLanes)))",
          hint: "'heats: lanes:' in the configuration sets how many numbered lanes there are")
      }
      return
    }
    let heats = sheet.heats
    guard heats.contains(heat) else {
      let there = heats.isEmpty ? "it lists no athletes" : "its heats are \(Self.spans(heats))"
      throw LaneRefusal(
        code: .noSuchLane, message: "the heat sheet has no heat \(heat): \(there)")
    }
    let lanes = sheet.entries(inHeat: heat).map(\.lane)
    guard lanes.contains(lane) else {
      throw LaneRefusal(
        code: .noSuchLane,
        message: "heat \(heat) has no lane \(lane): its lanes are \(Self.spans(lanes))",
        hint: "the heat sheet puts an athlete in each lane of a heat")
    }
  }

  private func checkTime(_ milliseconds: Int64, of what: String, lane: Int) throws(LaneRefusal) {
    guard milliseconds >= 0 else {
      throw LaneRefusal(
        code: .refused, message: "lane \(lane)'s \(what) comes before the start",
        hint: "a \(what) counts once the workout has started")
    }
    guard milliseconds <= Self.maximumMilliseconds else {
      throw LaneRefusal(
        code: .refused, message: "lane \(lane)'s \(what) comes more than 24 hours after the start",
        hint: "a \(what) counts within the workout")
    }
  }

  /// Refuses when the lane already has a finish, reps or a score: one result a lane.
  private func checkNoResult(_ current: LaneResult) throws(LaneRefusal) {
    let lane = current.lane
    if let finish = current.finishMilliseconds {
      throw LaneRefusal(
        code: .refused,
        message: "lane \(lane) finished at \(timeFormat.text(milliseconds: finish)) already",
        hint: "'lane undo \(lane)' takes it back")
    }
    if let reps = current.capReps {
      throw LaneRefusal(
        code: .refused, message: "lane \(lane) was capped with \(reps) reps already",
        hint: "'lane undo \(lane)' takes the reps back")
    }
    if let score = current.amrap {
      throw LaneRefusal(
        code: .refused, message: "lane \(lane) has a score of \(score) already",
        hint: "'lane undo \(lane)' takes the score back")
    }
  }

  // MARK: State

  private func result(heat: Int, lane: Int, athlete: String, division: String) -> LaneResult {
    var result = LaneResult(heat: heat, lane: lane, athlete: athlete, division: division)
    for operation in operations[LaneKey(heat: heat, lane: lane)] ?? [] {
      switch operation {
      case .finish(let milliseconds): result.finishMilliseconds = milliseconds
      case .tiebreak(let milliseconds): result.tiebreakMilliseconds.append(milliseconds)
      case .reps(let reps): result.capReps = reps
      case .score(let score): result.amrap = score
      case .undo: break
      }
    }
    return result
  }

  /// `1-8`, `1-3, 5, 7-8`: numbers in order as spans.
  static func spans(_ numbers: [Int]) -> String {
    var parts: [String] = []
    var index = 0
    let sorted = numbers.sorted()
    while index < sorted.count {
      var end = index
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] + 1 { end += 1 }
      parts.append(end == index ? "\(sorted[index])" : "\(sorted[index])-\(sorted[end])")
      index = end + 1
    }
    return parts.joined(separator: ", ")
  }
}
