// SPDX-License-Identifier: MIT
// Maps the monotonic clock to engine instants, N times faster with `--speed N`.

import WorkoutCore

/// Engine instants are the monotonic clock, scaled around the daemon's start so that
/// `--speed 60` previews a 20-minute AMRAP in 20 seconds. At speed 1 they are the clock itself.
struct TimeBase {
  let origin: Int64
  let speed: Int64

  func engineInstant(atMonotonic monotonic: Int64) -> EngineInstant {
    EngineInstant(nanoseconds: origin + (monotonic - origin) * speed)
  }

  /// The first monotonic instant at which the engine reaches `instant` (rounded up, so the
  /// daemon never wakes a nanosecond early).
  func monotonic(forEngine instant: EngineInstant) -> Int64 {
    let offset = instant.nanoseconds - origin
    let quotient = offset / speed
    return origin + (offset % speed > 0 ? quotient + 1 : quotient)
  }
}
