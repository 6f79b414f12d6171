// SPDX-License-Identifier: MIT
// The benchmark workouts by name, held against a table written here from the workouts' own
// definitions (not from the library's text): each one's mode, length, rounds, its movements in
// order with their counts, and its Rx loads.

import JSONKit
import Testing
import WorkoutCore
import WorkoutNotation

/// What a benchmark workout is, as published.
struct Benchmark: CustomTestStringConvertible, Sendable {
  var name: String
  var mode: ModeName
  /// The workout's length in seconds, count-in not included; nil when open-ended.
  var total: Int64?
  /// Rounds (of a For Time, an EMOM, intervals' one set); nil where none.
  var rounds: Int?
  /// The movements in order, each as the reps (or the distance) and a word of its name.
  var movements: [String]
  /// The Rx loads (men's/women's) the whiteboard must say.
  var rx: [String]
  var testDescription: String { name }

  init(
    _ name: String, _ mode: ModeName, total: Int64?, rounds: Int? = nil, _ movements: [String],
    rx: [String] = []
  ) {
    self.name = name
    self.mode = mode
    self.total = total
    self.rounds = rounds
    self.movements = movements
    self.rx = rx
  }
}

@Suite("Benchmark workouts by name")
struct BenchmarkLibraryTests {
  static let table: [Benchmark] = [
    Benchmark(
      "Amanda", .forTime, total: 900, rounds: 3, ["muscle-up", "snatch"], rx: ["135/95 lb"]),
    Benchmark(
      "Angie", .forTime, total: 1800,
      ["100 pull-up", "100 push-up", "100 sit-up", "100 squat"]),
    Benchmark("Annie", .forTime, total: 900, rounds: 5, ["double-under", "sit-up"]),
    Benchmark(
      "Barbara", .forTime, total: nil, rounds: 5,
      ["20 pull-up", "30 push-up", "40 sit-up", "50 squat"]),
    Benchmark(
      "Chelsea", .emom, total: 1800, rounds: 30, ["5 pull-up", "10 push-up", "15 squat"]),
    Benchmark("Cindy", .amrap, total: 1200, ["5 pull-up", "10 push-up", "15 squat"]),
    Benchmark(
      "Diane", .forTime, total: 600, rounds: 3, ["deadlift", "handstand push-up"],
      rx: ["225/155 lb"]),
    Benchmark(
      "Elizabeth", .forTime, total: 720, rounds: 3, ["clean", "ring dip"], rx: ["135/95 lb"]),
    Benchmark(
      "Eva", .forTime, total: 3600, rounds: 5, ["800 m run", "30 kettlebell swing", "30 pull-up"],
      rx: ["2/1.5 pood"]),
    Benchmark("Fran", .forTime, total: 600, rounds: 3, ["thruster", "pull-up"], rx: ["95/65 lb"]),
    Benchmark("Grace", .forTime, total: 600, ["30 clean and jerk"], rx: ["135/95 lb"]),
    Benchmark(
      "Helen", .forTime, total: 1200, rounds: 3,
      ["400 m run", "21 kettlebell swing", "12 pull-up"], rx: ["1.5/1 pood"]),
    Benchmark("Isabel", .forTime, total: 600, ["30 snatch"], rx: ["135/95 lb"]),
    Benchmark(
      "Jackie", .forTime, total: 900, ["1000 m row", "50 thruster", "30 pull-up"],
      rx: ["45/35 lb"]),
    Benchmark("Karen", .forTime, total: 900, ["150 wall-ball"], rx: ["20/14 lb"]),
    Benchmark(
      "Kelly", .forTime, total: 2700, rounds: 5, ["400 m run", "30 box jump", "30 wall-ball"],
      rx: ["24/20 in", "20/14 lb"]),
    Benchmark(
      "Linda", .forTime, total: 1800, rounds: 10, ["deadlift", "bench press", "clean"],
      rx: ["1.5 x bodyweight", "1 x bodyweight", "0.75 x bodyweight"]),
    Benchmark(
      "Mary", .amrap, total: 1200, ["5 handstand push-up", "10 pistol", "15 pull-up"]),
    Benchmark(
      "Nancy", .forTime, total: 1500, rounds: 5, ["400 m run", "15 overhead squat"],
      rx: ["95/65 lb"]),
    Benchmark("Nicole", .amrap, total: 1200, ["400 m run", "max pull-up"]),
    Benchmark(
      "DT", .forTime, total: 1200, rounds: 5,
      ["12 deadlift", "9 hang power clean", "6 push jerk"], rx: ["155/105 lb"]),
    Benchmark(
      "Fight Gone Bad", .intervals, total: 1020, rounds: 5,
      ["wall-ball", "sumo deadlift high-pull", "box jump", "push press", "row"],
      rx: ["20/14 lb", "75/55 lb", "20 in"]),
    Benchmark(
      "JT", .forTime, total: 1200, rounds: 3, ["handstand push-up", "ring dip", "push-up"]),
    Benchmark(
      "Michael", .forTime, total: 2700, rounds: 3,
      ["800 m run", "50 back extension", "50 sit-up"]),
    Benchmark(
      "Murph", .forTime, total: 3600,
      ["1 mile run", "100 pull-up", "200 push-up", "300 squat", "1 mile run"],
      rx: ["20/14 lb vest"]),
    Benchmark(
      "Nate", .amrap, total: 1200, ["2 muscle-up", "4 handstand push-up", "8 kettlebell swing"],
      rx: ["2/1.5 pood"]),
    Benchmark("Randy", .forTime, total: 600, ["75 power snatch"], rx: ["75/55 lb"]),
  ]

  /// Whether a whiteboard line is the movement the table writes as `expected`: the line, in
  /// lower case, starts with its count (if any) and has each word of its name (a plural too).
  static func matches(_ line: String, _ expected: String) -> Bool {
    let text = line.lowercased()
    var words = expected.split(separator: " ").map(String.init)
    if let first = words.first, first.allSatisfy(\.isNumber) || first == "max" {
      guard text.hasPrefix(first + " ") else { return false }
      words.removeFirst()
    }
    return words.allSatisfy { text.contains($0) }
  }

  @Test("every benchmark workout reads and is what it is", arguments: table)
  func benchmark(_ expected: Benchmark) throws {
    let plan = try WorkoutNotation.parse(expected.name).get()
    #expect(plan.name == expected.name)
    #expect(plan.mode.name == expected.mode)
    let explanation = WorkoutNotation.explain(plan)
    #expect(
      explanation.total.map { $0.nanoseconds / TimeSpan.nanosecondsPerSecond } == expected.total)
    #expect(explanation.parts.count == 1)
    #expect(explanation.rounds == expected.rounds)
    let movements = plan.whiteboard.filter(\.isMovement).map(\.text)
    #expect(movements.count == expected.movements.count, "\(movements)")
    for (line, movement) in zip(movements, expected.movements) {
      #expect(Self.matches(line, movement), "'\(line)' is not '\(movement)'")
    }
    for load in expected.rx {
      #expect(plan.whiteboard.contains { $0.text.contains(load) }, "no '\(load)'")
    }
    // The whole workout travels in its notation: it reads back into the same plan.
    let notation = try #require(plan.notation)
    let again = try WorkoutNotation.parse(notation).get()
    #expect(again.mode == plan.mode && again.whiteboard == plan.whiteboard)
    #expect(again.label == plan.label && again.countIn == plan.countIn)
  }

  @Test func theTableHoldsTheWholeLibrary() {
    let names = WorkoutLibrary.standard.workouts.map(\.name)
    #expect(Set(names) == Set(Self.table.map(\.name)))
    for name in [
      "Fran", "Cindy", "Grace", "Helen", "Diane", "Elizabeth", "Annie", "Karen", "Jackie",
      "Chelsea", "Mary", "Barbara", "Nancy", "Isabel", "Linda", "Angie", "Eva", "Kelly", "Murph",
      "DT", "Fight Gone Bad", "JT", "Michael", "Nate", "Randy",
    ] {
      #expect(names.contains(name))
    }
  }

  @Test func namesMatchWhateverTheCaseAndTheSeparators() throws {
    for text in ["fight gone bad", "Fight-Gone-Bad", "  FIGHT   gone_bad ", "fight-gone bad"] {
      #expect(WorkoutLibrary.standard.workout(named: text)?.name == "Fight Gone Bad", "\(text)")
    }
    #expect(WorkoutLibrary.standard.workout(named: "fightgonebad") == nil)
    #expect(WorkoutLibrary.standard.workout(named: "cindy 2") == nil)
    // Only a bare name: a name with a whiteboard under it is no name.
    #expect(throws: NotationError.self) { try WorkoutNotation.parse("cindy\n5 pull-ups").get() }
    #expect(throws: NotationError.self) {
      try WorkoutNotation.parse("cindy", library: .empty).get()
    }
  }

  @Test func theCyclingStepsOfFightGoneBadAreItsStations() throws {
    let plan = try WorkoutNotation.parse("fight gone bad").get()
    let segments = try plan.compile().segments
    let work = segments.filter { $0.kind == .work }.map(\.label)
    #expect(work.count == 15)
    #expect(work[0] == "Wall-ball shots 20/14 lb" && work[4] == "Row (calories)")
    #expect(work[5] == "Wall-ball shots 20/14 lb")
    let rests = segments.filter { $0.kind == .setRest }
    #expect(rests.count == 2 && rests.allSatisfy { $0.duration == .seconds(60) })
    #expect(segments.first { $0.kind == .setRest }?.nextMovement == "Wall-ball shots 20/14 lb")
  }

  @Test func chelseasMinutesHoldEveryMovement() throws {
    let plan = try WorkoutNotation.parse("chelsea").get()
    let labels = Set(try plan.compile().segments.filter { $0.kind == .work }.map(\.label))
    #expect(labels == ["Chelsea"])
  }

  @Test func aGymsOwnWorkoutReplacesTheBenchmarkOfItsName() throws {
    let library = WorkoutLibrary.standard.adding([
      NamedWorkout("Cindy", kind: .gym, "amrap 15\n5 pull-ups\n10 push-ups\n15 air squats"),
      NamedWorkout("Filthy Fifty", kind: .gym, "for time cap 30\n50 box jumps 24/20 in"),
    ])
    #expect(
      try WorkoutNotation.parse("cindy", library: library).get().mode
        == .amrap(AMRAPParameters(time: .minutes(15))))
    #expect(
      try WorkoutNotation.parse("filthy-fifty", library: library).get().name == "Filthy Fifty")
    #expect(library.workouts.first?.name == "Cindy")
    #expect(library.workouts.filter { $0.name == "Cindy" }.count == 1)
  }

  @Test func explainNamesTheWorkoutAndSaysWhenAPresetHasTheName() throws {
    let cindy = try WorkoutNotation.explain("cindy", library: .standard).get()
    #expect(cindy.name == "Cindy")
    #expect(cindy.text.hasPrefix("Cindy: AMRAP 20:00 after a 10 s count-in\n"))
    #expect(cindy.notes.isEmpty)
    let fran = try WorkoutNotation.explain("FRAN", library: .standard, presets: ["fran"]).get()
    #expect(
      fran.notes == [
        "'fran' is a preset of this config: loading 'FRAN' runs the preset, not the benchmark"
          + " workout Fran explained here"
      ])
    let value = try JSONValue.parse(fran.json.serialized())
    #expect(value["name"] == .string("Fran"))
    #expect(value["notes"]?.arrayValue?.count == 1)
  }
}
