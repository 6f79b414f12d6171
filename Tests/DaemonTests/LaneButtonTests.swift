// SPDX-License-Identifier: MIT
// A lane's finish button: the press an input reports reaches the daemon's lane action with the
// input's own instant of the button going down, however late the gesture was decided or the
// loop got round to it. On manual time, exactly.

import Configuration
import ControlProtocol
import HardwareKit
import JSONKit
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
  /// The lane's entry of the status's heat.
  private func lane(_ number: Int, of clock: InProcessDaemon) throws -> JSONValue? {
    try clock.status()["heat"]?["lanes"]?.arrayValue?.first {
      $0["lane"]?.intValue == Int64(number)
    }
  }

  @Test func aFinishIsTheWorkoutsTimeAtTheInstantItsButtonWentDown() throws {
    let presses = ScriptedPresses()
    let clock = try InProcessDaemon(config: config, kinds: [.scriptedPresses(presses)])
    clock.start()
    clock.input(.control("start", .press, pressedAt: clock.time.monotonic))
    clock.run(for: 20)
    // The workout's time now, and the press 3.5 s ago to the nanosecond.
    let elapsedNow = try #require(clock.status()["elapsed_s"]?.doubleValue)
    let pressed = clock.time.monotonic - 3_500_000_000 + 7_123_456
    let expected = ((elapsedNow * 1_000).rounded() - 3_500 + 7).rounded(.down) / 1_000
    // Decided 180 ms after the press (held 150 ms, then the release's debounce).
    presses.script = [
      (clock.time.monotonic + 180_000_000, .control("lane3", .press, pressedAt: pressed))
    ]
    clock.run(for: 1)
    let finished = try #require(try lane(3, of: clock))
    #expect(finished["state"]?.stringValue == "finished")
    #expect(finished["finish_s"]?.doubleValue == expected)
    #expect(presses.script.isEmpty)

    // A long press takes it back: the lane works again.
    presses.script = [
      (
        clock.time.monotonic + 800_000_000,
        .control("lane3", .longPress, pressedAt: clock.time.monotonic)
      )
    ]
    clock.run(for: 1)
    #expect(try lane(3, of: clock)?["state"]?.stringValue == "working")
    #expect(try lane(3, of: clock)?["finish_s"]?.isNull == true)
  }

  @Test func aLaneActionWithoutAPressInstantHappensWhenItIsHandled() throws {
    let clock = try InProcessDaemon(config: config, kinds: [.scriptedPresses(ScriptedPresses())])
    clock.start()
    // Before the start there is nothing to time.
    let early = clock.daemon.perform(.lane(.finish, lane: 2), at: clock.time.monotonic)
    #expect(early?.code == "refused")
    clock.input(.control("start", .press, pressedAt: nil))
    clock.run(for: 15)
    let elapsed = try #require(clock.status()["elapsed_s"]?.doubleValue)
    #expect(clock.daemon.perform(.lane(.tiebreak, lane: 2), at: clock.time.monotonic) == nil)
    let tiebreaks = try lane(2, of: clock)?["tiebreaks_s"]?.arrayValue?.compactMap(\.doubleValue)
    #expect(tiebreaks == [(elapsed * 1_000).rounded(.down) / 1_000])
  }
}
