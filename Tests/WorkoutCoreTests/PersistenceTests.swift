// SPDX-License-Identifier: MIT
// The engine's whole state is a value that can be written out and read back exactly.

import JSONKit
import Testing
import WodclockTestSupport

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

  @Test(arguments: samplePlans.indices)
  func everyStateTheEngineReachesReadsBack(_ index: Int) throws {
    // The checks on a decoded state must never refuse one the engine itself wrote.
    var random = SeededGenerator(seed: 501 + UInt64(index))
    var clock = try engine(samplePlans[index], countIn: 5)
    var now = 0.0
    for _ in 0..<300 {
      now += [0, 0.001, 0.4, 3, 45, 600].randomElement(using: &random)!
      _ = clock.advance(to: at(now))
      _ = try? clock.apply(WorkoutAction.allCases.randomElement(using: &random)!, at: at(now))
      let restored = try JSONValueDecoder().decode(
        WorkoutEngine.self, from: JSONValueEncoder().encode(clock))
      #expect(restored.state == clock.state)
    }
  }

  /// Every integer the engine keeps in its state, by its key in the saved file.
  private static let integerFields = [
    "origin", "frozenTime", "segmentIndex", "segmentStart", "cueCursor", "lastInstant",
    "workoutStart", "tensionTotal", "pass", "droppedCues",
  ]

  /// Values a damaged or crafted file can hold where a number belongs.
  private static let extremes: [Int64] = [
    .max, .min, .max - 1, .min + 1, 1 << 62, -(1 << 62), StateLimits.time + 1, -1, 0, 1,
    3_000_000_000,
  ]

  @Test(arguments: samplePlans.indices)
  func extremeValuesInAnyStateFieldNeverTrap(_ index: Int) throws {
    var random = SeededGenerator(seed: 900 + UInt64(index))
    var accepted = 0
    for reached in try reachedEngines(samplePlans[index]) {
      guard case .object(let root) = try JSONValueEncoder().encode(reached),
        case .object(let state)? = root["state"]
      else {
        Issue.record("unexpected shape")
        return
      }
      func decode(_ edit: (inout JSONObject) -> Void) -> WorkoutEngine? {
        var edited = state
        edit(&edited)
        var file = root
        file["state"] = .object(edited)
        return try? JSONValueDecoder().decode(WorkoutEngine.self, from: .object(file))
      }
      // One field at a time: a value out of range is always refused.
      for field in Self.integerFields {
        for value in Self.extremes {
          let decoded = decode { $0[field] = .integer(value) }
          if abs(Double(value)) > Double(StateLimits.time) {
            #expect(decoded?.state == nil, "\(field) = \(value)")
          }
          if let decoded {
            accepted += 1
            exercise(decoded)
          }
        }
      }
      // Lists out of order or out of range, phases that do not match the rest.
      let lists: [(String, JSONValue)] = [
        ("laps", [.integer(.max)]), ("laps", [.integer(.min)]), ("laps", [5, 3]),
        ("laps", [.integer(-1)]), ("tension", [["segmentIndex": -1, "amount": 1]]),
        ("tension", [["segmentIndex": 0, "amount": .integer(.max)]]),
        ("tension", [["segmentIndex": .integer(.max), "amount": 1]]),
        ("phase", "idle"), ("phase", "running"), ("phase", "paused"), ("phase", "finished"),
        ("finishReason", "stopped"), ("finishReason", nil), ("lastInstant", nil),
        ("workoutStart", nil),
      ]
      for (field, value) in lists {
        if let decoded = decode({ $0[field] = value.isNull ? nil : value }) {
          accepted += 1
          exercise(decoded)
        }
      }
      // Several fields at once.
      for _ in 0..<60 {
        let decoded = decode { edited in
          for _ in 0..<Int.random(in: 1...4, using: &random) {
            let field = Self.integerFields.randomElement(using: &random)!
            let value =
              Bool.random(using: &random)
              ? Self.extremes.randomElement(using: &random)!
              : Int64.random(in: -3_000_000_000...3_000_000_000_000, using: &random)
            edited[field] = .integer(value)
          }
        }
        if let decoded {
          accepted += 1
          exercise(decoded)
        }
      }
    }
    // The states the engine reached themselves, at least, were taken.
    #expect(accepted > 0)
  }

  @Test func aStateSavedUnderAnotherPlanIsRefusedOrRunsSafely() throws {
    // A state file whose plan was swapped: the state is checked against the plan it comes with.
    var refused = 0
    for (from, mode) in samplePlans.enumerated() {
      for reached in try reachedEngines(mode) {
        let state = try JSONValueEncoder().encode(reached)["state"]
        for (to, other) in samplePlans.enumerated() where to != from {
          let host = try engine(other, countIn: 3)
          guard case .object(var root) = try JSONValueEncoder().encode(host) else { continue }
          root["state"] = state
          guard
            let decoded = try? JSONValueDecoder().decode(WorkoutEngine.self, from: .object(root))
          else {
            refused += 1
            continue
          }
          #expect(host.timeline.segments.indices.contains(decoded.state.segmentIndex))
          exercise(decoded)
        }
      }
    }
    #expect(refused > 0)
  }

  @Test func theReasonForARefusedStateIsNamed() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(5))), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    _ = try clock.apply(.lap, at: at(10))
    _ = try clock.apply(.lap, at: at(20))
    let json = try JSONValueEncoder().encode(clock)
    func reason(_ edit: (inout JSONObject) -> Void) -> String? {
      guard case .object(var root) = json, case .object(var state)? = root["state"] else {
        return nil
      }
      edit(&state)
      root["state"] = .object(state)
      do {
        _ = try JSONValueDecoder().decode(WorkoutEngine.self, from: .object(root))
        return nil
      } catch let DecodingError.dataCorrupted(context) {
        return context.debugDescription
      } catch {
        return "\(error)"
      }
    }
    #expect(reason { _ in } == nil)
    #expect(reason { $0["origin"] = .integer(.min) } == "saved state: instant out of range")
    #expect(
      reason { $0["segmentIndex"] = -1 } == "saved state: position outside the timeline")
    #expect(reason { $0["cueCursor"] = 99 } == "saved state: position outside the timeline")
    #expect(
      reason { $0["laps"] = [20_000_000_000, 10_000_000_000] }
        == "saved state: laps out of order or out of range")
    #expect(
      reason { $0["laps"] = [10_000_000_000, 900_000_000_000] }
        == "saved state: laps out of order or out of range")
    #expect(
      reason { $0["tensionTotal"] = 5 } == "saved state: time under tension does not add up")
    #expect(
      reason { $0["phase"] = "idle" } == "saved state: an idle state holds a position")
    #expect(
      reason { $0["finishReason"] = "stopped" }
        == "saved state: finish reason does not match the phase")
  }

  @Test func aShiftThatWouldLeaveTheRangeIsAnError() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(5))), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    let shifted = try clock.shiftingInstants(by: .hours(-1))
    #expect(shifted.latestInstant == at(0) - .hours(1))
    #expect(shifted.snapshot(at: at(30) - .hours(1)) == clock.snapshot(at: at(30)))
    for offset in [Int64.max, .min, StateLimits.time] {
      #expect(throws: EngineStateError.self) {
        try clock.shiftingInstants(by: TimeSpan(nanoseconds: offset))
      }
    }
  }

  @Test func engineTimeIsWhatTheSnapshotCountsFrom() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(5))), countIn: 10)
    #expect(clock.engineTime(at: at(3)) == .zero)
    _ = try clock.apply(.start, at: at(2))
    #expect(clock.engineTime(at: at(14.5)) == seconds(12.5))
    // An instant before the latest given counts as that one.
    _ = clock.advance(to: at(20))
    #expect(clock.engineTime(at: at(15)) == seconds(18))
    _ = try clock.apply(.pause, at: at(21))
    #expect(clock.engineTime(at: at(500)) == seconds(19))
    _ = try clock.apply(.resume, at: at(30))
    #expect(clock.engineTime(at: at(31)) == seconds(20))
    // Past 64 bits (an instant no clock gives, an origin far back): saturated, not a trap.
    let farBack = try clock.shiftingInstants(by: TimeSpan(nanoseconds: -(1 << 60)))
    #expect(farBack.engineTime(at: EngineInstant(nanoseconds: .max)) == .saturated)
  }

  @Test(arguments: samplePlans.indices)
  func aStateFromOutsideIsTakenOnlyWhenTheEngineCanRunIt(_ index: Int) throws {
    var random = SeededGenerator(seed: 909 + UInt64(index))
    var clock = try engine(samplePlans[index], countIn: 5)
    let fresh = clock
    var now = 0.0
    for _ in 0..<60 {
      now += [0, 0.3, 2, 45].randomElement(using: &random)!
      _ = clock.advance(to: at(now))
      _ = try? clock.apply(WorkoutAction.allCases.randomElement(using: &random)!, at: at(now))
      // Every state the engine reaches is taken, and runs on as the engine's own.
      let restored = try fresh.restoring(clock.state)
      #expect(restored.state == clock.state)
      #expect(restored.snapshot(at: at(now + 7)) == clock.snapshot(at: at(now + 7)))
    }
    // A state that does not fit the plan is refused, not run.
    var damaged = try JSONValueEncoder().encode(clock.state).objectValue!
    damaged["segmentIndex"] = .integer(1_000_000)
    damaged["phase"] = "paused"
    let state = try JSONValueDecoder().decode(EngineState.self, from: .object(damaged))
    #expect(throws: EngineStateError.self) { try fresh.restoring(state) }
  }

  @Test func theLapTallyStopsAtItsBound() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(30))), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    for lap in 1...StateLimits.laps {
      _ = try clock.apply(.lap, at: at(Double(lap) * 0.01))
    }
    let refusal = #expect(throws: ActionRefusal.self) {
      try clock.apply(.lap, at: at(200))
    }
    #expect(refusal?.description == "cannot lap: the tally is full at 999 laps")
    #expect(clock.snapshot(at: at(200)).laps == StateLimits.laps)
    // A full tally is still a state that reads back.
    let restored = try JSONValueDecoder().decode(
      WorkoutEngine.self, from: JSONValueEncoder().encode(clock))
    #expect(restored.state == clock.state)
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

/// Engines of `mode` as the daemon saves them: idle, counting in, running after laps and
/// skips, paused, finished, and idle again after a reset.
private func reachedEngines(_ mode: WorkoutMode) throws -> [WorkoutEngine] {
  var clock = try engine(mode, countIn: 3)
  var reached = [clock]
  _ = try clock.apply(.start, at: at(0))
  reached.append(clock)
  _ = clock.advance(to: at(4))
  _ = try? clock.apply(.lap, at: at(4.5))
  _ = try? clock.apply(.next, at: at(5))
  _ = clock.advance(to: at(17))
  reached.append(clock)
  // Some plans are over by now (a `next` past For Time's only segment): those refuse these.
  _ = try? clock.apply(.pause, at: at(18))
  reached.append(clock)
  _ = try? clock.apply(.resume, at: at(20))
  _ = try? clock.apply(.finish, at: at(21))
  reached.append(clock)
  _ = try clock.apply(.reset, at: at(22))
  reached.append(clock)
  return reached
}

/// Drives a decoded engine as the daemon would: snapshots, deadlines, every action, time
/// passing, and a shift to another clock. A state that got through decoding must survive it all.
private func exercise(_ decoded: WorkoutEngine) {
  var clock = decoded
  var now = clock.latestInstant ?? EngineInstant(nanoseconds: 0)
  for action in WorkoutAction.allCases + WorkoutAction.allCases {
    now = now + .milliseconds(1_700)
    _ = clock.snapshot(at: now)
    _ = clock.advance(to: now)
    _ = try? clock.apply(action, at: now)
    if let deadline = clock.nextDeadline {
      _ = clock.advance(to: deadline)
      _ = clock.snapshot(at: deadline)
    }
  }
  for offset in [Int64.max, .min, StateLimits.time, -StateLimits.time, 1] {
    if let shifted = try? decoded.shiftingInstants(by: TimeSpan(nanoseconds: offset)) {
      _ = shifted.snapshot(at: shifted.latestInstant ?? EngineInstant(nanoseconds: 0))
      _ = shifted.nextDeadline
    }
  }
}
