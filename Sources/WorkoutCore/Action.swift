// SPDX-License-Identifier: MIT
// What a coach can do to a running workout.

/// A user action. Loading a preset is the daemon's business: it builds a new engine.
public enum WorkoutAction: String, Sendable, Hashable, Codable, CaseIterable {
  case start
  case pause
  case resume
  /// Start when idle or finished, pause when running, resume when paused.
  case toggle
  case reset
  /// End the workout now; in For Time this freezes the final time.
  case finish
  /// End the current segment now and begin the next.
  case next
  /// Go back to the start of the previous segment.
  case previous
  /// Tally a round (AMRAP, rounds for time) or a lap.
  case lap
}

/// Why an action was not applied. The engine never crashes on an action that does not fit.
public struct ActionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  public var action: WorkoutAction
  public var reason: String
  public init(_ action: WorkoutAction, _ reason: String) {
    self.action = action
    self.reason = reason
  }
  public var description: String { "cannot \(action.rawValue): \(reason)" }
}
