// SPDX-License-Identifier: MIT
// The whiteboard beside the clock: the lines a coach writes under the workout ("5 pull-ups",
// "10 push-ups", "Rx 95/65 lb"), the movements among them, and which one a step of the
// workout is. A plan carries them; the timeline gives each cycling step its movement.

/// One line of a workout's whiteboard, as written, with the picture or video that goes with it.
public struct WhiteboardLine: Sendable, Hashable, Codable {
  /// The line as the coach wrote it: `5 pull-ups`, `Thrusters 95/65 lb`, `Scaled: ring rows`.
  public var text: String
  /// A file of the media directory shown beside the clock while this line's step runs.
  public var media: String?

  public init(_ text: String, media: String? = nil) {
    self.text = text
    self.media = media
  }

  /// The words that open a note rather than a movement: the standard and its scaling, how the
  /// workout is scored, the rest between rounds, a remark (`Rx 95/65 lb`, `Scaled: ring rows`,
  /// `Score: rounds + reps`, `Rest 3:00 between rounds`).
  public static let noteWords: Set<String> = [
    "rx", "scaled", "scale", "score", "note", "notes", "tiebreak", "cap", "men", "women", "rest",
  ]

  /// Whether the line names a movement (a step a timed part of the workout may be), not a
  /// note about the workout.
  public var isMovement: Bool {
    let first = text.unicodeScalars.prefix { scalar in
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
    let word = String(String.UnicodeScalarView(first)).lowercased()
    return !text.isEmpty && !Self.noteWords.contains(word)
  }
}

extension WorkoutPlan {
  /// The indices of the whiteboard's movement lines, in order.
  public var movementLines: [Int] {
    whiteboard.indices.filter { whiteboard[$0].isMovement }
  }

  /// Gives the work steps that have no movement of their own (no label) the whiteboard's
  /// movements in turn (a step captioned with the plan's label has one: `emom 30: Chelsea`
  /// holds every movement each minute, `tabata squats` is squats throughout), and marks every step whose label is a whiteboard
  /// line with that line; then tells each step the movement of the next work step.
  func placingWhiteboard(on segments: [Segment]) -> [Segment] {
    var segments = segments
    let movements = movementLines
    if !movements.isEmpty && cyclesThroughMovements {
      var turn = 0
      for index in segments.indices where segments[index].kind == .work {
        guard segments[index].label == nil else { continue }
        let line = movements[turn % movements.count]
        segments[index].label = whiteboard[line].text
        segments[index].whiteboardLine = line
        turn += 1
      }
    }
    for index in segments.indices where segments[index].whiteboardLine == nil {
      guard let text = segments[index].label else { continue }
      segments[index].whiteboardLine = whiteboard.firstIndex { $0.text == text }
    }
    // Backwards, so each step learns the next work step's movement in one pass.
    var upcoming: String?
    for index in segments.indices.reversed() {
      segments[index].nextMovement = upcoming
      if segments[index].kind == .work, let text = segments[index].label, text != label {
        upcoming = text
      }
    }
    return segments
  }

  /// Whether the mode's steps cycle, each taking a movement of its own: an EMOM's minutes, the
  /// work intervals of intervals and Tabata, a sequence's steps. An AMRAP's or a For Time's
  /// one stretch holds every movement at once.
  var cyclesThroughMovements: Bool {
    switch mode {
    case .emom, .intervals, .tabata, .sequence: true
    case .clock, .forTime, .amrap, .tempo: false
    }
  }
}
