// SPDX-License-Identifier: MIT
// The contracts between the daemon and its plugins. The daemon runs one single-threaded event
// loop; plugins are called from it and must never block: they write non-blocking, queue, and
// ask for a wake-up when they need one.

import Configuration
import DisplayKit
import HardwareKit
import WorkoutCore

/// Everything an output is given on each update: one value, so fields can be added later
/// without touching every plugin.
public struct OutputFrame {
  public var snapshot: WorkoutSnapshot
  /// Cues since the previous frame given to this output; never dropped, never repeated. Their
  /// `instant` is on the real monotonic clock (`MonotonicClock.now()`), also under `--speed`.
  public var cues: [Cue]
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

  /// Creates a frame (the daemon makes them; benchmarks and tests drive plugins with their own).
  public init(
    snapshot: WorkoutSnapshot, cues: [Cue], tokens: DesignTokens, words: DisplayWords,
    clock: ClockSettings, civilTime: CivilTime, monotonicNow: Int64, speed: Int64,
    message: String?, muted: Bool = false, nextChange: Int64? = nil, preview: FramePreview? = nil
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
  }
}

/// The snapshot and time of day a frame's displays will show at a later monotonic instant.
///
/// The daemon's source is made once and takes the frame's own instants, so that publishing a
/// frame allocates no closure on every wake-up.
public struct FramePreview {
  public typealias Picture = (snapshot: WorkoutSnapshot, civilTime: CivilTime)
  private let source: (_ later: Int64, _ now: Int64, _ wall: WallClock.Instant) -> Picture?
  private let now: Int64
  private let wall: WallClock.Instant

  /// A preview from `source`, asked with the instants of the frame it belongs to: its
  /// monotonic `now` and its wall-clock `wall`. Nil from the source: nothing to show ahead.
  init(
    source: @escaping (_ later: Int64, _ now: Int64, _ wall: WallClock.Instant) -> Picture?,
    now: Int64, wall: WallClock.Instant
  ) {
    self.source = source
    self.now = now
    self.wall = wall
  }

  /// A preview that shows what `picture` gives for a later instant (tests, benchmarks).
  public init(_ picture: @escaping (_ later: Int64) -> Picture) {
    self.init(
      source: { later, _, _ in picture(later) }, now: 0, wall: WallClock.Instant(seconds: 0))
  }

  /// What the displays will show at monotonic instant `later`, or nil when it cannot be told.
  public func callAsFunction(_ later: Int64) -> Picture? { source(later, now, wall) }
}

/// A display, a sounder or a log: something the clock's state is shown on.
public protocol OutputPlugin: AnyObject {
  var id: String { get }
  var kind: String { get }
  /// Opens devices. A throw marks only this plugin as failed; the daemon retries with backoff.
  func start(_ context: PluginContext) throws
  /// Shows `frame`. Must not block.
  func render(_ frame: OutputFrame) throws
  /// A monotonic instant at which this output wants another frame although nothing in the
  /// workout changed (a blinking colon, a buzzer edge), or nil.
  func nextWakeUp(after now: Int64) -> Int64?
  /// Descriptors the loop watches for readability on this output's behalf (a hotplug monitor).
  /// Read after `start` and after each `handleReadable`; the daemon stops watching them before
  /// `stop`. Most outputs have none.
  var watchedDescriptors: [FileDescriptor] { get }
  /// Reads what is ready on `descriptor` (non-blocking). A throw fails the output, as a failed
  /// `render` does.
  func handleReadable(_ descriptor: FileDescriptor, at now: Int64) throws
  /// Puts the output in its safe state (buzzer off, display per config) and releases devices.
  /// Must not throw and must return quickly.
  func stop()
  /// On a reload that leaves this output's config entry unchanged: reads again the files it
  /// was made from (a matrix's font), since one may have been replaced. Returns whether
  /// anything changed; a throw keeps what the output had.
  func reloadFiles() throws -> Bool
  /// Drives the hardware to its safe state without starting the plugin: `wodclockd
  /// --safe-outputs`, which `ExecStopPost=` runs after the daemon ended however it ended (a
  /// SIGKILL leaves a horn's line where it was: a Raspberry Pi's pin keeps the level last
  /// driven). No default: every output says what its safe state is, or that it has nothing to
  /// secure. Throws when the device cannot be reached (no chip, no permission, unplugged).
  func driveSafe() throws -> SafeState
}

/// What `OutputPlugin.driveSafe()` left the output in.
public enum SafeState: Equatable, Sendable {
  /// The device was reached and driven safe; the words say to what ("line 18 off").
  case driven(String)
  /// The output has no device that could be left on (the terminal, the log).
  case nothingToSecure
}

/// A source of button presses and key strokes.
public protocol InputPlugin: AnyObject {
  var id: String { get }
  var kind: String { get }
  func start(_ context: PluginContext) throws
  /// Descriptors the loop watches for readability on this plugin's behalf.
  var watchedDescriptors: [FileDescriptor] { get }
  /// Reads what is ready on `descriptor` (non-blocking) and reports what the person did.
  func handleReadable(_ descriptor: FileDescriptor, at now: Int64) throws -> [InputEvent]
  /// A monotonic instant at which the plugin must be called back (a long-press threshold).
  func nextWakeUp(after now: Int64) -> Int64?
  func handleWakeUp(at now: Int64) -> [InputEvent]
  func stop()
}

extension InputPlugin {
  public func nextWakeUp(after now: Int64) -> Int64? { nil }
  public func handleWakeUp(at now: Int64) -> [InputEvent] { [] }
}

/// What an input reports.
public enum InputEvent: Equatable, Sendable {
  /// A gesture on a named control; the config's `controls:` says what it does.
  case control(String, Gesture)
  /// An action chosen by the input itself (the terminal keyboard's fixed keys).
  case action(ControlAction)
  /// Load the n-th preset of the config (1-based), as the keys 1–9 do.
  case loadPresetNumber(Int)
  /// Show (or, with nil, clear) a short message on the displays.
  case message(String?)
  /// The person asked the daemon to quit (the terminal keyboard's `q`).
  case quit
}

/// What a plugin may use from the daemon.
public struct PluginContext {
  public var id: String
  public var logger: Logger
  /// The loop's speed factor (`--speed`).
  public var speed: Int64
  /// Called by an output that takes over the terminal, so log lines stop going to it.
  public var claimTerminal: (_ showLine: @escaping (String) -> Void) -> Void

  /// Creates a context (the daemon makes them; benchmarks and tests drive plugins directly).
  public init(
    id: String, logger: Logger, speed: Int64,
    claimTerminal: @escaping (_ showLine: @escaping (String) -> Void) -> Void
  ) {
    self.id = id
    self.logger = logger
    self.speed = speed
    self.claimTerminal = claimTerminal
  }

  public func log(_ level: LogLevel, _ message: String, _ fields: [(String, String)] = []) {
    logger.log(level, message, [("plugin", id)] + fields)
  }
}

/// A plugin failure with a reason a person can act on.
public struct PluginError: Error, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

extension OutputPlugin {
  public var watchedDescriptors: [FileDescriptor] { [] }
  public func handleReadable(_ descriptor: FileDescriptor, at now: Int64) throws {}
  public func reloadFiles() throws -> Bool { false }
}
