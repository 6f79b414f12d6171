// SPDX-License-Identifier: MIT
// A lane's finish button: the press an input reports reaches the daemon's lane action with the
// input's own instant of the button going down, however late the gesture was decided or the
// loop got round to it. On manual time, exactly.

import Configuration
import ControlProtocol
import HardwareKit
import Testing

@testable import WodclockDaemon

/// What a button input reports at given instants: the events of a GPIO button, whose gestures
/// are decided after the press (a debounce period after the release, or at the long-press time)
/// and carry the press's kernel timestamp.
final class ScriptedPresses: @unchecked Sendable {
  /// Each event and the instant the input decides it.
  var script: [(decidedAt: Int64, event: InputEvent)] = []
}

/// An input of kind `test-presses` that reports a ``ScriptedPresses`` at its instants.
final class ScriptedPressInput: InputPlugin {
  let id: String
  let kind = "test-presses"
  private let presses: ScriptedPresses

  init(id: String, presses: ScriptedPresses) {
    self.id = id
    self.presses = presses
  }

  func start(_ context: PluginContext) throws {}

  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws
    -> [InputEvent]
  { [] }

  func nextWakeUp(after now: Int64) -> Int64? { presses.script.map(\.decidedAt).min() }

  func handleWakeUp(at now: Int64) -> [InputEvent] {
    let due = presses.script.filter { $0.decidedAt <= now }
    presses.script.removeAll { $0.decidedAt <= now }
    return due.map(\.event)
  }

  func stop() {}
}

extension PluginKind {
  /// `test-presses`, whose instances report `presses`.
  static func scriptedPresses(_ presses: ScriptedPresses) -> PluginKind {
    PluginKind(
      schema: PluginSchema(
        kind: "test-presses", direction: .input, summary: "reports scripted presses",
        settings: []),
      factory: .input { instance in ScriptedPressInput(id: instance.id, presses: presses) })
  }
}

private let config = """
  presets:
    fran:
      mode: for_time
  controls:
    lane3:
      press: lane finish 3
      long_press: lane undo 3
    start:
      press: toggle
  inputs:
    - {type: test-presses, id: lanes}
  """

@Suite struct LaneButtonTests {
  @Test func aPressReachesTheLaneActionWithTheInstantItsButtonWentDown() throws {
    let presses = ScriptedPresses()
    let clock = try InProcessDaemon(config: config, kinds: [.scriptedPresses(presses)])
    clock.start()
    let pressed = clock.time.monotonic + 2_000_000_000 + 7_123_456
    // Decided 180 ms after the press (held 150 ms, then the release's debounce), and undone
    // by a long press 800 ms after its own press.
    let undone = pressed + 5_000_000_000
    presses.script = [
      (pressed + 180_000_000, .control("lane3", .press, pressedAt: pressed)),
      (undone + 800_000_000, .control("lane3", .longPress, pressedAt: undone)),
    ]
    clock.run(for: 10)
    let lines = clock.logLines(containing: "lane action")
    #expect(lines.count == 2)
    #expect(
      lines.first?.hasSuffix(
        "lane action action=finish lane=3 pressed_at_ns=\(pressed) late_us=180000") == true)
    #expect(
      lines.last?.hasSuffix(
        "lane action action=undo lane=3 pressed_at_ns=\(undone) late_us=800000") == true)
    #expect(presses.script.isEmpty)
  }

  @Test func aLaneActionWithoutAPressInstantHappensWhenItIsHandled() throws {
    let clock = try InProcessDaemon(config: config, kinds: [.scriptedPresses(ScriptedPresses())])
    clock.start()
    let failure = clock.daemon.perform(.lane(.tiebreak, lane: 2), at: clock.time.monotonic)
    #expect(failure == CommandFailure("unavailable", "heats are not set up yet"))
    let lines = clock.logLines(containing: "lane action")
    #expect(lines.count == 1)
    #expect(lines.first?.contains("action=tiebreak lane=2") == true)
    #expect(lines.first?.contains("pressed_at") == false)
  }
}
