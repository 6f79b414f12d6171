// SPDX-License-Identifier: MIT
// The Workout Framework's templates: nested steps, open-ended steps, loops, skippable steps.

/// A templated workout: warm-up → WOD → cool-down chains, Fight Gone Bad, ladders.
public struct SequenceParameters: Sendable, Hashable, Codable {
  public var steps: [SequenceStep]
  /// Leave out the last segment when it is a rest (the workout ends on work), as intervals
  /// do: Fight Gone Bad's three rounds each end with a rest minute, the last one not.
  public var skipLastRest: Bool

  public init(steps: [SequenceStep], skipLastRest: Bool = false) {
    self.steps = steps
    self.skipLastRest = skipLastRest
  }

  private enum CodingKeys: String, CodingKey {
    case steps
    case skipLastRest
  }

  /// `skipLastRest` may be absent: a state file saved before it existed still reads.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    steps = try container.decode([SequenceStep].self, forKey: .steps)
    skipLastRest = try container.decodeIfPresent(Bool.self, forKey: .skipLastRest) ?? false
  }
}

/// One step of a sequence. A step without sub-steps is a leaf: it runs for `duration`, or, when
/// `duration` is nil, until `next` or `finish` (open-ended). A step with sub-steps runs them in
/// order `repetitions` times; with `loop` it repeats them until its own `duration` ends.
public struct SequenceStep: Sendable, Hashable, Codable {
  public enum Kind: String, Sendable, Hashable, Codable {
    case work
    case rest
  }

  public var name: String
  public var kind: Kind
  public var duration: TimeSpan?
  public var repetitions: Int
  public var steps: [SequenceStep]
  public var loop: Bool
  /// Whether `next` may cut this step short. Open-ended steps can always be ended with `next`.
  public var skippable: Bool
  /// A rep target shown with the step ("10× pull-ups"); data only, it does not end the step.
  public var reps: Int?

  public init(
    name: String, kind: Kind = .work, duration: TimeSpan? = nil, repetitions: Int = 1,
    steps: [SequenceStep] = [], loop: Bool = false, skippable: Bool = true, reps: Int? = nil
  ) {
    self.name = name
    self.kind = kind
    self.duration = duration
    self.repetitions = repetitions
    self.steps = steps
    self.loop = loop
    self.skippable = skippable
    self.reps = reps
  }
}
