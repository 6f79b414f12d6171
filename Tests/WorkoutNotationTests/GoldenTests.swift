// SPDX-License-Identifier: MIT
// Written workouts and the plans they must give: total length, segment count, labels.

import Testing
import WorkoutCore
import WorkoutNotation

/// One written workout and what it must become: the length of the whole timeline (count-in
/// included; nil when open-ended), its number of segments, the captions shown on its segments
/// (each distinct caption once, in order) and its canonical notation.
struct Golden: CustomTestStringConvertible, Sendable {
  var text: String
  var total: Int64?
  var segments: Int
  var labels: [String]
  var canonical: String
  var testDescription: String { "'\(text)'" }

  init(_ text: String, total: Int64?, segments: Int, labels: [String] = [], _ canonical: String) {
    self.text = text
    self.total = total
    self.segments = segments
    self.labels = labels
    self.canonical = canonical
  }
}

/// A text the notation refuses, with the column (1-based) and message it must report.
struct Refused: CustomTestStringConvertible, Sendable {
  var text: String
  var column: Int
  var message: String
  var hint: String?
  var testDescription: String { "'\(text)'" }

  init(_ text: String, column: Int, _ message: String, hint: String? = nil) {
    self.text = text
    self.column = column
    self.message = message
    self.hint = hint
  }
}

@Suite("Notation golden table")
struct GoldenTests {
  static let accepted: [Golden] = [
    Golden("amrap 14", total: 850, segments: 2, "amrap 14"),
    Golden("AMRAP 14:00", total: 850, segments: 2, "amrap 14"),
    Golden("14 min amrap", total: 850, segments: 2, "amrap 14"),
    Golden("amrap 14m", total: 850, segments: 2, "amrap 14"),
    Golden("amrap 14 min", total: 850, segments: 2, "amrap 14"),
    Golden("AMRAP14", total: 850, segments: 2, "amrap 14"),
    Golden("amrap 1m30s", total: 100, segments: 2, "amrap 1:30"),
    Golden("emom 10", total: 610, segments: 11, "emom 10"),
    Golden("emom 10 x 1:00", total: 610, segments: 11, "emom 10"),
    Golden("e2mom 16", total: 970, segments: 9, "every 2:00 x 8"),
    Golden("every 2:00 x 8", total: 970, segments: 9, "every 2:00 x 8"),
    Golden("e90s x 10", total: 910, segments: 11, "every 1:30 x 10"),
    Golden("every 2:30 for 15", total: 910, segments: 7, "every 2:30 x 6"),
    Golden("e3mom 5", total: 910, segments: 6, "every 3:00 x 5"),
    Golden("every 90s x 10", total: 910, segments: 11, "every 1:30 x 10"),
    Golden("12 min emom", total: 730, segments: 13, "emom 12"),
    Golden(
      "emom 12: power clean / burpees", total: 730, segments: 13,
      labels: ["power clean", "burpees"], "emom 12: power clean / burpees"),
    Golden("for time", total: nil, segments: 2, "for time"),
    Golden("for time cap 15", total: 910, segments: 2, "for time cap 15"),
    Golden("ft cap 15", total: 910, segments: 2, "for time cap 15"),
    Golden("21-15-9 for time cap 10", total: 610, segments: 2, "21-15-9 for time cap 10"),
    Golden("21-15-9 cap 10", total: 610, segments: 2, "21-15-9 for time cap 10"),
    Golden("5 rft cap 20", total: 1210, segments: 2, "5 rounds for time cap 20"),
    Golden("3 rounds for time", total: nil, segments: 2, "3 rounds for time"),
    Golden("tabata", total: 250, segments: 17, "tabata"),
    Golden("tabata x 2 rest 1:00", total: 540, segments: 33, "tabata x 2 rest 1:00"),
    Golden("8 x 20/10", total: 250, segments: 17, "8 x 20/10"),
    Golden("10 x 40/20", total: 610, segments: 21, "10 x 40/20"),
    Golden("5 x 3:00/1:00", total: 1210, segments: 11, "5 x 3:00/1:00"),
    Golden("10 rounds 40/20", total: 610, segments: 21, "10 x 40/20"),
    Golden("tabata squats", total: 250, segments: 17, labels: ["squats"], "tabata: squats"),
    Golden("death by 10", total: 610, segments: 11, "death by 10"),
    Golden(
      "death by burpees", total: 1810, segments: 31, labels: ["burpees"], "death by 30: burpees"),
    Golden("tempo 31X0 6x4 rest 90s", total: 400, segments: 76, "tempo 31X0 6 x 4 rest 1:30"),
    Golden(
      "tempo 3-1-1-0 x 6 x 4 r 1:30 each side", total: 540, segments: 152,
      "tempo 3110 6 x 4 rest 1:30 each side"),
    Golden(
      "warm-up 8:00 + amrap 12 + rest 3:00 + emom 6", total: 1760, segments: 11,
      labels: ["warm-up", "get ready", "AMRAP", "rest", "EMOM"],
      "warm-up 8:00 + amrap 12 + rest 3:00 + emom 6"),
    Golden("emom(01:00,10)", total: 610, segments: 11, "emom 10"),
    Golden("amrap(15:00)", total: 910, segments: 2, "amrap 15"),
    Golden("ft(20:00,5)", total: 1210, segments: 2, "5 rounds for time cap 20"),
    Golden("tabata(00:20,00:10,8)", total: 250, segments: 17, "tabata"),
    Golden(
      "mix(ft(12:00),rest(05:00),amrap(10:00))", total: 1630, segments: 4,
      labels: ["for time", "rest", "AMRAP"], "for time cap 12 + rest 5:00 + amrap 10"),
    Golden("amrap 14 countin 5s", total: 845, segments: 2, "amrap 14 countin 5s"),
    Golden("amrap 14 no countin", total: 840, segments: 1, "amrap 14 no countin"),
    Golden("emom 10 count-in 5", total: 605, segments: 11, "emom 10 countin 5s"),
    Golden("emom 10 count in 3s", total: 603, segments: 11, "emom 10 countin 3s"),
    Golden("amrap 20: cindy", total: 1210, segments: 2, labels: ["cindy"], "amrap 20: cindy"),
    Golden(
      "emom 12: a / b countin 5s", total: 725, segments: 13, labels: ["a", "b"],
      "emom 12: a / b countin 5s"),
    Golden("20/10 x 8", total: 250, segments: 17, "8 x 20/10"),
    Golden("for time cap 10 no countin", total: 600, segments: 1, "for time cap 10 no countin"),
    Golden("rest 3", total: 190, segments: 2, labels: ["rest"], "rest 3:00"),
    Golden("e2mom 15", total: 1810, segments: 16, "every 2:00 x 15"),
    Golden("Amrap 20 Min", total: 1210, segments: 2, "amrap 20"),
    Golden("amrap 1h", total: 3610, segments: 2, "amrap 60"),
    Golden("emom 10 rounds", total: 610, segments: 11, "emom 10"),
    Golden("emom 12 min", total: 730, segments: 13, "emom 12"),
    Golden("every 2 min x 5", total: 610, segments: 6, "every 2:00 x 5"),
    Golden("every 90s for 6 rounds", total: 550, segments: 7, "every 1:30 x 6"),
    Golden("E2MOM 16", total: 970, segments: 9, "every 2:00 x 8"),
    Golden("FOR TIME CAP 15", total: 910, segments: 2, "for time cap 15"),
    Golden("fortime", total: nil, segments: 2, "for time"),
    Golden("ft", total: nil, segments: 2, "for time"),
    Golden("for time tc 20", total: 1210, segments: 2, "for time cap 20"),
    Golden("5 rft", total: nil, segments: 2, "5 rounds for time"),
    Golden("3 rounds ft cap 12", total: 730, segments: 2, "3 rounds for time cap 12"),
    Golden(
      "10-9-8-7-6-5-4-3-2-1 for time", total: nil, segments: 2, "10-9-8-7-6-5-4-3-2-1 for time"),
    Golden("tabata 10 x 30/15", total: 460, segments: 21, "tabata 10 x 30/15"),
    Golden("8 x 20/10 x 3 rest 1:00", total: 830, segments: 49, "8 x 20/10 x 3 rest 1:00"),
    Golden("10 x 40/20 no last rest", total: 590, segments: 20, "10 x 40/20 no last rest"),
    Golden(
      "tabata: squats / push-ups", total: 250, segments: 17, labels: ["squats", "push-ups"],
      "tabata: squats / push-ups"),
    Golden(
      "death by 15 burpees", total: 910, segments: 16, labels: ["burpees"], "death by 15: burpees"),
    Golden("tempo 4010 5 x 3", total: 265, segments: 33, "tempo 4010 5 x 3 rest 1:30"),
    Golden("tempo 30X0 x 8 rest 2:00", total: 42, segments: 17, "tempo 30X0 8 x 1 rest 2:00"),
    Golden(
      "tempo 3-0-1.5-0 6 x 2 r 60", total: 124, segments: 26, "tempo 3-0-1.5-0 6 x 2 rest 1:00"),
    Golden(
      "tempo 2020 5 reps x 3 sets unilateral", total: 325, segments: 66,
      "tempo 2020 5 x 3 rest 1:30 each side"),
    Golden(
      "tempo 30X0 5x3 rest 2:00 up first", total: 310, segments: 33,
      "tempo 30X0 5 x 3 rest 2:00 up first"),
    Golden(
      "tempo 3-1-1-0 x 6 x 4 r 1:30 each side concentric first reverse", total: 540,
      segments: 152, "tempo 3110 6 x 4 rest 1:30 each side up first reversed"),
    Golden(
      "tempo 2011 8 x 3 reversed", total: 286, segments: 75, "tempo 2011 8 x 3 rest 1:30 reversed"),
    Golden(
      "tempo 4010 5 x 3 reversed up first", total: 265, segments: 33,
      "tempo 4010 5 x 3 rest 1:30 up first reversed"),
    Golden(
      "warmup 5 + 21-15-9 for time + cooldown 5", total: nil, segments: 7,
      labels: ["warm-up", "get ready", "21 reps", "15 reps", "9 reps", "cool-down"],
      "warm-up 5:00 + 21-15-9 for time + cool-down 5:00"),
    Golden(
      "amrap 12 then amrap 12", total: 1460, segments: 4, labels: ["AMRAP", "get ready"],
      "amrap 12 + amrap 12"),
    Golden(
      "warm up 10:00 + tabata + rest 1 + tabata", total: 1160, segments: 36,
      labels: ["warm-up", "get ready", "work", "rest"],
      "warm-up 10:00 + tabata + rest 1:00 + tabata"),
    Golden(
      "emom 6 + emom 6 no countin", total: 730, segments: 13, labels: ["EMOM"],
      "emom 6 + emom 6 no countin"),
    Golden(
      "rest 2:00 + amrap 5 countin 5s", total: 435, segments: 4,
      labels: ["rest", "get ready", "AMRAP"], "rest 2:00 + amrap 5 countin 5s"),
    Golden(
      "amrap 7 + rest 1 + amrap 7 countin 10s", total: 920, segments: 5,
      labels: ["AMRAP", "rest", "get ready"], "amrap 7 + rest 1:00 + amrap 7 countin 10s"),
    Golden(
      "warm-up 8:00 + amrap 12 countin 3s", total: 1213, segments: 4,
      labels: ["warm-up", "get ready", "AMRAP"], "warm-up 8:00 + amrap 12 countin 3s"),
    Golden(
      "mix(emom(01:00,5),rest(02:00),tabata(00:20,00:10,8))", total: 670, segments: 23,
      labels: ["EMOM", "rest", "work"], "emom 5 + rest 2:00 + tabata"),
    Golden("rest(02:00)", total: 130, segments: 2, labels: ["rest"], "rest 2:00"),
    Golden("fortime(10:00)", total: 610, segments: 2, "for time cap 10"),
    Golden("emom(1:30,8)", total: 730, segments: 9, "every 1:30 x 8"),
    Golden("amrap 14 countdown 5", total: 845, segments: 2, "amrap 14 countin 5s"),
    Golden("amrep 12", total: 730, segments: 2, "amrap 12"),
  ]

  static let refused: [Refused] = [
    Refused(
      "tempo 31X0 6x4 up", column: 18, "expected 'first' after 'up', found the end",
      hint: "write 'up first' for sets that start with the lift (a deadlift, a pull-up)"),
    Refused(
      "tempo 31X0 6x4 concentric last", column: 27,
      "expected 'first' after 'concentric', found 'last'",
      hint: "write 'up first' for sets that start with the lift (a deadlift, a pull-up)"),
    Refused(
      "tempo 31X0 6x4 revesred", column: 16, "unexpected word 'revesred'",
      hint: "did you mean 'reversed'?"),
    Refused(
      "amrap 14 reversed", column: 10, "'reversed' does not go with this part",
      hint:
        "this part may be followed by 'countin', 'no countin', a caption after ':' (as in ': cindy'), or '+' and another part"
    ),
    Refused(
      "amarp 12", column: 1, "unknown word 'amarp': expected a workout",
      hint: "did you mean 'amrap'?"),
    Refused(
      "amrap 14 7", column: 10, "'7' has no meaning here",
      hint:
        "the AMRAP's length is already given; a number here could be a count-in ('countin 7s') or another part ('+ amrap 7')"
    ),
    Refused(
      "", column: 1, "expected a workout, found nothing",
      hint:
        "write e.g. 'amrap 14', 'emom 10', 'for time cap 15', 'tabata', '8 x 20/10', 'tempo 31X0 6x4 rest 90s' or 'warm-up 8:00 + amrap 12'"
    ),
    Refused("emom 1000", column: 6, "the number of rounds must be between 1 and 999, got 1000"),
    Refused(
      "amrap 30h", column: 7, "the AMRAP's length must be between 0:01 and 24:00:00, got 30:00:00"),
    Refused(
      "amrap 99999999999", column: 7,
      "the AMRAP's length must be between 0:01 and 24:00:00, got 277777:46:40"),
    Refused(
      "tempo 3X00 5", column: 7,
      "'X' (explosive) can only be the lift, the third value, found in '3X00'",
      hint: "write e.g. '30X0': lower 3 s, no pause, lift explosively, no pause"),
    Refused(
      "zebra", column: 1, "unknown word 'zebra': expected a workout",
      hint:
        "write e.g. 'amrap 14', 'emom 10', 'for time cap 15', 'tabata', '8 x 20/10', 'tempo 31X0 6x4 rest 90s' or 'warm-up 8:00 + amrap 12'; a caption goes after ':', as in 'amrap 14: cindy'"
    ),
    Refused(
      "emmo 10", column: 1, "unknown word 'emmo': expected a workout", hint: "did you mean 'emom'?"),
    Refused(
      "tabbata", column: 1, "unknown word 'tabbata': expected a workout",
      hint: "did you mean 'tabata'?"),
    Refused(
      "fro time", column: 1, "unknown word 'fro': expected a workout",
      hint: "did you mean 'for time'?"),
    Refused(
      "amrap 12 countn 5", column: 10, "unexpected word 'countn'", hint: "did you mean 'countin'?"),
    Refused(
      "amrap", column: 6, "expected the AMRAP's length, found the end",
      hint: "write e.g. 'amrap 14'"),
    Refused(
      "emom", column: 5, "expected the EMOM's number of minutes, found the end",
      hint: "write e.g. 'emom 10' (10 rounds of 1:00) or 'emom 10 x 2:00'"),
    Refused(
      "emom 10 x", column: 10, "expected the interval, found the end",
      hint: "write e.g. 'emom 10 x 1:00'"),
    Refused(
      "8 x 20", column: 7, "expected '/' and a rest after '20', found the end",
      hint: "write work/rest, as in '8 x 20/10'"),
    Refused(
      "5 rounds", column: 1, "'5' alone is not a workout",
      hint: "a number first is rounds or a length: '5 rft', '5 x 20/10', '5 min amrap'"),
    Refused(
      "21-15-9 for tim", column: 13, "expected 'time' after 'for', found 'tim'",
      hint: "write e.g. '21-15-9 for time cap 10'"),
    Refused(
      "death 10", column: 7, "expected 'by' after 'death', found '10'",
      hint: "write e.g. 'death by 10' or 'death by burpees'"),
    Refused(
      "tempo", column: 6, "expected a tempo such as '31X0' after 'tempo', found the end",
      hint: "write e.g. 'tempo 31X0 6x4 rest 90s'"),
    Refused(
      "tempo 31X0", column: 11, "expected the reps of a set, found the end",
      hint: "write e.g. 'tempo 31X0 6x4'"),
    Refused(
      "amrap 14 + ", column: 10, "expected a part of the workout here, found nothing",
      hint: "join parts with '+', as in 'warm-up 8:00 + amrap 12'"),
    Refused(
      "+ amrap 14", column: 1, "expected a part of the workout here, found nothing",
      hint: "join parts with '+', as in 'warm-up 8:00 + amrap 12'"),
    Refused(
      "amrap 12 cap 10", column: 10, "'cap' does not go with this part",
      hint:
        "this part may be followed by 'countin', 'no countin', a caption after ':' (as in ': cindy'), or '+' and another part"
    ),
    Refused(
      "amrap 14 countin 200s", column: 18, "a count-in must be between 0 and 99 seconds, got 3:20",
      hint: "write e.g. 'countin 5s' or 'no countin'"),
    Refused(
      "every 2:00 for 15", column: 16, "15:00 is not a whole number of 2:00 rounds",
      hint: "write the rounds instead, as in 'every 2:00 x 8'"),
    Refused(
      "emom 10 x 0:00", column: 11, "the interval must be between 0:01 and 24:00:00, got 0:00"),
    Refused(
      "14 sec emom", column: 1, "an EMOM lasts whole minutes, found 14 sec",
      hint: "write e.g. '12 min emom' or 'every 90s x 10'"),
    Refused(
      "tempo 31X0 6x4 + amrap 5", column: 1,
      "a tempo set runs on its own, not as a part of a chain", hint: "load it as its own workout"),
    Refused(
      "21-15-9 cap 10 + amrap 5", column: 1,
      "a capped rep scheme runs on its own, not as a part of a chain",
      hint: "leave out the cap, or load it as its own workout"),
    Refused(
      "1:7", column: 2, "expected a workout after '1', found ':'",
      hint: "a number first is rounds or a length: '1 rft', '1 x 20/10', '1 min amrap'"),
    Refused(
      "amrap 14 min min", column: 14, "'min' has no number before it",
      hint: "write the unit right after a number, as in 'amrap 14 min'"),
    Refused(
      "emom(01:00)", column: 1, "expected 'emom(mm:ss,rounds)', found 'emom(01:00)'",
      hint: "OpenWodTimer writes times as mm:ss and counts as whole numbers"),
    Refused(
      "amrap 14 @", column: 10, "unexpected '@'",
      hint: "join parts with '+'; a caption goes after ':', as in 'amrap 14: cindy'"),
    Refused("tabata x 0", column: 10, "the number of sets must be between 1 and 99, got 0"),
    Refused(
      "emom 12: a / / b", column: 9, "expected a caption after ':', found an empty one",
      hint: "write captions split by '/', as in 'emom 12: power clean / burpees'"),
    Refused(
      "mix(amrap(10:00),", column: 18,
      "expected a timer such as 'amrap(10:00)' in 'mix(...)', found the end",
      hint: "OpenWodTimer's timers: ft, amrap, emom, tabata, rest"),
    Refused("death by 0", column: 10, "the number of rounds must be between 1 and 999, got 0"),
    Refused("5 x 0/10", column: 5, "the work interval must be between 0:01 and 24:00:00, got 0:00"),
    Refused("for time cap 0", column: 14, "the cap must be between 0:01 and 24:00:00, got 0:00"),
    Refused(
      "100 x 200/200 x 99", column: 1,
      "the workout would last about 1100 hours, longer than the 48 hours a workout may last",
      hint: "use fewer rounds, sets or repetitions, or shorter intervals"),
  ]

  @Test("written workouts give their plans", arguments: accepted)
  func reads(_ golden: Golden) throws {
    let plan: WorkoutPlan
    switch WorkoutNotation.parse(golden.text) {
    case .success(let read): plan = read
    case .failure(let error):
      Issue.record("refused:\n\(error.rendered())")
      return
    }
    let timeline = try plan.compile()
    #expect(
      timeline.totalLength.map { $0.nanoseconds / TimeSpan.nanosecondsPerSecond } == golden.total)
    #expect(timeline.segments.count == golden.segments)
    var labels: [String] = []
    for label in timeline.segments.compactMap(\.label) where !labels.contains(label) {
      labels.append(label)
    }
    #expect(labels == golden.labels)
    #expect(plan.notation == golden.canonical)
  }

  @Test("misspelled and meaningless workouts are refused where the problem is", arguments: refused)
  func refuses(_ refused: Refused) {
    guard case .failure(let error) = WorkoutNotation.parse(refused.text) else {
      Issue.record("'\(refused.text)' was accepted")
      return
    }
    #expect(error.diagnostics.count == 1)
    #expect(error.diagnostics.first.map { $0.columns.lowerBound + 1 } == refused.column)
    #expect(error.diagnostics.first?.message == refused.message)
    #expect(error.diagnostics.first?.hint == refused.hint)
  }

  @Test("the caret sits under the problem, as the config's diagnostics draw it")
  func rendered() {
    guard case .failure(let error) = WorkoutNotation.parse("amarp 12") else {
      Issue.record("accepted")
      return
    }
    #expect(
      error.rendered()
        == "workout:1:1: error: unknown word 'amarp': expected a workout\namarp 12\n^~~~~\nhint: did you mean 'amrap'?\n"
    )
  }

  @Test("the canonical notation reads back as itself", arguments: accepted)
  func canonicalIsStable(_ golden: Golden) throws {
    let plan = try WorkoutNotation.parse(golden.text).get()
    let again = try WorkoutNotation.parse(golden.canonical).get()
    #expect(again.mode == plan.mode && again.countIn == plan.countIn && again.label == plan.label)
    #expect(again.notation == golden.canonical)
    #expect(plan.name.unicodeScalars.count <= WorkoutNotation.maximumNameLength)
  }
}
