// SPDX-License-Identifier: MIT
// The engine's whole state is a value that can be written out and read back exactly.

import JSONKit
import Testing

@testable import WorkoutCore

@Suite struct PersistenceTests {
  @Test(arguments: samplePlans.indices)
  func stateRoundTripsExactlyMidRun(_ index: Int) throws {
    var random = SeededGenerator(seed: 77 + UInt64(index))
    var clock = try engine(samplePlans[index], countIn: 7)
    _ = try clock.apply(.start, at: at(0))
    var now = 0.0
    for _ in 0..<40 {
      now += Double.random(in: 0...3, using: &random)
      _ = clock.advance(to: at(now))
      if Int.random(in: 0..<5, using: &random) == 0 {
        _ = try? clock.apply(
          [.lap, .pause, .resume, .next].randomElement(using: &random)!, at: at(now))
      }
    }
    let text = try JSONValueEncoder().encodeToString(clock)
    var restored = try JSONValueDecoder().decode(WorkoutEngine.self, from: text)
    #expect(restored.state == clock.state)
    #expect(restored.plan == clock.plan)
    #expect(restored.timeline == clock.timeline)
    #expect(restored.snapshot(at: at(now + 1.5)) == clock.snapshot(at: at(now + 1.5)))
    // Both continue identically.
    var original = clock
    for step in 1...50 {
      let instant = at(now + Double(step) * 1.7)
      #expect(restored.advance(to: instant) == original.advance(to: instant))
      #expect(restored.nextDeadline == original.nextDeadline)
    }
  }

  @Test func aCorruptPositionIsRejected() throws {
    var clock = try engine(.tabata(.tabata), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    var json = try JSONValueEncoder().encode(clock)
    guard case .object(var root) = json, case .object(var state)? = root["state"] else {
      Issue.record("unexpected shape")
      return
    }
    state["segmentIndex"] = .integer(999)
    root["state"] = .object(state)
    json = .object(root)
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode(WorkoutEngine.self, from: json)
    }
  }
}
