// SPDX-License-Identifier: MIT
// A class's scores without a heat sheet: names and scores typed after a For Time or an AMRAP,
// ranked per workout for "today's board" on the idle screen.

/// How a class's workout is scored, which says which scores it takes.
public enum ClassWorkoutKind: String, Sendable, Hashable {
  /// Times (`7:42`) and capped scores (`CAP+12`).
  case forTime
  /// Rounds and reps (`5+12`).
  case amrap
}

/// One place on today's board.
public struct ClassBoardRow: Sendable, Hashable {
  /// The workout's name, which the board shows as the heading of its rows.
  public var workout: String
  /// The place in the workout, shared by equal scores.
  public var place: Int
  /// The athlete's name.
  public var athlete: String
  /// The score.
  public var score: ClassScore

  /// Creates a row from its parts.
  public init(workout: String, place: Int, athlete: String, score: ClassScore) {
    self.workout = workout
    self.place = place
    self.athlete = athlete
    self.score = score
  }
}

/// The day's class scores, per workout.
///
/// A name typed again for the same workout replaces that athlete's score (a correction); names
/// compare without regard to case or surrounding spaces.
public struct ClassBoard: Sendable, Equatable {
  /// One athlete's score in one workout.
  public struct Entry: Sendable, Hashable {
    /// The workout's name.
    public var workout: String
    /// How the workout is scored.
    public var kind: ClassWorkoutKind
    /// The athlete, trimmed.
    public var athlete: String
    /// The score.
    public var score: ClassScore
  }

  /// The most scores a day's board keeps.
  public static let maximumEntries = 1000

  /// The scores, in the order they were first entered.
  public private(set) var entries: [Entry] = []

  /// An empty board.
  public init() {}

  /// The workouts in the order their first score was entered.
  public var workouts: [String] {
    var workouts: [String] = []
    for entry in entries where !workouts.contains(entry.workout) {
      workouts.append(entry.workout)
    }
    return workouts
  }

  /// Records `athlete`'s `score` for `workout`, or says why not: an empty, long or multi-line
  /// name, a score of the other kind (a time for an AMRAP), a full board.
  public mutating func record(
    _ score: ClassScore, athlete: String, workout: String, kind: ClassWorkoutKind
  ) throws(ScoreProblem) {
    let name = TextScan.trimmed(athlete)
    guard !name.isEmpty else {
      throw ScoreProblem(
        message: "expected the athlete's name, found nothing",
        hint: "the board shows each score with its athlete's name")
    }
    guard name.count <= HeatSheet.maximumNameLength, !TextScan.hasControlCharacter(name) else {
      throw ScoreProblem(
        message: "the athlete's name must be one line of at most 80 characters",
        hint: "shorten the name")
    }
    switch (kind, score) {
    case (.forTime, .amrap):
      throw ScoreProblem(
        message: "'\(workout)' is For Time and takes a time or CAP+reps, found '\(score)'",
        hint: "a For Time score is the time on the clock ('7:42') or 'CAP+12' at the cap")
    case (.amrap, .time), (.amrap, .capped):
      throw ScoreProblem(
        message: "'\(workout)' is an AMRAP and takes rounds+reps, found '\(score)'",
        hint: "an AMRAP score is the rounds and reps done: '5+12'")
    default: break
    }
    let entry = Entry(workout: workout, kind: kind, athlete: name, score: score)
    let key = name.lowercased()
    if let index = entries.firstIndex(where: {
      $0.workout == workout && $0.athlete.lowercased() == key
    }) {
      entries[index] = entry
      return
    }
    guard entries.count < Self.maximumEntries else {
      throw ScoreProblem(
        message: "today's board holds \(Self.maximumEntries) scores already",
        hint: "the board starts empty again tomorrow")
    }
    entries.append(entry)
  }

  /// Removes `athlete`'s score for `workout`; true when there was one.
  @discardableResult
  public mutating func remove(athlete: String, workout: String) -> Bool {
    let key = TextScan.trimmed(athlete).lowercased()
    let before = entries.count
    entries.removeAll { $0.workout == workout && $0.athlete.lowercased() == key }
    return entries.count != before
  }

  /// The board: each workout's scores in places, workouts in the order of their first score.
  /// For Time: times from the fastest, then `CAP+n` by reps done from the most; AMRAP: from the
  /// highest. Equal scores share a place and the next place skips; they stay in the order entered.
  public func ranked() -> [ClassBoardRow] {
    var rows: [ClassBoardRow] = []
    for workout in workouts {
      let scores = entries.filter { $0.workout == workout }
      let ranked = scores.enumerated().sorted { lhs, rhs in
        let left = Self.key(lhs.element.score)
        let right = Self.key(rhs.element.score)
        return left != right ? left < right : lhs.offset < rhs.offset
      }.map(\.element)
      var place = 0
      for (index, entry) in ranked.enumerated() {
        if index == 0 || Self.key(ranked[index - 1].score) != Self.key(entry.score) {
          place = index + 1
        }
        rows.append(
          ClassBoardRow(workout: workout, place: place, athlete: entry.athlete, score: entry.score))
      }
    }
    return rows
  }

  /// Lower is better: times first by time, then capped by reps (more first), then AMRAP scores
  /// (higher first). Only one kind occurs in a workout; the order of kinds keeps it total.
  private static func key(_ score: ClassScore) -> ClassScoreKey {
    switch score {
    case .time(let milliseconds): return ClassScoreKey(group: 0, value: milliseconds)
    case .capped(let reps): return ClassScoreKey(group: 1, value: -Int64(reps))
    case .amrap(let amrap):
      return ClassScoreKey(
        group: 2,
        value: -(Int64(amrap.rounds) * Int64(AMRAPScore.maximum + 1) + Int64(amrap.reps)))
    }
  }
}

private struct ClassScoreKey: Equatable, Comparable {
  var group: Int
  var value: Int64

  static func < (lhs: ClassScoreKey, rhs: ClassScoreKey) -> Bool {
    (lhs.group, lhs.value) < (rhs.group, rhs.value)
  }
}
