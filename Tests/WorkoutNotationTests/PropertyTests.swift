// SPDX-License-Identifier: MIT
// Properties of the notation on generated inputs: writing a plan and reading it back gives the
// plan, and no input makes the parser trap or run away.

import Testing
import WodclockTestSupport
import WorkoutCore
import WorkoutNotation

@Suite("Notation properties")
struct PropertyTests {
  /// A random plan in the space the notation can express.
  static func randomPlan(_ random: inout SeededGenerator) -> WorkoutPlan {
    func seconds(_ range: ClosedRange<Int64>) -> TimeSpan {
      .seconds(Int64.random(in: range, using: &random))
    }
    let captions = ["burpees", "Power Clean", "row 500 m", "wall balls", "DU"]
    let label: String? = Bool.random(using: &random) ? captions.randomElement(using: &random) : nil
    let mode: WorkoutMode
    var planLabel = label
    switch Int.random(in: 0..<7, using: &random) {
    case 0:
      mode = .amrap(AMRAPParameters(time: seconds(1...7200)))
    case 1:
      let scheme = (0..<Int.random(in: 2...6, using: &random)).map { _ in
        Int.random(in: 1...50, using: &random)
      }
      mode = .forTime(
        ForTimeParameters(
          cap: Bool.random(using: &random) ? seconds(60...3600) : nil,
          rounds: Bool.random(using: &random) ? scheme.count : nil,
          repScheme: nil))
      if case .forTime(var parameters) = mode, Bool.random(using: &random) {
        parameters.rounds = scheme.count
        parameters.repScheme = scheme
        return WorkoutPlan(
          name: "", label: planLabel, mode: .forTime(parameters), countIn: seconds(0...99))
      }
    case 2:
      var parameters = EMOMParameters(
        interval: Bool.random(using: &random) ? .seconds(60) : seconds(5...600),
        rounds: Int.random(in: 1...60, using: &random))
      if Bool.random(using: &random) {
        parameters.labels = Array(
          captions.shuffled(using: &random).prefix(Int.random(in: 2...4, using: &random)))
        planLabel = nil
      }
      if Int.random(in: 0..<4, using: &random) == 0 {
        parameters.interval = .seconds(60)
        parameters.ladder = Ladder()
      }
      mode = .emom(parameters)
    case 3, 4:
      var parameters = IntervalParameters(
        work: seconds(1...300), rest: seconds(0...120),
        rounds: Int.random(in: 1...20, using: &random),
        sets: Int.random(in: 1...4, using: &random),
        setRest: Bool.random(using: &random) ? seconds(1...180) : .zero,
        skipLastRest: Bool.random(using: &random))
      if Bool.random(using: &random) {
        parameters.labels = Array(
          captions.shuffled(using: &random).prefix(Int.random(in: 2...3, using: &random)))
        planLabel = nil
      }
      mode = Bool.random(using: &random) ? .intervals(parameters) : .tabata(parameters)
    case 5:
      let tempo = Tempo(halfSeconds: (0..<4).map { _ in Int.random(in: 0...18, using: &random) })
      mode = .tempo(
        TempoParameters(
          tempo: tempo, reps: Int.random(in: 1...12, using: &random),
          sets: Int.random(in: 1...6, using: &random),
          setRest: seconds(0...300),
          startPhase: Bool.random(using: &random) ? .concentric : .eccentric,
          unilateral: Bool.random(using: &random),
          reverseDirection: Bool.random(using: &random)))
    default:
      // A chain of written parts.
      let parts = [
        "warm-up 8:00", "amrap 12", "rest 3:00", "emom 6", "tabata", "for time cap 10",
        "cool-down 5:00", "8 x 20/10",
      ]
      let text = (0..<Int.random(in: 2...4, using: &random)).map { _ in
        parts.randomElement(using: &random)!
      }
      .joined(separator: " + ")
      var plan = try! WorkoutNotation.parse(text).get()
      plan.countIn = seconds(0...99)
      return plan
    }
    return WorkoutPlan(name: "", label: planLabel, mode: mode, countIn: seconds(0...99))
  }

  @Test("parse(write(plan)) gives the plan back")
  func roundTrip() throws {
    var random = SeededGenerator(seed: 14)
    for _ in 0..<3000 {
      let plan = Self.randomPlan(&random)
      guard plan.validationErrors().isEmpty else { continue }
      let text = try #require(WorkoutNotation.write(plan), "no notation for \(plan.mode)")
      let read = try WorkoutNotation.parse(text).get()
      #expect(read.mode == plan.mode, "\(text)")
      #expect(read.countIn == plan.countIn, "\(text)")
      #expect(read.label == plan.label, "\(text)")
      #expect(read.notation == text)
    }
  }

  @Test("a clock and a plan the notation cannot express have no notation")
  func inexpressible() {
    #expect(WorkoutNotation.write(WorkoutPlan(name: "c", mode: .clock(ClockFace()))) == nil)
    // The notation has no word for a side switch of other than 5 s.
    var tempo = TempoParameters(tempo: Tempo(halfSeconds: [6, 0, 2, 0]), reps: 5)
    tempo.unilateral = true
    tempo.switchPause = .seconds(8)
    #expect(WorkoutNotation.write(WorkoutPlan(name: "t", mode: .tempo(tempo))) == nil)
    // It has them for a start on the lift and a reversed lift.
    tempo.switchPause = .seconds(5)
    tempo.startPhase = .concentric
    tempo.reverseDirection = true
    #expect(
      WorkoutNotation.write(WorkoutPlan(name: "t", mode: .tempo(tempo)))
        == "tempo 3010 5 x 1 rest 1:30 each side up first reversed")
  }

  @Test("no input traps or runs away: seeded mutations of the golden table and random bytes")
  func fuzz() {
    var random = SeededGenerator(seed: 1414)
    let seeds = GoldenTests.accepted.map(\.text) + GoldenTests.refused.map(\.text)
    let alphabet = Array(
      "0123456789:/-+x()., amrapemomfortimecaptabatatempoXrestcountin×é\t\n".unicodeScalars)
    var plans = 0
    var refusals = 0
    for round in 0..<50_000 {
      var scalars: [Unicode.Scalar]
      if round % 4 == 0 {
        scalars = (0..<Int.random(in: 0...40, using: &random)).map { _ in
          Unicode.Scalar(UInt8.random(in: 0...255, using: &random))
        }
      } else {
        scalars = Array(seeds.randomElement(using: &random)!.unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let position = Int.random(in: 0...scalars.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: scalars.insert(alphabet.randomElement(using: &random)!, at: position)
          case 1: if position < scalars.count { scalars.remove(at: position) }
          default:
            if position < scalars.count {
              scalars[position] = alphabet.randomElement(using: &random)!
            }
          }
        }
      }
      switch WorkoutNotation.parse(String(String.UnicodeScalarView(scalars))) {
      case .success(let plan):
        plans += 1
        if !plan.validationErrors().isEmpty { Issue.record("an invalid plan from \(scalars)") }
      case .failure(let error):
        refusals += 1
        if error.diagnostics.isEmpty { Issue.record("a refusal without a diagnostic") }
      }
    }
    #expect(plans + refusals == 50_000)
    #expect(plans > 0 && refusals > 0)
  }
}
