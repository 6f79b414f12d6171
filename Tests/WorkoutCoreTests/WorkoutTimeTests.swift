// SPDX-License-Identifier: MIT
// The workout's time at an instant earlier than the latest the engine was given: a lane's
// button pressed before the loop got round to it is timed at its press, and an instant outside
// the run (the count-in, a pause, after the finish) has no workout time.

import Testing
import WodclockTestSupport

@testable import WorkoutCore

@Suite struct WorkoutTimeTests {
  @Test func anEarlierInstantIsPlacedExactlyWhileTheWorkoutRuns() throws {
    var clock = try engine(.forTime(ForTimeParameters(cap: .minutes(10))), countIn: 10)
    #expect(clock.workoutTime(at: at(0)) == nil)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(5))
    // The count-in is not the workout.
    #expect(clock.workoutTime(at: at(4)) == nil)
    #expect(clock.workoutTime(at: at(5)) == nil)
    _ = clock.advance(to: at(40))
    #expect(clock.workoutTime(at: at(32.5)) == seconds(22.5))
    #expect(clock.workoutTime(at: at(10.000_000_001)) == TimeSpan(nanoseconds: 1))
    #expect(clock.workoutTime(at: at(10)) == .zero)
    #expect(clock.workoutTime(at: at(9.999)) == nil)
    #expect(clock.workoutTime(at: at(40)) == seconds(30))
    // The same as the snapshot's elapsed time at the latest instant.
    #expect(clock.workoutTime(at: at(40)) == clock.snapshot(at: at(40)).elapsed)
  }

  @Test func aPauseHasNoWorkoutTimeAndAResumeStartsANewRun() throws {
    var clock = try engine(.forTime(ForTimeParameters(cap: .minutes(10))), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(50))
    _ = try clock.apply(.pause, at: at(50))
    _ = clock.advance(to: at(58))
    // Before the pause: placed; in it: none.
    #expect(clock.workoutTime(at: at(45)) == seconds(35))
    #expect(clock.workoutTime(at: at(50)) == seconds(40))
    #expect(clock.workoutTime(at: at(55)) == nil)
    _ = try clock.apply(.resume, at: at(60))
    _ = clock.advance(to: at(70))
    // Ten seconds paused: the workout's time runs on from 40 s.
    #expect(clock.workoutTime(at: at(65)) == seconds(45))
    #expect(clock.workoutTime(at: at(60)) == seconds(40))
    // An instant in the pause, asked for after the resume, still has none.
    #expect(clock.workoutTime(at: at(55)) == nil)
    #expect(clock.workoutTime(at: at(59.5)) == nil)
  }

  @Test func afterTheFinishOnlyInstantsBeforeTheFreezeHaveATime() throws {
    var clock = try engine(.forTime(ForTimeParameters(cap: .minutes(10))), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(90))
    _ = try clock.apply(.finish, at: at(100))
    _ = clock.advance(to: at(120))
    #expect(clock.snapshot(at: at(120)).runState == .finished)
    #expect(clock.workoutTime(at: at(95)) == seconds(85))
    #expect(clock.workoutTime(at: at(100)) == seconds(90))
    #expect(clock.workoutTime(at: at(100.5)) == nil)
    #expect(clock.workoutTime(at: at(120)) == nil)
  }

  @Test func theCapFreezesTheTime() throws {
    var clock = try engine(.forTime(ForTimeParameters(cap: .minutes(1))), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(75))
    #expect(clock.snapshot(at: at(75)).runState == .finished)
    #expect(clock.workoutTime(at: at(59)) == seconds(59))
    #expect(clock.workoutTime(at: at(60)) == seconds(60))
    #expect(clock.workoutTime(at: at(61)) == nil)
  }

  @Test func deadlinesPassedSinceTheLastAdvanceCountAsTheyWill() throws {
    var clock = try engine(.forTime(ForTimeParameters(cap: .minutes(1))), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(9))
    // The count-in ended at 10 s; the engine was not advanced past it.
    #expect(clock.workoutTime(at: at(12.25)) == seconds(2.25))
    #expect(clock.workoutTime(at: at(9.5)) == nil)
    #expect(clock.workoutTime(at: at(12.25)) == clock.snapshot(at: at(12.25)).elapsed)
    _ = clock.advance(to: at(69))
    // The cap at 70 s passed since the last advance: after it there is no workout time.
    #expect(clock.workoutTime(at: at(69.5)) == seconds(59.5))
    #expect(clock.workoutTime(at: at(70)) == seconds(60))
    #expect(clock.workoutTime(at: at(70.25)) == nil)
    #expect(clock.snapshot(at: at(70.25)).runState == .finished)
  }

  @Test func idleHasNoWorkoutTime() throws {
    var clock = try engine(.forTime(ForTimeParameters()), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    _ = clock.advance(to: at(30))
    _ = try clock.apply(.reset, at: at(30))
    #expect(clock.workoutTime(at: at(20)) == nil)
    #expect(clock.workoutTime(at: at(30)) == nil)
  }
}
