// SPDX-License-Identifier: MIT
// What an output is given on every update: the workout's snapshot, the cues since its last
// frame (on the real clock), the design tokens and words, the time of day, and a look ahead.

import Configuration
import DisplayKit
import HardwareKit
import WorkoutCore

/// Everything an output is given on each update: one value, so fields can be added later
/// without touching every plugin.
public struct OutputFrame {
  public var snapshot: WorkoutSnapshot
  /// Cues since the previous frame given to this output; never repeated, and dropped only when
  /// stale (see ``FrameCue``).
  public var cues: [FrameCue]
  public var tokens: DesignTokens
  public var words: DisplayWords
  public var clock: ClockSettings
  /// Wall-clock time of day, for the clock display (never used for timing).
  public var civilTime: CivilTime
  /// The real monotonic clock, in nanoseconds.
  public var monotonicNow: Int64
  /// The loop's speed factor (`--speed`); outputs that animate divide by it.
  public var speed: Int64
  /// A transient message for people ("press r again to reset", "reload failed: ...").
  public var message: String?
  /// The `mute` action silenced sounders (buzzers, horns); lamps and displays carry on.
  public var muted: Bool = false
  /// The monotonic instant at which what the displays show changes next (a second of the big
  /// digits, a cue, the time of day on the clock), or nil when nothing is scheduled.
  public var nextChange: Int64?
  /// The snapshot and time of day at a later monotonic instant, as they will be if nobody
  /// presses anything: for outputs whose wire is slow enough that a frame must leave before the
  /// second it shows (LED matrices on a serial line). Nil when the daemon cannot tell.
  public var preview: FramePreview?
  /// What takes the place of the workout's picture for a moment: what a keypad is composing, or
  /// the question before a running workout is replaced. Nil most of the time.
  public var overlay: DisplayOverlay?
  /// The movements of the loaded workout's whiteboard, in order (what a speaker voices ahead,
  /// to announce each before it comes); empty without a whiteboard.
  public var movements: [String] = []
  /// The heat's lanes (or the numbered lanes in use), nil when no heat or lane is under way.
  public var lanes: LaneBoard?
  /// What the clock has said lately (a lane's finish, a call-up), oldest first, each once by
  /// its serial: an output that speaks says those newer than the last it said.
  public var announcements: [Announcement] = []

  /// Creates a frame (the daemon makes them; benchmarks and tests drive plugins with their own).
  public init(
    snapshot: WorkoutSnapshot, cues: [FrameCue], tokens: DesignTokens, words: DisplayWords,
    clock: ClockSettings, civilTime: CivilTime, monotonicNow: Int64, speed: Int64,
    message: String?, muted: Bool = false, nextChange: Int64? = nil, preview: FramePreview? = nil,
    overlay: DisplayOverlay? = nil
  ) {
    self.snapshot = snapshot
    self.cues = cues
    self.tokens = tokens
    self.words = words
    self.clock = clock
    self.civilTime = civilTime
    self.monotonicNow = monotonicNow
    self.speed = speed
    self.message = message
    self.muted = muted
    self.nextChange = nextChange
    self.preview = preview
    self.overlay = overlay
  }
}

/// The snapshot and time of day a frame's displays will show at a later monotonic instant, and
/// the cues due until then: what happens if nobody presses anything.
///
/// The daemon's sources are made once and take the frame's own instants, so that publishing a
/// frame allocates no closure on every wake-up.
public struct FramePreview {
  public typealias Picture = (snapshot: WorkoutSnapshot, civilTime: CivilTime)
  private let source: (_ later: Int64, _ now: Int64, _ wall: WallClock.Instant) -> Picture?
  private let cueSource: (_ later: Int64) -> [FrameCue]
  private let now: Int64
  private let wall: WallClock.Instant

  /// A preview from `source`, asked with the instants of the frame it belongs to: its
  /// monotonic `now` and its wall-clock `wall`. Nil from the source: nothing to show ahead.
  /// `cues` gives the cues due after the frame up to a later instant.
  init(
    source: @escaping (_ later: Int64, _ now: Int64, _ wall: WallClock.Instant) -> Picture?,
    cues: @escaping (_ later: Int64) -> [FrameCue], now: Int64, wall: WallClock.Instant
  ) {
    self.source = source
    self.cueSource = cues
    self.now = now
    self.wall = wall
  }

  /// A preview that shows what `picture` gives for a later instant, and whose cues until an
  /// instant are what `cues` gives (tests, benchmarks).
  public init(
    _ picture: @escaping (_ later: Int64) -> Picture,
    cues: @escaping (_ later: Int64) -> [FrameCue] = { _ in [] }
  ) {
    self.init(
      source: { later, _, _ in picture(later) }, cues: cues, now: 0,
      wall: WallClock.Instant(seconds: 0))
  }

  /// What the displays will show at monotonic instant `later`, or nil when it cannot be told.
  public func callAsFunction(_ later: Int64) -> Picture? { source(later, now, wall) }

  /// The cues due after the frame's instant up to `later` (monotonic), in order: for outputs
  /// that must start before the instant they mark, as a speaker writes its samples ahead by
  /// its device's latency. A press in between can take them back: the next frame's look says.
  public func cues(until later: Int64) -> [FrameCue] {
    later > now ? cueSource(later) : []
  }
}

/// A cue as outputs get it: what happened, and when it was due on the real monotonic clock.
///
/// The engine's own ``Cue`` is stamped in engine time, which runs N times faster under
/// `--speed`; a sounder schedules its edges in real time. A distinct type keeps the two apart.
public struct FrameCue: Hashable, Sendable {
  public var kind: CueKind
  /// Real monotonic nanoseconds at which the cue was due (or, for a late announcement of the
  /// present moment, at which it is delivered).
  public var due: Int64

  /// Creates a cue (the daemon makes them from the engine's; tests and benchmarks make their own).
  public init(kind: CueKind, due: Int64) {
    self.kind = kind
    self.due = due
  }
}
