// SPDX-License-Identifier: MIT
// A leader's start with a lead, on its own: which actions wait, call the start off or pass
// through, the exact instant it takes effect, and when the loop wakes for it.

import Testing
import WorkoutCore

@testable import WodclockDaemon

private let asked = EngineInstant(nanoseconds: 40_000_000_000)
private let lead = TimeSpan.seconds(1)

@Suite struct PendingStartTests {
  @Test func aStartOfAnIdleWorkoutWaitsTheLeadAndIsDueAtThatInstantOnce() {
    var start = PendingStart()
    let decision = start.decide(.start, phase: .idle, at: asked, lead: lead, speed: 1)
    let at = EngineInstant(nanoseconds: 41_000_000_000)
    #expect(decision == .scheduled(at))
    #expect(start.instant == at)
    #expect(start.due(by: EngineInstant(nanoseconds: 40_999_999_999)) == nil)
    #expect(start.instant == at)
    // A turn that notices it late still starts at the start's own instant.
    #expect(start.due(by: EngineInstant(nanoseconds: 41_250_000_000)) == at)
    #expect(start.instant == nil)
    #expect(start.due(by: EngineInstant(nanoseconds: 42_000_000_000)) == nil)
  }

  @Test func theLeadIsSpeedTimesAsLongOnTheEngineTime() {
    var start = PendingStart()
    #expect(
      start.decide(.start, phase: .idle, at: asked, lead: lead, speed: 60)
        == .scheduled(EngineInstant(nanoseconds: 100_000_000_000)))
  }

  @Test func aToggleStartsOnlyAnIdleOrFinishedWorkout() {
    for phase in [EngineState.Phase.idle, .finished] {
      var start = PendingStart()
      #expect(
        start.decide(.toggle, phase: phase, at: asked, lead: lead, speed: 1)
          == .scheduled(EngineInstant(nanoseconds: 41_000_000_000)))
    }
    for phase in [EngineState.Phase.running, .paused] {
      for action in [WorkoutAction.toggle, .start] {
        var start = PendingStart()
        #expect(
          start.decide(action, phase: phase, at: asked, lead: lead, speed: 1) == .passedThrough)
        #expect(start.instant == nil)
      }
    }
  }

  @Test func aToggleAResetOrAPauseCallsAWaitingStartOff() {
    for action in [WorkoutAction.toggle, .reset, .pause] {
      var start = PendingStart()
      _ = start.decide(.start, phase: .idle, at: asked, lead: lead, speed: 1)
      let later = EngineInstant(nanoseconds: 40_500_000_000)
      #expect(start.decide(action, phase: .idle, at: later, lead: lead, speed: 1) == .calledOff)
      #expect(start.instant == nil)
      #expect(start.due(by: EngineInstant(nanoseconds: 41_000_000_000)) == nil)
      #expect(start.wakeUp(on: TimeBase(origin: 0, speed: 1)) == nil)
    }
  }

  @Test func otherActionsAndAnotherStartLeaveAWaitingStartWhereItIs() {
    let at = EngineInstant(nanoseconds: 41_000_000_000)
    let later = EngineInstant(nanoseconds: 40_500_000_000)
    var twice = PendingStart()
    _ = twice.decide(.start, phase: .idle, at: asked, lead: lead, speed: 1)
    #expect(
      twice.decide(.start, phase: .idle, at: later, lead: lead, speed: 1) == .alreadyWaiting(at))
    #expect(twice.instant == at)
    for action in [WorkoutAction.resume, .finish, .next, .previous, .lap] {
      var start = PendingStart()
      _ = start.decide(.start, phase: .idle, at: asked, lead: lead, speed: 1)
      #expect(start.decide(action, phase: .idle, at: later, lead: lead, speed: 1) == .passedThrough)
      #expect(start.instant == at)
    }
  }

  @Test func actionsThatStartNothingPassThroughWhenNoStartWaits() {
    for action in [WorkoutAction.pause, .resume, .reset, .finish, .next, .previous, .lap] {
      var start = PendingStart()
      #expect(start.decide(action, phase: .idle, at: asked, lead: lead, speed: 1) == .passedThrough)
      #expect(start.instant == nil)
    }
  }

  @Test func aLeadThatDoesNotFitTheEngineTimePassesTheStartThrough() {
    var start = PendingStart()
    let decision = start.decide(.start, phase: .idle, at: asked, lead: lead, speed: .max / 2)
    #expect(decision == .passedThrough)
    #expect(start.instant == nil)
  }

  @Test func aFollowersStartIsTheLeadersInstantAndAClearForgetsIt() {
    let told = EngineInstant(nanoseconds: 41_000_000_000)
    var start = PendingStart(at: told)
    #expect(start.instant == told)
    start.clear()
    #expect(start.instant == nil)
    #expect(start.due(by: told) == nil)
  }

  @Test func theLoopWakesAtTheFirstMonotonicInstantTheEngineReachesTheStart() {
    let base = TimeBase(origin: 1_000, speed: 3)
    // 10 engine nanoseconds past the origin are 3⅓ monotonic ones: the loop wakes at the 4th.
    let start = PendingStart(at: EngineInstant(nanoseconds: 1_010))
    #expect(start.wakeUp(on: base) == 1_004)
    #expect(PendingStart(at: EngineInstant(nanoseconds: 1_009)).wakeUp(on: base) == 1_003)
    #expect(PendingStart().wakeUp(on: base) == nil)
  }
}
