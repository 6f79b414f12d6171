// SPDX-License-Identifier: MIT
// What the displays are given: the workout's snapshot (or the time of day while idle), the cues
// on the real clock, the time of day in the current zone, a message, the mute state, and a look
// ahead for outputs whose wire is slow.

import Configuration
import DisplayKit
import HardwareKit
import WorkoutCore

/// Makes the frames every output gets, from the engine, the configuration and the clocks.
final class FrameComposer {
  /// How long a message ("reload failed", "press r again") stays on the displays.
  static let messageDuration: Int64 = 5_000_000_000
  /// A zone changed with `timedatectl set-timezone` shows within this (or at a reload).
  static let timeZoneReloadInterval: Int64 = 60_000_000_000

  var configuration: WodclockConfiguration
  /// The `mute` action's toggle: sounders stay silent while it is set. Kept across reloads,
  /// forgotten on restart (a restarted clock is never silently mute).
  var muted = false
  /// What the idle screen says under the time: the next class ("06:00 6 AM WOD"), or that
  /// the schedule waits for a synchronized clock. Shown as the idle snapshot's label.
  var idleNote: String?
  /// A transient message for people, and when it goes.
  private(set) var message: (text: String, until: Int64)?
  /// What the link between clocks has to say while it lasts ("leader offline"): shown when no
  /// message is.
  var linkSign: String?
  /// The heat's lanes, or the numbered lanes in use (the daemon sets them from its heats).
  var lanes: LaneBoard?
  /// What the clock said lately (a lane's finish, a call-up), for the speaker.
  var announcements: [Announcement] = []
  /// What the displays show over the workout while a keypad composes one (the daemon sets it).
  var overlay: DisplayOverlay?

  private let host: EngineHost
  private let timeBase: TimeBase
  private let clock: DaemonClock
  private var nextTimeZoneReload = Int64.min
  private var civilTimes = WallClock.CivilTimeCache()
  /// The loaded workout's movements, as read at an engine revision.
  private var movementsRead: (revision: Int, lines: [String]) = (-1, [])
  /// The time-of-day engine the idle screen shows, kept while its preset name and face stay.
  private var idleClock: (name: String, face: ClockFace, engine: WorkoutEngine)?
  /// Where frames look ahead: made once, not per frame.
  private lazy var previewSource: (Int64, Int64, WallClock.Instant) -> FramePreview.Picture? = {
    [weak self] later, now, wall in self?.picture(at: later, from: now, wall: wall)
  }
  private lazy var cueSource: (Int64) -> [FrameCue] = { [weak self] later in
    self?.cues(until: later) ?? []
  }

  init(
    host: EngineHost, configuration: WodclockConfiguration, timeBase: TimeBase,
    clock: DaemonClock
  ) {
    self.host = host
    self.configuration = configuration
    self.timeBase = timeBase
    self.clock = clock
  }

  // MARK: - Messages

  /// Shows `text` on the displays for a few seconds (nil clears the message).
  func show(_ text: String?, at now: Int64) {
    message = text.map { ($0, now + Self.messageDuration) }
  }

  /// Takes the message down once its time is up.
  func expireMessage(at now: Int64) {
    if let current = message, current.until <= now { message = nil }
  }

  // MARK: - Frames

  /// The frame for `now`, carrying the engine's `cues`. `rereadTimeZone` reads the zone again
  /// now (a reload, a redraw asked for), not only once a minute.
  func frame(cues: [Cue], at now: Int64, rereadTimeZone: Bool = false) -> OutputFrame {
    if rereadTimeZone || now >= nextTimeZoneReload {
      clock.zone.reload()
      civilTimes.removeAll()
      nextTimeZoneReload = now + Self.timeZoneReloadInterval
    }
    let wall = clock.wall()
    var frame = OutputFrame(
      snapshot: displayedSnapshot(at: timeBase.engineInstant(atMonotonic: now)),
      cues: cues.map(realCue), tokens: configuration.tokens, words: configuration.words,
      clock: configuration.clock,
      civilTime: civilTimes.civilTime(at: wall, in: clock.zone.civilTime),
      monotonicNow: now,
      speed: timeBase.speed, message: message?.text ?? linkSign, muted: muted,
      nextChange: nextDisplayChange(at: now, wall: wall),
      preview: FramePreview(source: previewSource, cues: cueSource, now: now, wall: wall),
      overlay: overlay)
    frame.movements = movements
    frame.lanes = lanes
    frame.announcements = announcements
    return frame
  }

  /// The movements of the loaded workout, read again only when the workout changed (a frame is
  /// made on every turn; a load, a press or a restore moves the revision).
  private var movements: [String] {
    if movementsRead.revision != host.revision {
      let plan = host.engine.plan
      movementsRead = (host.revision, plan.movementLines.map { plan.whiteboard[$0].text })
    }
    return movementsRead.lines
  }

  /// The frame of the displays as they are at `now`, without cues and without a look ahead:
  /// what a snapshot preview draws.
  func stillFrame(at now: Int64) -> OutputFrame {
    var frame = OutputFrame(
      snapshot: displayedSnapshot(at: timeBase.engineInstant(atMonotonic: now)), cues: [],
      tokens: configuration.tokens, words: configuration.words, clock: configuration.clock,
      civilTime: clock.zone.civilTime(clock.wall()), monotonicNow: now,
      speed: timeBase.speed, message: message?.text ?? linkSign, muted: muted, overlay: overlay)
    frame.lanes = lanes
    return frame
  }

  /// An engine cue as outputs get it: stamped on the real monotonic clock, since outputs
  /// schedule sound and light in real time and engine instants run N times faster under
  /// `--speed`.
  func realCue(_ cue: Cue) -> FrameCue {
    FrameCue(kind: cue.kind, due: timeBase.monotonic(forEngine: cue.instant))
  }

  /// What the displays show at `instant`: the workout, or the time of day while idle when so
  /// configured.
  func displayedSnapshot(at instant: EngineInstant) -> WorkoutSnapshot {
    displayedSnapshot(host.snapshot(at: instant), at: instant)
  }

  private func displayedSnapshot(_ snapshot: WorkoutSnapshot, at instant: EngineInstant)
    -> WorkoutSnapshot
  {
    var shown = idleScreen(snapshot, at: instant)
    if snapshot.runState == .idle, let idleNote { shown.label = idleNote }
    return shown
  }

  private func idleScreen(_ snapshot: WorkoutSnapshot, at instant: EngineInstant)
    -> WorkoutSnapshot
  {
    guard snapshot.runState == .idle, configuration.clock.idle == .clock else { return snapshot }
    let name = host.preset.name
    let face = configuration.clock.face
    if let idleClock, idleClock.name == name, idleClock.face == face {
      return idleClock.engine.snapshot(at: instant)
    }
    guard let clock = try? WorkoutEngine(plan: WorkoutPlan(name: name, mode: .clock(face))) else {
      return snapshot
    }
    idleClock = (name, face, clock)
    return clock.snapshot(at: instant)
  }

  /// What the displays will show at monotonic `later` if nobody presses anything, for a frame
  /// made at `now` and wall-clock `wall`. A copy of the engine runs ahead; the cues it produces
  /// are dropped with it.
  private func picture(at later: Int64, from now: Int64, wall: WallClock.Instant)
    -> FramePreview.Picture
  {
    var engine = host.engine
    let ahead = timeBase.engineInstant(atMonotonic: later)
    _ = engine.advance(to: ahead)
    let future = displayedSnapshot(engine.snapshot(at: ahead), at: ahead)
    var futureWall = wall
    let nanoseconds = Int64(wall.nanoseconds) + max(0, later - now)
    futureWall.seconds += nanoseconds / 1_000_000_000
    futureWall.nanoseconds = Int32(nanoseconds % 1_000_000_000)
    return (future, clock.zone.civilTime(futureWall))
  }

  /// The cues the engine will give up to monotonic `later` if nobody presses anything: a
  /// copy of it runs ahead, as for the picture, from deadline to deadline as the loop takes
  /// them (one jump would drop the countdowns it passed, as after a stall).
  private func cues(until later: Int64) -> [FrameCue] {
    var engine = host.engine
    let ahead = timeBase.engineInstant(atMonotonic: later)
    var cues: [Cue] = []
    // Bounded: a look far ahead (or a deadline that did not move) ends after 256 steps.
    var steps = 0
    while let deadline = engine.nextDeadline, deadline <= ahead, steps < 256 {
      cues += engine.advance(to: deadline)
      steps += 1
    }
    cues += engine.advance(to: ahead)
    return cues.map(realCue)
  }

  // MARK: - Time

  /// When the displays change next: the engine's next deadline, or the next second of the time
  /// of day while it is shown.
  private func nextDisplayChange(at now: Int64, wall: WallClock.Instant) -> Int64? {
    if let deadline = host.nextDeadline { return timeBase.monotonic(forEngine: deadline) }
    return nextTimeOfDaySecond(at: now, wall: { wall })
  }

  /// The next instant the frames change by themselves, besides the engine's deadlines: a
  /// message going, the next second of the time of day while it is shown.
  func nextWakeUp(after now: Int64) -> Int64? {
    let second = nextTimeOfDaySecond(at: now, wall: clock.wall)
    guard let until = message?.until else { return second }
    return min(until, second ?? until)
  }

  /// The next second of the time of day while it is shown; the wall clock is only read then.
  private func nextTimeOfDaySecond(at now: Int64, wall: () -> WallClock.Instant) -> Int64? {
    guard host.showsTimeOfDay(idleShowsClock: configuration.clock.idle == .clock) else {
      return nil
    }
    return now + (1_000_000_000 - Int64(wall().nanoseconds))
  }
}
