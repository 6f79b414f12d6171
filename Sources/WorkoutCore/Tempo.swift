// SPDX-License-Identifier: MIT
// TempoRep's model: a four-phase tempo in half-second steps, reps, sets, sides.

/// A four-part lifting tempo such as 4010 (shown ↓4·0·↑1·0): eccentric (lowering), pause at
/// the bottom, concentric (lifting), pause at the top. Each value is counted in half seconds,
/// 0–18 (0–9 s), so ↓3·0·↑1.5·0 is valid.
public struct Tempo: Sendable, Hashable, Codable, CustomStringConvertible {
  public var eccentric: Int
  public var bottomPause: Int
  public var concentric: Int
  public var topPause: Int

  /// Half-second steps allowed in each position (0 to 9 seconds).
  public static let allowedHalfSeconds = 0...18

  public init(halfSeconds values: [Int]) {
    precondition(values.count == 4, "a tempo has four values")
    eccentric = values[0]
    bottomPause = values[1]
    concentric = values[2]
    topPause = values[3]
  }

  public init(eccentric: Int, bottomPause: Int, concentric: Int, topPause: Int) {
    self.eccentric = eccentric
    self.bottomPause = bottomPause
    self.concentric = concentric
    self.topPause = topPause
  }

  /// The four values in the order written.
  public var halfSeconds: [Int] { [eccentric, bottomPause, concentric, topPause] }

  public func value(of phase: TempoPhase) -> Int {
    switch phase {
    case .eccentric: eccentric
    case .bottomPause: bottomPause
    case .concentric: concentric
    case .topPause: topPause
    }
  }

  /// How long a phase lasts. A concentric of 0 means explosive and is timed as 1 s (TempoRep);
  /// other zero-length phases last zero and are skipped.
  public func duration(of phase: TempoPhase) -> TimeSpan {
    let value = value(of: phase)
    if phase == .concentric && value == 0 { return .seconds(1) }
    // Saturating, so asking an unchecked tempo (validation refuses it) cannot trap.
    return TimeSpan.halfSeconds(1).saturatingMultiply(value)
  }

  /// `4-0-1.5-0` style text, whole seconds without a fraction.
  public var description: String {
    halfSeconds.map { $0 % 2 == 0 ? "\($0 / 2)" : "\($0 / 2).5" }.joined(separator: "-")
  }
}

/// The four phases of a rep.
public enum TempoPhase: String, Sendable, Hashable, Codable, CaseIterable {
  case eccentric
  case bottomPause = "bottom_pause"
  case concentric
  case topPause = "top_pause"

  /// Position 0, 1, 2 or 3 in the written tempo.
  public var position: Int {
    switch self {
    case .eccentric: 0
    case .bottomPause: 1
    case .concentric: 2
    case .topPause: 3
    }
  }
}

/// Which side a unilateral set is on.
public enum Side: String, Sendable, Hashable, Codable {
  case left
  case right
}

/// Tempo sets: reps at a tempo, sets with rest between, optionally one side then the other.
public struct TempoParameters: Sendable, Hashable, Codable {
  public enum StartPhase: String, Sendable, Hashable, Codable {
    /// Squat, push-up: lower first.
    case eccentric
    /// Deadlift, pull-up: lift first.
    case concentric
  }

  public var tempo: Tempo
  public var reps: Int
  public var sets: Int
  public var setRest: TimeSpan
  public var startPhase: StartPhase
  /// All reps on one side, a switch pause, all reps on the other side, then the set rest.
  public var unilateral: Bool
  public var switchPause: TimeSpan
  /// Swaps which arrow and word mark which phase (a lat pulldown's concentric pulls down);
  /// never changes timing.
  public var reverseDirection: Bool

  public init(
    tempo: Tempo, reps: Int, sets: Int = 1, setRest: TimeSpan = .seconds(90),
    startPhase: StartPhase = .eccentric, unilateral: Bool = false,
    switchPause: TimeSpan = .seconds(5), reverseDirection: Bool = false
  ) {
    self.tempo = tempo
    self.reps = reps
    self.sets = sets
    self.setRest = setRest
    self.startPhase = startPhase
    self.unilateral = unilateral
    self.switchPause = switchPause
    self.reverseDirection = reverseDirection
  }

  /// The phases of one rep in the order they run.
  public var phaseOrder: [TempoPhase] {
    switch startPhase {
    case .eccentric: [.eccentric, .bottomPause, .concentric, .topPause]
    case .concentric: [.concentric, .topPause, .eccentric, .bottomPause]
    }
  }
}
