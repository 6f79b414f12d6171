// SPDX-License-Identifier: MIT
// `log` output: a journal-friendly line on every state change and every cue.

import Configuration
import ControlProtocol
import DisplayKit
import WorkoutCore

/// Logs what a person would notice: the run state, the segment, the round, each cue.
/// Per-second ticks are not logged (that would be 3,600 lines an hour in the journal).
public final class LogOutput: OutputPlugin {
  public let id: String
  public let kind = LogOutput.kindName
  private let logCues: Bool
  private var context: PluginContext?
  private var lastState: LoggedState?

  public static let kindName = "log"

  static let cues = Setting(
    "cues", .boolean, default: true, "log each cue (beeps, round changes)")

  public static let schema = PluginSchema(
    kind: kindName, direction: .output,
    summary: "a journal line on every state change and cue",
    settings: [cues.spec])

  public init(instance: PluginInstance) throws {
    id = instance.id
    logCues = try instance.settings[Self.cues]
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
  }

  public func render(_ frame: OutputFrame) throws {
    let snapshot = frame.snapshot
    // Compared on every wake-up, so without building anything; a line only on a change.
    if lastState?.matches(snapshot) != true {
      lastState = LoggedState(snapshot)
      context?.logger.info("state", Self.stateFields(snapshot))
    }
    if logCues, !frame.cues.isEmpty, let context {
      for cue in frame.cues {
        context.logger.info("cue", [("cue", cue.kind.name)] + CommandProtocol.cueFields(cue.kind))
      }
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? { nil }

  public func stop() { context = nil }

  /// A log has no device that could be left on.
  public func driveSafe() throws -> SafeState { .nothingToSecure }

  static func stateFields(_ snapshot: WorkoutSnapshot) -> [(String, String)] {
    var fields: [(String, String)] = [
      ("state", snapshot.runState.rawValue), ("preset", snapshot.presetName),
      ("mode", snapshot.mode.rawValue),
    ]
    if let kind = snapshot.segmentKind, snapshot.runState != .idle {
      fields.append(("segment", kind.rawValue))
    }
    if let round = snapshot.round { fields.append(("round", round.description)) }
    if let set = snapshot.set { fields.append(("set", set.description)) }
    if let side = snapshot.side { fields.append(("side", side.rawValue)) }
    if let label = snapshot.label, snapshot.runState != .idle { fields.append(("label", label)) }
    if snapshot.laps > 0 { fields.append(("laps", String(snapshot.laps))) }
    if let reason = snapshot.finishReason {
      fields.append(("finish", reason.rawValue))
      fields.append(("elapsed", snapshot.elapsed.description))
    }
    return fields
  }
}

/// The parts of a snapshot that the `state` line shows: a new line when one of them changes.
/// A class of constants: the output reads it on every wake-up, and reading a struct kept in a
/// class copies it (a retain and release of each string), where this is one reference.
private final class LoggedState {
  let runState: RunState
  let presetName: String
  let mode: ModeName
  let segmentKind: SegmentKind?
  let round: Counter?
  let set: Counter?
  let side: Side?
  let label: String?
  let laps: Int
  let finishReason: FinishReason?
  let finalElapsed: TimeSpan?

  init(_ snapshot: WorkoutSnapshot) {
    runState = snapshot.runState
    presetName = snapshot.presetName
    mode = snapshot.mode
    segmentKind = snapshot.runState == .idle ? nil : snapshot.segmentKind
    round = snapshot.round
    set = snapshot.set
    side = snapshot.side
    label = snapshot.runState == .idle ? nil : snapshot.label
    laps = snapshot.laps
    finishReason = snapshot.finishReason
    finalElapsed = snapshot.finishReason == nil ? nil : snapshot.elapsed
  }

  /// Whether `snapshot` shows the same: `LoggedState(snapshot)` compared without being built.
  func matches(_ snapshot: WorkoutSnapshot) -> Bool {
    let idle = snapshot.runState == .idle
    return runState == snapshot.runState && mode == snapshot.mode && round == snapshot.round
      && set == snapshot.set && side == snapshot.side && laps == snapshot.laps
      && finishReason == snapshot.finishReason
      && segmentKind == (idle ? nil : snapshot.segmentKind)
      && finalElapsed == (snapshot.finishReason == nil ? nil : snapshot.elapsed)
      && presetName == snapshot.presetName && label == (idle ? nil : snapshot.label)
  }
}
