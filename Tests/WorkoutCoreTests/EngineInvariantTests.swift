// SPDX-License-Identifier: MIT
// Properties that must hold for every plan, every action sequence and every calling pattern.

import Testing
import WodclockTestSupport

@testable import WorkoutCore

let samplePlans: [WorkoutMode] = [
  .forTime(ForTimeParameters()),
  .forTime(ForTimeParameters(cap: .minutes(3), rounds: 5)),
  .amrap(AMRAPParameters(time: .minutes(2))),
  .emom(EMOMParameters(interval: .seconds(30), rounds: 5, labels: ["a", "b"])),
  .intervals(
    IntervalParameters(
      work: .seconds(20), rest: .seconds(7), rounds: 3, sets: 2, setRest: .seconds(30))),
  .tabata(.tabata),
  .tempo(
    TempoParameters(
      tempo: Tempo(halfSeconds: [7, 1, 0, 3]), reps: 3, sets: 2, setRest: .seconds(20),
      unilateral: true, switchPause: .seconds(4))),
  .sequence(
    SequenceParameters(steps: [
      SequenceStep(name: "warm-up", duration: .seconds(45)),
      SequenceStep(name: "open"),
      SequenceStep(
        name: "loop", duration: .seconds(50),
        steps: [
          SequenceStep(name: "on", duration: .seconds(15)),
          SequenceStep(name: "off", kind: .rest, duration: .seconds(5)),
        ], loop: true),
      SequenceStep(name: "fixed", duration: .seconds(10), skippable: false),
    ])),
]

@Suite struct EngineInvariantTests {
  @Test(arguments: samplePlans.indices)
  func segmentLengthsSumToTheTotal(_ index: Int) throws {
    let clock = try engine(samplePlans[index], countIn: 10)
    let lengths = clock.timeline.segments.map(\.duration)
    if lengths.allSatisfy({ $0 != nil }) {
      let sum = lengths.reduce(TimeSpan.zero) { $0 + $1! }
      #expect(sum == clock.timeline.totalLength)
      #expect(sum == .seconds(10) + clock.timeline.workoutLength!)
    } else {
      #expect(clock.timeline.workoutLength == nil)
    }
  }

  @Test(arguments: samplePlans.indices)
  func randomActionSequencesKeepEveryInvariant(_ index: Int) throws {
    var random = SeededGenerator(seed: 0x5EED_0000 + UInt64(index))
    let actions = WorkoutAction.allCases
    for _ in 0..<150 {
      var clock = try engine(samplePlans[index], countIn: Int64.random(in: 0...12, using: &random))
      var now: Int64 = origin
      var seen = Set<String>()
      var lastCueInstant = Int64.min
      var previousRemaining: Int64?
      for _ in 0..<60 {
        now += Int64.random(in: 0...(4 * TimeSpan.nanosecondsPerSecond), using: &random)
        let instant = EngineInstant(nanoseconds: now)
        var cues: [Cue]
        var acted: WorkoutAction?
        if Bool.random(using: &random) {
          let action = actions.randomElement(using: &random)!
          let before = clock.snapshot(at: instant)
          do {
            cues = try clock.apply(action, at: instant)
            acted = action
          } catch {
            cues = clock.advance(to: instant)
          }
          if acted == .resume || acted == .pause {
            // Pause and resume keep the remaining time to the nanosecond.
            #expect(clock.snapshot(at: instant).remaining == before.remaining)
            #expect(clock.snapshot(at: instant).segmentRemaining == before.segmentRemaining)
          }
        } else {
          cues = clock.advance(to: instant)
        }
        for cue in cues {
          let key = "\(cue.pass)/\(cue.segmentIndex)/\(cue.kind)/\(cue.instant.nanoseconds)"
          #expect(!seen.contains(key), "cue fired twice: \(key)")
          seen.insert(key)
          #expect(cue.instant.nanoseconds >= lastCueInstant, "cues out of order")
          #expect(cue.instant.nanoseconds <= now, "cue fired before its instant")
          lastCueInstant = cue.instant.nanoseconds
        }
        let snapshot = clock.snapshot(at: instant)
        if let remaining = snapshot.remaining { #expect(remaining >= .zero) }
        if let remaining = snapshot.segmentRemaining { #expect(remaining >= .zero) }
        #expect(snapshot.elapsed >= .zero)
        // The digits are the exact figure behind them, rounded the way they run: a display
        // that draws between snapshots from that figure shows what the engine shows.
        if let display = snapshot.display, let span = snapshot.displayedSpan {
          #expect(
            display.seconds
              == (display.direction == .down ? span.ceiledSeconds : span.flooredSeconds))
        } else {
          #expect(snapshot.display == nil && snapshot.displayedSpan == nil)
        }
        if let tempo = snapshot.tempo {
          #expect(
            tempo.trackPosition
              == TempoSnapshot.trackPosition(
                in: tempo.phase, progress: tempo.phaseProgress,
                reverseDirection: tempo.reverseDirection))
        }
        // The displayed count-down of the workout never goes up while it runs undisturbed.
        let shown = snapshot.remaining?.ceiledSeconds
        if acted == nil || acted == .pause || acted == .resume || acted == .lap,
          snapshot.runState == .running, let shown, let previousRemaining
        {
          #expect(shown <= previousRemaining)
        }
        previousRemaining = snapshot.runState == .running ? shown : nil
        if let deadline = clock.nextDeadline { #expect(deadline.nanoseconds > now) }
      }
    }
  }

  @Test(arguments: samplePlans.indices)
  func nothingChangesBeforeTheNextDeadline(_ index: Int) throws {
    var clock = try engine(samplePlans[index], countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    var wakeUps = 0
    while let deadline = clock.nextDeadline, wakeUps < 2_000 {
      let now = clock.state.lastInstant!
      let before = clock.snapshot(at: EngineInstant(nanoseconds: now))
      let justBefore = EngineInstant(nanoseconds: deadline.nanoseconds - 1)
      let mid = EngineInstant(nanoseconds: (now + deadline.nanoseconds) / 2)
      #expect(clock.snapshot(at: mid).display == before.display)
      #expect(clock.snapshot(at: justBefore).display == before.display)
      #expect(clock.snapshot(at: justBefore).segmentIndex == before.segmentIndex)
      var probe = clock
      #expect(probe.advance(to: justBefore).isEmpty)
      _ = clock.advance(to: deadline)
      wakeUps += 1
      if clock.snapshot(at: deadline).label == "open" { _ = try clock.apply(.next, at: deadline) }
    }
    #expect(wakeUps > 10)
  }

  @Test func twentyFourHoursOfIrregularStepsDoNotDrift() throws {
    var random = SeededGenerator(seed: 24)
    var clock = try engine(.forTime(ForTimeParameters()), countIn: 0)
    var now: Int64 = origin
    _ = try clock.apply(.start, at: EngineInstant(nanoseconds: now))
    let day = 24 * 3600 * TimeSpan.nanosecondsPerSecond
    var paused: Int64 = 0
    var pausedSince: Int64?
    while now - origin < day {
      now += Int64.random(in: 1_000_000...5_000_000_000, using: &random)
      now = min(now, origin + day)
      let instant = EngineInstant(nanoseconds: now)
      if Int.random(in: 0..<2_000, using: &random) == 0 {
        if let since = pausedSince {
          _ = try clock.apply(.resume, at: instant)
          paused += now - since
          pausedSince = nil
        } else {
          _ = try clock.apply(.pause, at: instant)
          pausedSince = now
        }
      } else {
        _ = clock.advance(to: instant)
      }
    }
    if let since = pausedSince { paused += now - since }
    let final = clock.snapshot(at: EngineInstant(nanoseconds: now))
    #expect(paused > 0)
    #expect(final.elapsed.nanoseconds == day - paused)
  }

  @Test func aDayOfEMOMEndsExactlyOnTime() throws {
    var random = SeededGenerator(seed: 864)
    // 864 rounds of 100 s: exactly a day.
    var clock = try engine(.emom(EMOMParameters(interval: .seconds(100), rounds: 864)), countIn: 10)
    var now: Int64 = origin
    var cues = try clock.apply(.start, at: EngineInstant(nanoseconds: now))
    while clock.state.phase != .finished {
      now += Int64.random(in: 1_000_000...5_000_000_000, using: &random)
      cues += clock.advance(to: EngineInstant(nanoseconds: now))
    }
    let finish = cues.last!
    #expect(finish.kind == .finish)
    #expect(finish.instant == at(10 + 86_400))
    #expect(cues.filter { if case .roundStart = $0.kind { true } else { false } }.count == 864)
  }

  @Test func aLateWakeUpDeliversTheMissedCuesOnceInOrder() throws {
    var clock = try WorkoutEngine(
      plan: WorkoutPlan(name: "t", mode: .emom(EMOMParameters(rounds: 3)), countIn: .seconds(10)),
      staleCueLimit: .seconds(10))
    _ = try clock.apply(.start, at: at(0))
    #expect(clock.advance(to: at(6)).isEmpty)
    // The daemon oversleeps by five seconds, across the 3-2-1 and the start.
    let cues = clock.advance(to: at(11))
    #expect(
      describe(cues) == [
        "7.0 countdown(3,count_in)", "8.0 countdown(2,count_in)", "9.0 countdown(1,count_in)",
        "10.0 start", "10.0 round(1/3)", "10.0 segment(work)",
      ])
    #expect(clock.advance(to: at(11)).isEmpty)
    #expect(clock.state.droppedCues == 0)
  }

  @Test func staleCuesAfterALongGapAreDroppedNotBurst() throws {
    var clock = try WorkoutEngine(
      plan: WorkoutPlan(name: "t", mode: .emom(EMOMParameters(rounds: 3)), countIn: .seconds(10)),
      staleCueLimit: .seconds(10))
    _ = try clock.apply(.start, at: at(0))
    let cues = clock.advance(to: at(136))
    // Only cues due in the last ten seconds (126 s and later) are delivered.
    #expect(
      describe(cues) == [
        "127.0 countdown(3,work)", "128.0 countdown(2,work)", "129.0 countdown(1,work)",
        "130.0 round(3/3)", "130.0 segment(work)",
      ])
    #expect(clock.state.droppedCues > 0)
  }

  // A stall (SIGSTOP, a suspended machine, a long scheduling gap) on manual time. The default
  // rule: a cue more than a second late is stale and dropped; only what announces the present
  // moment still sounds, once, when the engine gets to it.

  /// Tabata with a 10 s count-in: work 10–30 s, rest 30–40 s, work 40–60 s, ...
  private func tabataStartedAtZero() throws -> WorkoutEngine {
    var clock = try engine(.tabata(.tabata), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    try stepOnTime(&clock, until: 25)
    return clock
  }

  /// Advances in small steps up to `seconds`, as a daemon on time does, dropping nothing.
  private func stepOnTime(_ clock: inout WorkoutEngine, until seconds: Double) throws {
    for tenth in 1...Int(seconds * 10) { _ = clock.advance(to: at(Double(tenth) / 10)) }
    #expect(clock.state.droppedCues == 0)
  }

  @Test func aNineSecondStallDropsTheCountdownItSleptThrough() throws {
    var clock = try tabataStartedAtZero()
    // Stopped at 25 s, running again at 34 s: the work's 3-2-1 at 27-29 s is long over; the
    // rest that began at 30 s is what the room is in now.
    #expect(describe(clock.advance(to: at(34))) == ["34.0 segment(rest)"])
    #expect(clock.state.droppedCues == 3)
    #expect(clock.advance(to: at(37)).map(\.kind) == [.countdown(secondsLeft: 3, ending: .rest)])
  }

  @Test func aStallAcrossWholeIntervalsAnnouncesOnlyTheOneRunningNow() throws {
    var clock = try tabataStartedAtZero()
    // 25 s to 105 s: five intervals and their 3-2-1s passed; round 4's work began at 100 s.
    #expect(
      describe(clock.advance(to: at(105))) == [
        "105.0 round(4/8)", "105.0 remaining(5)", "105.0 segment(work)",
      ])
    #expect(clock.state.droppedCues > 12)
  }

  @Test func aStaleStartSoundsWithTheFirstFreshCueOfItsSegment() throws {
    var clock = try tabataStartedAtZero()
    // Back at 37.5 s: the rest's start (30 s) is stale, its countdown(3) at 37 s is not.
    #expect(
      describe(clock.advance(to: at(37.5))) == ["37.0 segment(rest)", "37.0 countdown(3,rest)"])
  }

  @Test func aCueExactlyAtTheLimitIsStillOnTime() throws {
    var clock = try tabataStartedAtZero()
    #expect(
      describe(clock.advance(to: at(28))) == ["27.0 countdown(3,work)", "28.0 countdown(2,work)"])
    #expect(clock.state.droppedCues == 0)
  }

  @Test func aWorkoutThatEndedDuringTheStallSoundsOnlyItsFinish() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(1))), countIn: 0)
    _ = try clock.apply(.start, at: at(0))
    try stepOnTime(&clock, until: 40)
    // Away from 40 s to 75 s: the last ten seconds, the 3-2-1 and the end at 60 s went by.
    #expect(describe(clock.advance(to: at(75))) == ["75.0 finish"])
    #expect(clock.snapshot(at: at(75)).runState == .finished)
    #expect(clock.state.droppedCues == 4)
  }

  @Test func actionsThatDoNotApplyAreRefusedWithAReason() throws {
    var clock = try engine(.amrap(AMRAPParameters(time: .minutes(1))))
    #expect(throws: ActionRefusal(.pause, "the workout is not started")) {
      _ = try clock.apply(.pause, at: at(0))
    }
    #expect(throws: ActionRefusal(.reset, "nothing has started")) {
      _ = try clock.apply(.reset, at: at(0))
    }
    _ = try clock.apply(.start, at: at(0))
    #expect(throws: ActionRefusal(.start, "it is already running")) {
      _ = try clock.apply(.start, at: at(1))
    }
    #expect(throws: ActionRefusal(.resume, "the workout is running")) {
      _ = try clock.apply(.resume, at: at(1))
    }
    _ = try clock.apply(.toggle, at: at(2))
    #expect(clock.snapshot(at: at(3)).runState == .paused)
    _ = try clock.apply(.toggle, at: at(4))
    #expect(clock.snapshot(at: at(5)).elapsed == .seconds(3))
    _ = try clock.apply(.reset, at: at(6))
    #expect(clock.snapshot(at: at(7)).runState == .idle)
  }

  @Test func nextAndPreviousMoveThroughSegments() throws {
    var clock = try engine(.emom(EMOMParameters(rounds: 3)), countIn: 10)
    _ = try clock.apply(.start, at: at(0))
    let skipCountIn = try clock.apply(.next, at: at(2))
    #expect(describe(skipCountIn) == ["2.0 start", "2.0 round(1/3)", "2.0 segment(work)"])
    _ = try clock.apply(.next, at: at(20))
    #expect(clock.snapshot(at: at(20)).round == Counter(2, of: 3))
    _ = try clock.apply(.previous, at: at(30))
    let back = clock.snapshot(at: at(30))
    #expect(back.round == Counter(1, of: 3))
    #expect(back.display == DisplayTime(seconds: 60, direction: .down))
    #expect(back.elapsed == .seconds(28))
  }
}
