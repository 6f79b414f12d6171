// SPDX-License-Identifier: MIT
// What a coach asks for: a named workout in one of the modes, with its parameters.

/// A workout as configured: a mode with its parameters, a count-in and which cues to emit.
/// Every mode compiles to a ``Timeline``; one ``WorkoutEngine`` runs every timeline.
public struct WorkoutPlan: Sendable, Hashable, Codable {
  /// The preset's name (`fran`, `tabata`); shown by status commands and written to history.
  public var name: String
  /// An optional caption for the whole workout ("Back squat 5x5").
  public var label: String?
  public var mode: WorkoutMode
  /// Count-in before the first segment (0–99 s). Ignored by the `clock` mode.
  public var countIn: TimeSpan
  public var cues: CueOptions
  /// The workout as a coach wrote it (`amrap 14`), for a plan made from the whiteboard
  /// notation; shown by status and written to history. Nil for a preset of the config's own
  /// keys. Optional so a state file saved before it existed still reads.
  public var notation: String?
  /// The whiteboard beside the clock: the movements and notes under the workout, in order.
  public var whiteboard: [WhiteboardLine]
  /// A file of the media directory shown beside the clock for the whole workout (a step's
  /// line may name its own).
  public var media: String?

  public init(
    name: String, label: String? = nil, mode: WorkoutMode, countIn: TimeSpan = .seconds(10),
    cues: CueOptions = CueOptions(), notation: String? = nil, whiteboard: [WhiteboardLine] = [],
    media: String? = nil
  ) {
    self.name = name
    self.label = label
    self.mode = mode
    self.countIn = countIn
    self.cues = cues
    self.notation = notation
    self.whiteboard = whiteboard
    self.media = media
  }

  private enum CodingKeys: String, CodingKey {
    case name, label, mode, countIn, cues, notation, whiteboard, media
  }

  /// Reads a plan back; one saved before the whiteboard existed has none.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    label = try container.decodeIfPresent(String.self, forKey: .label)
    mode = try container.decode(WorkoutMode.self, forKey: .mode)
    countIn = try container.decode(TimeSpan.self, forKey: .countIn)
    cues = try container.decode(CueOptions.self, forKey: .cues)
    notation = try container.decodeIfPresent(String.self, forKey: .notation)
    whiteboard = try container.decodeIfPresent([WhiteboardLine].self, forKey: .whiteboard) ?? []
    media = try container.decodeIfPresent(String.self, forKey: .media)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(label, forKey: .label)
    try container.encode(mode, forKey: .mode)
    try container.encode(countIn, forKey: .countIn)
    try container.encode(cues, forKey: .cues)
    try container.encodeIfPresent(notation, forKey: .notation)
    if !whiteboard.isEmpty { try container.encode(whiteboard, forKey: .whiteboard) }
    try container.encodeIfPresent(media, forKey: .media)
  }
}

/// The timer formats a coach runs.
public enum WorkoutMode: Sendable, Hashable, Codable {
  case clock(ClockFace)
  case forTime(ForTimeParameters)
  case amrap(AMRAPParameters)
  case emom(EMOMParameters)
  case intervals(IntervalParameters)
  case tabata(IntervalParameters)
  case tempo(TempoParameters)
  case sequence(SequenceParameters)

  /// The mode's name as the config file spells it.
  public var name: ModeName {
    switch self {
    case .clock: .clock
    case .forTime: .forTime
    case .amrap: .amrap
    case .emom: .emom
    case .intervals: .intervals
    case .tabata: .tabata
    case .tempo: .tempo
    case .sequence: .sequence
    }
  }
}

/// Mode names as written in the config file and reported by the control socket.
public enum ModeName: String, Sendable, Hashable, Codable, CaseIterable {
  case clock
  case forTime = "for_time"
  case amrap
  case emom
  case intervals
  case tabata
  case tempo
  case sequence
}

/// The time-of-day display. The engine only says "show the time"; the wall clock is an input
/// of the renderers, never of the engine.
public struct ClockFace: Sendable, Hashable, Codable {
  public var twentyFourHour: Bool
  public var showSeconds: Bool
  public init(twentyFourHour: Bool = true, showSeconds: Bool = false) {
    self.twentyFourHour = twentyFourHour
    self.showSeconds = showSeconds
  }
}

/// Count up from zero; `finish` freezes the final time. With a cap the workout ends at the cap
/// and says so. With a rounds target, `lap` tallies rounds and the last lap finishes it.
public struct ForTimeParameters: Sendable, Hashable, Codable {
  public var cap: TimeSpan?
  public var rounds: Int?
  /// A rep scheme (21-15-9): the reps of each round, one round per entry, so `rounds` is its
  /// count. Optional so a state file saved before it existed still reads.
  public var repScheme: [Int]?
  public init(cap: TimeSpan? = nil, rounds: Int? = nil, repScheme: [Int]? = nil) {
    self.cap = cap
    self.rounds = rounds
    self.repScheme = repScheme
  }

  /// The rounds `lap` counts to: the rep scheme's entries when there is one, else `rounds`.
  public var roundTarget: Int? { repScheme?.count ?? rounds }

  /// The reps of round `round` (1-based) of the rep scheme; nil without one, or out of it.
  public func reps(inRound round: Int) -> Int? {
    guard let repScheme, repScheme.indices.contains(round - 1) else { return nil }
    return repScheme[round - 1]
  }
}

/// As many rounds as possible: count down from `time`; `lap` tallies completed rounds.
public struct AMRAPParameters: Sendable, Hashable, Codable {
  public var time: TimeSpan
  public init(time: TimeSpan) { self.time = time }
}

/// Every `interval` for `rounds` rounds (E2MOM is an interval of 2:00).
public struct EMOMParameters: Sendable, Hashable, Codable {
  public var interval: TimeSpan
  public var rounds: Int
  /// Per-round captions that cycle: minute 1 "burpees", minute 2 "wall balls", minute 3 ...
  public var labels: [String]
  /// A death-by ladder: the rep target of round `n` is `start + step × (n − 1)`.
  public var ladder: Ladder?
  public init(
    interval: TimeSpan = .seconds(60), rounds: Int, labels: [String] = [], ladder: Ladder? = nil
  ) {
    self.interval = interval
    self.rounds = rounds
    self.labels = labels
    self.ladder = ladder
  }
}

/// A rep target that grows each round (death by burpees: 1, 2, 3 ...).
public struct Ladder: Sendable, Hashable, Codable {
  public var start: Int
  public var step: Int
  public init(start: Int = 1, step: Int = 1) {
    self.start = start
    self.step = step
  }
  public func reps(inRound round: Int) -> Int { start + step * (round - 1) }
}

/// Work and rest for a number of rounds, optionally in sets with a longer rest between sets.
/// Tabata is this with 20 s / 10 s × 8.
public struct IntervalParameters: Sendable, Hashable, Codable {
  public var work: TimeSpan
  public var rest: TimeSpan
  public var rounds: Int
  public var sets: Int
  public var setRest: TimeSpan
  /// Leave out the rest after the very last work interval (the workout ends on work).
  public var skipLastRest: Bool
  /// Captions of the work intervals, cycling round by round.
  public var labels: [String]

  public init(
    work: TimeSpan, rest: TimeSpan, rounds: Int, sets: Int = 1, setRest: TimeSpan = .zero,
    skipLastRest: Bool = false, labels: [String] = []
  ) {
    self.work = work
    self.rest = rest
    self.rounds = rounds
    self.sets = sets
    self.setRest = setRest
    self.skipLastRest = skipLastRest
    self.labels = labels
  }

  /// The classic Tabata protocol: 20 s work, 10 s rest, 8 rounds.
  public static let tabata = IntervalParameters(work: .seconds(20), rest: .seconds(10), rounds: 8)
}

/// Options that decide which cues the engine emits. Which of them make a sound is the
/// outputs' business; these decide whether the event exists at all.
public struct CueOptions: Sendable, Hashable, Codable {
  /// 3-2-1 before the end of each count-in, work, rest, set-rest and side-switch segment.
  public var countdown: Bool
  /// Halfway through a bounded workout.
  public var halfway: Bool
  /// Ten seconds before the end of a bounded workout.
  public var lastTenSeconds: Bool
  /// Halfway through each work segment.
  public var segmentHalfway: Bool
  /// Ten seconds before the end of each work segment.
  public var segmentLastTenSeconds: Bool
  /// Rounds-remaining announcements, as WODrounds makes them (at the start of a round, counting
  /// the round that starts).
  public var roundsRemaining: [Int]

  public init(
    countdown: Bool = true, halfway: Bool = true, lastTenSeconds: Bool = true,
    segmentHalfway: Bool = false, segmentLastTenSeconds: Bool = false,
    roundsRemaining: [Int] = [10, 5, 2]
  ) {
    self.countdown = countdown
    self.halfway = halfway
    self.lastTenSeconds = lastTenSeconds
    self.segmentHalfway = segmentHalfway
    self.segmentLastTenSeconds = segmentLastTenSeconds
    self.roundsRemaining = roundsRemaining
  }
}
