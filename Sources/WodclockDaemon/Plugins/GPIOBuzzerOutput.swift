// SPDX-License-Identifier: MIT
// `gpio-buzzer` output: an active buzzer (through a transistor) or a horn (through a relay or
// MOSFET) on one GPIO line, beeping the workout's cues.
//
// The beep timing is SounderKit's pure `BuzzerSchedule`; this file only turns its on/off
// intervals into line writes at the daemon's wake-ups (`nextWakeUp`), and keeps the horn safe:
// off at start, stop, reload and on every error, never on longer than `max_on_time`.

import ConfigFormat
import Configuration
import HardwareKit
import SounderKit
import WorkoutCore

/// A buzzer or horn on a GPIO line.
public final class GPIOBuzzerOutput: OutputPlugin {
  public let id: String
  public let kind = GPIOBuzzerOutput.kindName
  let line: String
  let chip: String
  let activeLow: Bool
  let patterns: BuzzerPatterns
  let maximumOnTime: Int64
  let quietHours: QuietHours
  private let source: GPIOChipSource
  /// The monotonic clock: a test's, or the daemon's from the context at `start`.
  private var clock: (() -> Int64)?
  private var lines: GPIOOutputLines?
  private var schedule: BuzzerSchedule
  private var limit: OnTimeLimit
  private var context: PluginContext?

  public static let kindName = "gpio-buzzer"

  static let durationRange = TimeSpan.milliseconds(0)...TimeSpan.seconds(60)

  static let line = Setting(
    "line", .string, default: nil, "GPIO line: an offset (18) or a name (GPIO18)")
  static let chip = Setting(
    "chip", .string, default: GPIOLines.automatic,
    "auto finds the chip with the named line (or the Pi header's); or a path, name or label")
  static let activeLow = Setting(
    "active_low", .boolean, default: false,
    "the buzzer sounds when the line is low (some relay boards)")
  static let patterns = Setting(
    "patterns", .map(.oneOrList(.duration(durationRange))), default: [],
    "per cue, on/off/on... durations replacing the standard ones; [] silences a cue")
  static let maxOnTime = Setting(
    "max_on_time", .duration(.milliseconds(100)...(.seconds(30))), default: .seconds(3),
    "no pattern or fault keeps it on longer than this")
  static let quietHours = Setting(
    "quiet_hours", .list(.string), default: [],
    "times of day it stays silent, such as [\"21:00-07:00\"]")

  public static let schema = PluginSchema(
    kind: kindName, direction: .output,
    summary: "an active buzzer or a horn relay on a GPIO line, beeping the cues",
    settings: [
      line.spec, chip.spec, activeLow.spec, patterns.spec,
      maxOnTime.spec, quietHours.spec,
    ],
    crossCheck: crossCheck,
    claims: { settings in
      [
        ResourceClaim(
          kind: "GPIO line",
          identity: GPIOLines.identity(
            chip: try settings[chip], line: try settings[line]),
          key: line.name)
      ]
    })

  static func crossCheck(_ settings: PluginSettings, _ bag: inout DiagnosticBag) throws {
    GPIOLines.checkLine(try settings[line], at: settings.range(of: line), &bag)
    GPIOLines.checkChip(try settings[chip], at: settings.range(of: chip), &bag)
    let maximum = try settings[maxOnTime]
    for (cue, pattern) in try settings[patterns] {
      guard CueKind.allNames.contains(cue) else {
        bag.error(
          "unknown cue '\(cue)' in 'patterns'", at: settings.range(of: patterns, key: cue),
          hint: closestMatch(to: cue, among: CueKind.allNames).map { "did you mean '\($0)'?" }
            ?? "cues: " + CueKind.allNames.joined(separator: ", "))
        continue
      }
      for (index, on) in pattern.enumerated() where index % 2 == 0 {
        if on > maximum {
          bag.error(
            "pattern '\(cue)' sounds for \(DurationText.format(on)), "
              + "longer than max_on_time \(DurationText.format(maximum))",
            at: settings.range(of: patterns, valueOf: cue, item: index),
            hint: "shorten the beep or raise 'max_on_time' (it protects the horn)")
        }
      }
    }
    for (index, window) in try settings[quietHours].enumerated()
    where QuietHours.Window(parsing: window) == nil {
      bag.error(
        "invalid quiet hours '\(window)'", at: settings.range(of: quietHours, item: index),
        hint: "write a time-of-day range such as \"21:00-07:00\"")
    }
  }

  /// Creates the output from its config entry; `source` gives the chips and `clock` the time
  /// (tests pass fakes; without one the output reads the daemon's clock from its context).
  public init(
    instance: PluginInstance, source: GPIOChipSource = .system, clock: (() -> Int64)? = nil
  ) throws {
    id = instance.id
    self.source = source
    self.clock = clock
    let settings = instance.settings
    line = try settings[Self.line]
    chip = try settings[Self.chip]
    activeLow = try settings[Self.activeLow]
    var overrides: [String: BeepPattern] = [:]
    for (cue, pattern) in try settings[Self.patterns] {
      overrides[cue] = pattern.map(\.nanoseconds)
    }
    patterns = BuzzerPatterns.standard(overriding: overrides)
    maximumOnTime = try settings[Self.maxOnTime].nanoseconds
    quietHours = QuietHours(
      try settings[Self.quietHours].compactMap(QuietHours.Window.init))
    schedule = BuzzerSchedule(maximumOnTime: maximumOnTime)
    limit = OnTimeLimit(maximum: maximumOnTime)
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    if clock == nil { clock = context.clock.monotonic }
    schedule = BuzzerSchedule(maximumOnTime: maximumOnTime)
    limit = OnTimeLimit(maximum: maximumOnTime)
    // Requested inactive: the line is off from the first instant the daemon holds it.
    lines = try GPIOOutputLines(
      [(line, chip)], activeLow: activeLow, consumer: GPIOLines.consumer(id), source: source)
  }

  public func render(_ frame: OutputFrame) throws {
    guard lines != nil else { return }
    // The frame's instant is when the loop woke; an action's frame comes after the action's
    // work (the state saved, other outputs drawn). The line is written now, so decide for now.
    let now = max(frame.monotonicNow, clock?() ?? frame.monotonicNow)
    let minute = frame.civilTime.hour * 60 + frame.civilTime.minute
    if frame.muted || quietHours.contains(minuteOfDay: minute) {
      schedule.cut(from: now)
    } else {
      // Of the cues due at one instant, the highest priority plays (the schedule decides).
      for cue in frame.cues {
        guard let pattern = patterns.pattern(for: cue.kind) else { continue }
        schedule.play(
          pattern, at: BuzzerSchedule.start(ofCueAt: cue.due, seenAt: now),
          priority: BuzzerPatterns.priority(of: cue.kind))
      }
    }
    try apply(at: now)
  }

  /// Writes the level the schedule and the on-time limit allow at `now`.
  func apply(at now: Int64) throws {
    guard let lines else { return }
    schedule.discard(before: now)
    let wanted = schedule.isOn(at: now)
    let allowed = limit.level(wanting: wanted, at: now)
    if wanted && !allowed && limit.tripped && lines.values[0] {
      context?.log(
        .warning, "buzzer on too long; cut off",
        [("line", line), ("max_on_ms", String(maximumOnTime / 1_000_000))])
    }
    if allowed != lines.values[0] {
      context?.log(.debug, "buzzer", [("line", line), ("on", allowed ? "yes" : "no")])
    }
    try lines.set(0, allowed)
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    guard lines != nil else { return nil }
    let change = schedule.nextChange(after: now)
    guard let deadline = limit.deadline else { return change }
    return min(change ?? deadline, deadline)
  }

  public func stop() {
    lines?.releaseSafely()
    lines = nil
    schedule = BuzzerSchedule(maximumOnTime: maximumOnTime)
    limit = OnTimeLimit(maximum: maximumOnTime)
    context = nil
  }

  /// Drives the line off without starting: `wodclockd --safe-outputs`, run by systemd after the
  /// daemon died however it died (ExecStopPost=). The request sets the line inactive as it is
  /// made; after the release the Pi's pin controller keeps driving that level.
  public func driveSafe() throws -> SafeState {
    let held = try GPIOOutputLines(
      [(line, chip)], activeLow: activeLow, consumer: GPIOLines.consumer(id), source: source)
    held.releaseSafely()
    return .driven("off: line \(line) driven \(GPIOLines.inactiveLevel(activeLow: activeLow))")
  }
}
