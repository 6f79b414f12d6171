// SPDX-License-Identifier: MIT
// Places as competitions give them: per division, finishers by time, then capped athletes by
// reps, AMRAP scores from the highest, a tiebreak only between equal scores, and ties that
// stay ties (1, 2, 2, 4).

/// How an event's workout is scored.
public enum ScoringRule: Sendable, Hashable {
  /// Lower time is better. Capped athletes come after every finisher, by reps done (more is
  /// better) — unless `capRepSeconds` is set and both the cap and the workout's total reps are
  /// known: then a capped athlete's score is the cap plus a second per rep not done, a time
  /// ranked with the finishers' and shown as one.
  case forTime(capMilliseconds: Int64?, capRepSeconds: Bool, totalReps: Int?)
  /// Higher rounds and reps are better.
  case amrap
}

/// One athlete's line of the results.
public struct RankedRow: Sendable, Hashable {
  /// The division; "" for an event with one.
  public var division: String
  /// The place in the division, shared by ties; nil for an athlete without a score.
  public var place: Int?
  /// The athlete; "" for a numbered lane without a sheet.
  public var athlete: String
  /// The heat.
  public var heat: Int
  /// The lane.
  public var lane: Int
  /// The score as shown: `7:42.3`, `CAP+12`, `5+12`; "" without one.
  public var score: String
  /// The time the score stands for, in seconds (a finish, or the cap plus a second per missing
  /// rep); nil for capped athletes ranked by reps, AMRAP scores and athletes without a score.
  public var timeSeconds: Double?
  /// The lane's last tiebreak, in seconds; nil without one.
  public var tiebreakSeconds: Double?

  /// Creates a row from its parts.
  public init(
    division: String, place: Int?, athlete: String, heat: Int, lane: Int, score: String,
    timeSeconds: Double? = nil, tiebreakSeconds: Double? = nil
  ) {
    self.division = division
    self.place = place
    self.athlete = athlete
    self.heat = heat
    self.lane = lane
    self.score = score
    self.timeSeconds = timeSeconds
    self.tiebreakSeconds = tiebreakSeconds
  }
}

extension EventResults {
  /// The results of every heat (`heat` nil) or of one heat, ranked per division.
  ///
  /// Divisions come in the order the sheet first names them. In each, the athletes with a score
  /// are ranked and the others follow by heat and lane without a place. Times compare as
  /// ``timeFormat`` shows them (two finishes that both read `7:42.3` are equal), and an equal
  /// score is separated by the last tiebreak, lower first; an athlete without a tiebreak loses
  /// to one with it; equal scores and tiebreaks share a place and the next place skips.
  /// Without a sheet, the numbered lanes with something recorded are ranked, in division "".
  public func ranked(_ rule: ScoringRule, heat: Int? = nil) -> [RankedRow] {
    let format = timeFormat
    let heatsShown = heat.map { heats.contains($0) ? [$0] : [] } ?? heats
    var shown: [LaneResult] = []
    for number in heatsShown {
      let heatLanes = lanes(inHeat: number)
      shown += sheet == nil ? heatLanes.filter(\.hasRecord) : heatLanes
    }
    var divisions = sheet?.divisions ?? [""]
    for lane in shown where !divisions.contains(lane.division) { divisions.append(lane.division) }

    var rows: [RankedRow] = []
    for division in divisions {
      let standings = shown.filter { $0.division == division }.map {
        Standing(lane: $0, rule: rule, format: format)
      }
      let ranked = standings.filter { $0.key != nil }.sorted { lhs, rhs in
        if lhs.sortKey != rhs.sortKey { return lhs.sortKey < rhs.sortKey }
        return (lhs.lane.heat, lhs.lane.lane) < (rhs.lane.heat, rhs.lane.lane)
      }
      var place = 0
      for (index, standing) in ranked.enumerated() {
        if index == 0 || ranked[index - 1].sortKey != standing.sortKey { place = index + 1 }
        rows.append(standing.row(place: place))
      }
      for standing in standings where standing.key == nil {
        rows.append(standing.row(place: nil))
      }
    }
    return rows
  }
}

extension LaneResult {
  /// True when anything was recorded: a result or a tiebreak.
  fileprivate var hasRecord: Bool { state != .working || !tiebreakMilliseconds.isEmpty }
}

/// One lane's score as a ranking compares it.
private struct Standing {
  let lane: LaneResult
  /// Which group the score ranks in (0: times or AMRAP scores, 1: capped by reps) and its value
  /// in that group, lower is better; nil when the lane has no score under the rule.
  let key: (tier: Int, value: Int64)?
  let score: String
  let timeMilliseconds: Int64?
  /// The last tiebreak as the format shows it; `Int64.max` without one, so it loses the tie.
  let tiebreakKey: Int64

  init(lane: LaneResult, rule: ScoringRule, format: LaneTimeFormat) {
    self.lane = lane
    var key: (tier: Int, value: Int64)?
    var score = lane.scoreText(format: format) ?? ""
    var time: Int64?
    switch rule {
    case .forTime(let cap, let capRepSeconds, let totalReps):
      if let finish = lane.finishMilliseconds {
        key = (0, format.truncated(finish))
        time = finish
      } else if let reps = lane.capReps {
        if capRepSeconds, let cap, let totalReps {
          // Clamped first, so no sum can overflow whatever the configuration says.
          let capped = min(max(0, cap), EventResults.maximumMilliseconds)
          let missing = Int64(max(0, min(totalReps, AMRAPScore.maximum) - reps))
          let total = capped + missing * 1000
          key = (0, format.truncated(total))
          time = total
          score = format.text(milliseconds: total)
        } else {
          key = (1, -Int64(reps))
        }
      }
    case .amrap:
      if let amrap = lane.amrap {
        key = (0, -(Int64(amrap.rounds) * Int64(AMRAPScore.maximum + 1) + Int64(amrap.reps)))
      }
    }
    self.key = key
    self.score = score
    self.timeMilliseconds = time
    self.tiebreakKey = lane.tiebreakMilliseconds.last.map(format.truncated) ?? .max
  }

  /// What places are given by: the group, the value, then the tiebreak.
  var sortKey: SortKey {
    SortKey(tier: key?.tier ?? .max, value: key?.value ?? .max, tiebreak: tiebreakKey)
  }

  struct SortKey: Equatable, Comparable {
    var tier: Int
    var value: Int64
    var tiebreak: Int64

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
      (lhs.tier, lhs.value, lhs.tiebreak) < (rhs.tier, rhs.value, rhs.tiebreak)
    }
  }

  func row(place: Int?) -> RankedRow {
    RankedRow(
      division: lane.division, place: place, athlete: lane.athlete, heat: lane.heat,
      lane: lane.lane, score: score, timeSeconds: timeMilliseconds.map(Self.seconds),
      tiebreakSeconds: lane.tiebreakMilliseconds.last.map(Self.seconds))
  }

  static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }
}
