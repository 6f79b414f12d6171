// SPDX-License-Identifier: MIT
// Any plan a caller can build compiles or is refused with a plan error; nothing traps.

import Testing
import WodclockTestSupport
import WorkoutCore

/// Builds plans from values at and past every limit, a seeded generator choosing.
struct PlanFuzzer {
  var random: SeededGenerator

  static let counts = [Int.min, -1, 0, 1, 2, 7, 99, 100, 999, 1000, 9999, Int.max]
  static let lengths: [Int64] = [
    .min, -1, 0, 1, 500_000_000, 1_000_000_000, 20_000_000_000, 3_600_000_000_000,
    86_400_000_000_000, 90_000_000_000_000, .max / 1000, .max,
  ]

  mutating func count() -> Int { Self.counts.randomElement(using: &random)! }
  mutating func length() -> TimeSpan {
    TimeSpan(nanoseconds: Self.lengths.randomElement(using: &random)!)
  }
  mutating func flag() -> Bool { Bool.random(using: &random) }

  mutating func step(depth: Int) -> SequenceStep {
    var step = SequenceStep(
      name: "s", duration: flag() ? length() : nil, repetitions: count(), loop: flag(),
      skippable: flag(), reps: flag() ? count() : nil)
    if depth < 10 && Int.random(in: 0..<3, using: &random) > 0 {
      step.steps = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        self.step(depth: depth + 1)
      }
      if !flag() { step.duration = nil }
    }
    return step
  }

  mutating func mode() -> WorkoutMode {
    switch Int.random(in: 0..<8, using: &random) {
    case 0: return .forTime(ForTimeParameters(cap: flag() ? length() : nil, rounds: count()))
    case 1: return .amrap(AMRAPParameters(time: length()))
    case 2:
      return .emom(
        EMOMParameters(
          interval: length(), rounds: count(), labels: flag() ? ["a", "b"] : [],
          ladder: flag() ? Ladder(start: count(), step: count()) : nil))
    case 3, 4:
      let parameters = IntervalParameters(
        work: length(), rest: length(), rounds: count(), sets: count(), setRest: length(),
        skipLastRest: flag(), labels: flag() ? ["x"] : [])
      return flag() ? .intervals(parameters) : .tabata(parameters)
    case 5:
      let tempo = Tempo(
        eccentric: count(), bottomPause: count(), concentric: count(), topPause: count())
      return .tempo(
        TempoParameters(
          tempo: tempo, reps: count(), sets: count(), setRest: length(),
          startPhase: flag() ? .eccentric : .concentric, unilateral: flag(),
          switchPause: length(), reverseDirection: flag()))
    case 6: return .clock(ClockFace())
    default:
      return .sequence(
        SequenceParameters(
          steps: (0..<Int.random(in: 0...3, using: &random)).map { _ in step(depth: 1) }))
    }
  }

  mutating func plan() -> WorkoutPlan {
    WorkoutPlan(name: "fuzz", mode: mode(), countIn: length())
  }
}

@Suite("Plan limits")
struct PlanLimitTests {
  @Test("any plan compiles within the length limit or is refused; nothing traps")
  func noPlanTraps() {
    var fuzzer = PlanFuzzer(random: SeededGenerator(seed: 0x51A7_0F_1E))
    var compiled = 0
    var refused = 0
    for _ in 0..<3000 {
      let plan = fuzzer.plan()
      _ = plan.timedLength
      do {
        let timeline = try plan.compile()
        compiled += 1
        #expect(plan.timedLength <= PlanLimits.workoutLength)
        if let total = timeline.totalLength {
          #expect(total == plan.timedLength)
        }
      } catch {
        refused += 1
        #expect(!error.errors.isEmpty)
        // The messages print the offending values, the smallest and largest ones too.
        #expect(!error.description.isEmpty)
      }
    }
    #expect(compiled > 100)
    #expect(refused > 1000)
  }

  @Test("the length limit counts the count-in and every segment, once")
  func lengthLimit() throws {
    func intervals(countIn: TimeSpan) -> WorkoutPlan {
      WorkoutPlan(
        name: "two-days",
        mode: .intervals(IntervalParameters(work: .hours(24), rest: .zero, rounds: 2)),
        countIn: countIn)
    }
    #expect(try intervals(countIn: .zero).compile().totalLength == PlanLimits.workoutLength)
    #expect(throws: PlanErrors.self) { try intervals(countIn: .seconds(1)).compile() }
    let problem = try #require(intervals(countIn: .seconds(1)).validationErrors().first)
    #expect(problem.parameter == "")
    #expect(
      problem.description
        == "would last about 48 hours, longer than the 48 hours a workout may last; use fewer "
        + "rounds, sets or repetitions, or shorter intervals")
  }

  @Test("a sequence 999 repetitions deep seven times is refused, not wrapped around")
  func deepRepetitions() {
    // 999^7 segments: more than Int holds, which a wrapping count read as a small number.
    var step = SequenceStep(name: "leaf", duration: .seconds(1), repetitions: 999)
    for _ in 1..<7 { step = SequenceStep(name: "level", repetitions: 999, steps: [step]) }
    let loop = SequenceStep(
      name: "loop", duration: .hours(1), repetitions: 999, steps: [step], loop: true)
    for steps in [[step], [loop]] {
      let plan = WorkoutPlan(name: "deep", mode: .sequence(SequenceParameters(steps: steps)))
      #expect(
        plan.validationErrors().map(\.message).contains {
          $0.hasPrefix("expands to more than 100000 segments")
        })
    }
  }

  @Test("a time span prints at the very ends of its range")
  func extremeDescriptions() {
    #expect(TimeSpan(nanoseconds: .min).description == "-2562047:47:16.854775808")
    #expect(TimeSpan(nanoseconds: .max).description == "2562047:47:16.854775807")
  }

  @Test("a Duration converts exactly, or not at all when it does not fit")
  func durationConversion() {
    #expect(TimeSpan(exactly: .seconds(90)) == .seconds(90))
    #expect(TimeSpan(exactly: .milliseconds(1500)) == .milliseconds(1500))
    #expect(TimeSpan(exactly: .seconds(9_223_372_036)) != nil)
    #expect(TimeSpan(exactly: .seconds(9_223_372_037)) == nil)
    #expect(TimeSpan(exactly: .seconds(3600 * 999_999_999)) == nil)
  }
}
