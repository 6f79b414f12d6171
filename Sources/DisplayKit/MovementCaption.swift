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

  /// The line: during a count-in, a rest, a set rest or a side switch, the next movement; in
  /// the last ``announceBefore`` of a work step whose next movement is another, the next one;
  /// otherwise the step's own movement. Nil when there is neither (no whiteboard, or an AMRAP's
  /// one stretch that holds every movement), and before the start and after the end.
  public static func line(for snapshot: WorkoutSnapshot) -> Line? {
    guard snapshot.runState != .idle, snapshot.runState != .finished else { return nil }
    let current = snapshot.whiteboardLine != nil ? snapshot.label : nil
    guard let next = snapshot.nextMovement else { return current.map { Line.now($0) } }
    switch snapshot.segmentKind {
    case .countIn?, .rest?, .setRest?, .sideSwitch?:
      return .next(next)
    case .work?:
      if next != current, let left = snapshot.segmentRemaining, left <= announceBefore {
        return .next(next)
      }
      return current.map { Line.now($0) }
    default:
      return current.map { Line.now($0) }
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
