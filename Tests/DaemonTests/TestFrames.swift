// SPDX-License-Identifier: MIT
// The frame the daemon gives its outputs, built for output tests that drive a plugin directly.

import Configuration
import DisplayKit
import HardwareKit
import WorkoutCore

@testable import WodclockDaemon

/// A frame of `snapshot` at monotonic `now`, with the standard tokens and words, at `hour`:00
/// local time on a Monday.
func frame(
  _ snapshot: WorkoutSnapshot, cues: [FrameCue] = [], at now: Int64, muted: Bool = false,
  hour: Int = 12
) -> OutputFrame {
  OutputFrame(
    snapshot: snapshot, cues: cues, tokens: .standard, words: .english, clock: ClockSettings(),
    civilTime: CivilTime(
      year: 2025, month: 1, day: 6, hour: hour, minute: 0, second: 0, nanosecond: 0, weekday: 1,
      utcOffsetSeconds: 0), monotonicNow: now, speed: 1, message: nil, muted: muted)
}
