// SPDX-License-Identifier: MIT
// Several daemons in the test's process on one manual clock, linked through one in-memory
// MQTT broker: a room of clocks whose every turn is taken at the instant it asked for, so what
// the clocks show and when is compared exactly.

import HardwareKit
import JSONKit
import WodclockTestSupport

@testable import WodclockDaemon

/// A room of in-process clocks on one broker and one clock.
final class InProcessRoom {
  let time = ManualTime()
  let broker: InMemoryBroker
  /// The clocks, by name, in the order they were added.
  private(set) var clocks: [(name: String, daemon: InProcessDaemon)] = []
  /// Each clock's displayed seconds as they changed: the instant (seconds on the manual clock),
  /// the state and the display.
  private(set) var changes: [String: [Change]] = [:]

  struct Change: Equatable, CustomStringConvertible {
    var at: Double
    var state: String
    var display: String
    var description: String { "\(at) \(state) \(display)" }
  }

  init() {
    let time = time
    broker = InMemoryBroker(now: { time.monotonic })
  }

  /// The config of a clock of the room: the intervals `drill` (a two-minute workout with a
  /// count-in of 3 s), a link to the broker in `room` as `role` with the client id `name`,
  /// and `extra` lines in its `mqtt:` section.
  static func config(name: String, role: String, room: String = "hall", extra: String = "")
    -> String
  {
    """
    defaults:
      preset: drill
      count_in: 3s
    presets:
      drill:
        mode: intervals
        work: 20s
        rest: 10s
        rounds: 4
    outputs:
      - type: log
    mqtt:
      broker: "127.0.0.1:1883"
      room: \(room)
      role: \(role)
      client_id: \(name)
      lead: 1s
    \(extra)
    """
  }

  /// Adds a clock and starts it (its first turn is taken by the next `run`).
  @discardableResult
  func add(
    _ name: String, role: String, room: String = "hall", extra: String = "",
    config: String? = nil
  ) throws -> InProcessDaemon {
    let daemon = try InProcessDaemon(
      config: config ?? Self.config(name: name, role: role, room: room, extra: extra), kinds: [],
      time: time, link: InMemoryMQTTClient.Maker(broker: broker))
    daemon.start()
    clocks.append((name, daemon))
    return daemon
  }

  subscript(name: String) -> InProcessDaemon {
    clocks.first { $0.name == name }!.daemon
  }

  /// Takes the clock out of the room, stopping it as `systemctl stop` would.
  func remove(_ name: String) {
    guard let index = clocks.firstIndex(where: { $0.name == name }) else { return }
    clocks[index].daemon.stop()
    clocks.remove(at: index)
  }

  /// Lets `seconds` pass: every clock takes each turn it asked for at its instant, and the
  /// messages between them are handled at the instant they were sent (the broker delivers at
  /// once), until nothing is due; the broker notices silent clients on time.
  func run(for seconds: Double) {
    let target = time.monotonic + Int64((seconds * 1e9).rounded())
    var steps = 0
    while steps < 1_000_000 {
      settle()
      var next = broker.nextDeadline ?? .max
      for (_, clock) in clocks { next = min(next, clock.nextWakeUp) }
      guard next <= target else { break }
      time.monotonic = max(time.monotonic, next)
      steps += 1
    }
    time.monotonic = target
    settle()
  }

  /// Takes every turn due now, and what those turns caused, until nothing more is.
  private func settle() {
    for round in 0..<1000 {
      broker.expire(at: time.monotonic)
      let due = clocks.filter { round == 0 || $0.daemon.isDue }
      guard !due.isEmpty else { return }
      for (name, clock) in due {
        clock.takeTurn()
        record(name, clock)
      }
    }
  }

  private func record(_ name: String, _ clock: InProcessDaemon) {
    guard let status = try? clock.status() else { return }
    let change = Change(
      at: time.seconds, state: status["state"]?.stringValue ?? "",
      display: status["display"]?.stringValue ?? "")
    if changes[name]?.last.map({ ($0.state, $0.display) != (change.state, change.display) })
      ?? true
    {
      changes[name, default: []].append(change)
    }
  }

  /// What every clock shows now (state and display), or nil when they differ.
  func agreement(_ names: [String]) -> (state: String, display: String)? {
    let shown = names.compactMap { name -> (String, String)? in
      guard let status = try? self[name].status() else { return nil }
      return (status["state"]?.stringValue ?? "", status["display"]?.stringValue ?? "")
    }
    guard shown.count == names.count, let first = shown.first,
      shown.allSatisfy({ $0 == first })
    else { return nil }
    return first
  }

  /// The `link` object of a clock's status.
  func link(_ name: String) throws -> JSONObject {
    try self[name].status()["link"]?.objectValue ?? JSONObject()
  }

  /// A clock's `stats` reply.
  func stats(_ name: String) throws -> JSONValue {
    try self[name].request(#"{"cmd": "stats"}"#)
  }
}
