// SPDX-License-Identifier: MIT
// The terminal view on a real pseudo-terminal: a terminal that stops reading never stalls it.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

@Suite struct TerminalOutputTests {
  private func frame(at seconds: Int64, engine: WorkoutEngine) -> OutputFrame {
    let instant = EngineInstant(nanoseconds: seconds * 1_000_000_000)
    return OutputFrame(
      snapshot: engine.snapshot(at: instant), cues: [], tokens: .standard, words: .english,
      clock: ClockSettings(),
      civilTime: CivilTime(
        year: 2026, month: 11, day: 29, hour: 21, minute: 5, second: Int(seconds % 60),
        nanosecond: 0, weekday: 0, utcOffsetSeconds: 0),
      monotonicNow: instant.nanoseconds, speed: 1, message: nil)
  }

  @Test(.timeLimit(.minutes(1)))
  func aTerminalThatStopsReadingCostsFramesNotTheLoop() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let output = try TerminalOutput(
      instance: pluginInstance(.output, "{type: terminal, color: always}"),
      output: terminal.secondary)
    let logger = Logger()
    try output.start(
      PluginContext(id: "terminal", logger: logger, speed: 1, claimTerminal: { _ in }))
    var engine = try WorkoutEngine(
      plan: WorkoutPlan(name: "t", mode: .amrap(AMRAPParameters(time: .minutes(20)))))
    _ = try engine.apply(.start, at: EngineInstant(nanoseconds: 0))
    // Nobody reads the primary side: the pseudo-terminal's buffer fills after a few frames.
    // Every render must still return at once; the frames that do not fit are dropped.
    for second in 1...400 {
      try output.render(frame(at: Int64(second), engine: engine))
    }
    #expect(output.nextWakeUp(after: 0) == TerminalOutput.retryInterval)
    // The reader comes back: the output drains and draws the newest frame whole.
    var received: [UInt8] = []
    try terminal.primary.setNonBlocking(true)
    for second in 401...420 {
      while case .bytes = try terminal.primary.read(appendingTo: &received, maximumCount: 65_536) {}
      try output.render(frame(at: Int64(second), engine: engine))
    }
    while case .bytes = try terminal.primary.read(appendingTo: &received, maximumCount: 65_536) {}
    output.stop()
    while case .bytes = try terminal.primary.read(appendingTo: &received, maximumCount: 65_536) {}
    let text = String(decoding: received, as: UTF8.self)
    // Once drained, nothing is left pending and the terminal got its normal screen back.
    #expect(text.contains("\u{1B}[?1049l"))
    #expect(output.nextWakeUp(after: 0) == nil)
  }

  @Test func aHeatsLineIsItsFinishedLanesOrItsCallUp() {
    let running = LaneBoard(
      heat: 2, phase: .running,
      lanes: [
        LaneLine(lane: 1, athlete: "Anna"),
        LaneLine(lane: 2, athlete: "Ben", result: "7:50.9", place: 2),
        LaneLine(lane: 3, athlete: "Cleo", result: "7:42.3", place: 1),
      ])
    #expect(TerminalOutput.lanesLine(running, at: 0) == "L3 7:42.3  L2 7:50.9")
    var none = running
    none.lanes = [LaneLine(lane: 1, athlete: "Anna")]
    #expect(TerminalOutput.lanesLine(none, at: 0) == nil)
    let callUp = LaneBoard(
      heat: 3, phase: .callUp, startsAt: 200_000_000_000,
      lanes: [LaneLine(lane: 1, athlete: "Anna"), LaneLine(lane: 2, athlete: "Ben")])
    #expect(
      TerminalOutput.lanesLine(callUp, at: 97_500_000_000) == "HEAT 3 in 1:43 · 1 Anna · 2 Ben")
  }
}
