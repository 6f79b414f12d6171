// SPDX-License-Identifier: MIT
// A lane's button at a competition (finish, undo, tiebreak), dated by the press: the input's
// own kernel timestamp of the button going down, not the moment the loop got round to it.

import Configuration
import ControlProtocol

extension Daemon {
  /// Carries out a lane's action. `pressedAt` is when the button went down (monotonic
  /// nanoseconds, the GPIO edge's or the evdev event's timestamp); nil for a request that has
  /// none (the command socket), which happens `now`. Returns the refusal, if any.
  func laneAction(_ action: LaneAction, lane: Int, pressedAt: Int64?, at now: Int64)
    -> CommandFailure?
  {
    let operation: LaneRequest.Operation
    switch action {
    case .finish: operation = .finish
    case .undo: operation = .undo
    case .tiebreak: operation = .tiebreak
    }
    var fields = [("action", action.rawValue), ("lane", String(lane))]
    if let pressedAt {
      // Saturating: a timestamp is the input's, and a log line must not trap on it.
      let (late, overflow) = now.subtractingReportingOverflow(pressedAt)
      fields += [
        ("pressed_at_ns", String(pressedAt)),
        ("late_us", overflow ? "unknown" : String(late / 1_000)),
      ]
    }
    logger.debug("lane action", fields)
    // A timestamp from the future or from before the boot is not the press's: the request's
    // own instant stands in for it.
    let instant = pressedAt.flatMap { (0...now).contains($0) ? $0 : nil }
    return self.lane(LaneRequest(lane: lane, operation), pressedAt: instant, at: now)
  }
}
