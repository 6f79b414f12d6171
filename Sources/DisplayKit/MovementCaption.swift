// SPDX-License-Identifier: MIT
// The movement line every display shows under the digits when a workout has a whiteboard: the
// movement of the step under way, or the next one before it comes ("next: 10 burpees"), so the
// athletes are at the right station when the minute turns. One rule for the TV, the matrix and
// any display that shows a line of text.

import WorkoutCore

/// What the movement line says at a snapshot.
public enum MovementCaption {
  /// How long before a change of movement the next one is announced, during work.
  public static let announceBefore = TimeSpan.seconds(10)

  /// The line: the next movement once its announcement has come (``announcement(in:)``),
  /// else the step's own movement. Nil when there is neither (no whiteboard, or an AMRAP's one
  /// stretch that holds every movement), and before the start and after the end.
  public static func line(for snapshot: WorkoutSnapshot) -> Line? {
    guard snapshot.runState != .idle, snapshot.runState != .finished else { return nil }
    if let announced = announcement(in: snapshot), snapshot.segmentElapsed >= announced.from {
      return .next(announced.movement)
    }
    guard snapshot.whiteboardLine != nil, let current = snapshot.label else { return nil }
    return .now(current)
  }

  /// The next movement, and how far into the current step it is announced from: from its
  /// start in a count-in, a rest, a set rest or a side switch; ``announceBefore`` before the
  /// end of a work step that another movement follows. Nil when the step announces nothing
  /// (the last one, an open-ended one, one the same movement follows).
  public static func announcement(in snapshot: WorkoutSnapshot) -> (
    movement: String, from: TimeSpan
  )? {
    guard let next = snapshot.nextMovement, !next.isEmpty else { return nil }
    switch snapshot.segmentKind {
    case .countIn?, .rest?, .setRest?, .sideSwitch?:
      return (next, .zero)
    case .work?:
      guard next != snapshot.label, let length = snapshot.segmentLength else { return nil }
      return (next, max(.zero, length - announceBefore))
    default:
      return nil
    }
  }

  /// The movement line and whether it announces what comes.
  public enum Line: Hashable, Sendable {
    /// The movement of the step under way.
    case now(String)
    /// The movement that comes next.
    case next(String)

    /// As a display writes it: the movement, or `next: ` and the movement.
    public var text: String {
      switch self {
      case .now(let movement): movement
      case .next(let movement): "next: " + movement
      }
    }

    /// The movement itself.
    public var movement: String {
      switch self {
      case .now(let movement), .next(let movement): movement
      }
    }
  }
}
