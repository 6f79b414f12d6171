// SPDX-License-Identifier: MIT
// The GPIO plugins on the in-process fake chip: buttons (debounce, press, long press,
// combinations), the buzzer (every pattern's timing, the on-time limit, off on stop, reload,
// error and mute) and the signal lamps. Every line change is recorded with its instant.

import ConfigFormat
import Configuration
import DisplayKit
import HardwareKit
import Testing
import WodclockDaemon
import WodclockTestSupport
import WorkoutCore

extension GPIOChipSource {
  /// In-memory `chips`, found by path, name, label or number as the kernel's are.
  static func fake(_ chips: [FakeGPIOChip]) -> GPIOChipSource {
    let fakes = FakeGPIOChips(chips)
    return GPIOChipSource(open: fakes.open, chipNames: fakes.names)
  }
}

/// A configuration with `entries` under `inputs:` or `outputs:` and one short interval preset.
private func configuration(inputs: String = "[]", outputs: String = "[]") throws
  -> WodclockConfiguration
{
  let text = """
    defaults:
      count_in: 3s
    presets:
      intervals:
        mode: intervals
        work: 5s
        rest: 4s
        rounds: 2
    controls:
      start: {press: toggle, long_press: reset}
      next: {press: next}
      both: {press: reset}
    inputs: \(inputs)
    outputs: \(outputs)
    """
  let result = ConfigurationLoader.load(
    text: text, file: "test.yaml", plugins: PluginCatalog.schemas)
  guard let loaded = result.configuration else {
    throw PluginError(result.diagnostics.map(\.message).joined(separator: "; "))
  }
  return loaded
}

private func diagnostics(inputs: String = "[]", outputs: String = "[]") -> [String] {
  let text = """
    presets:
      amrap: {mode: amrap, time: 10m}
    inputs: \(inputs)
    outputs: \(outputs)
    """
  return ConfigurationLoader.load(text: text, file: "test.yaml", plugins: PluginCatalog.schemas)
    .diagnostics.map(\.message)
}

private func context() -> PluginContext {
  let logger = Logger(minimumLevel: .error)
  logger.sink = { _, _ in }
  return PluginContext(id: "test", logger: logger, speed: 1, claimTerminal: { _ in })
}

private func idleSnapshot() throws -> WorkoutSnapshot {
  try WorkoutEngine(plan: WorkoutPlan(name: "a", mode: .amrap(AMRAPParameters(time: .minutes(1)))))
    .snapshot(at: EngineInstant(nanoseconds: 0))
}

/// On-durations and off-gaps of a line's history after its initial value, in milliseconds.
private func pulses(_ history: [FakeGPIOChip.Change]) -> [(on: Int64, at: Int64)] {
  var result: [(Int64, Int64)] = []
  for (index, change) in history.enumerated() where change.value && index + 1 < history.count {
    result.append(((history[index + 1].instant - change.instant) / 1_000_000, change.instant))
  }
  return result
}

@Suite struct GPIOButtonTests {
  let clock = ManualClock()
  let chip: FakeGPIOChip

  init() {
    let clock = self.clock
    chip = FakeGPIOChip.raspberryPi(clock: { clock.now })
  }

  private func makeInput(_ entry: String) throws -> GPIOButtonInput {
    let config = try configuration(inputs: "[\(entry)]")
    let input = try GPIOButtonInput(instance: config.inputs[0], source: .fake([chip]))
    try input.start(context())
    return input
  }

  /// Delivers what is waiting and every wake-up up to `until`, as the daemon's loop would.
  private func run(_ input: GPIOButtonInput, until: Int64) throws -> [(InputEvent, Int64)] {
    var events: [(InputEvent, Int64)] = []
    if let descriptor = input.watchedDescriptors.first?.descriptor {
      events += try input.handleReady(descriptor, .readable, at: clock.now).map { ($0, clock.now) }
    }
    while let wake = input.nextWakeUp(after: clock.now), wake <= until {
      clock.now = max(clock.now, wake)
      events += input.handleWakeUp(at: clock.now).map { ($0, clock.now) }
    }
    clock.now = max(clock.now, until)
    return events
  }

  @Test func aBouncyTapIsOnePressDecidedOneDebounceAfterTheRelease() throws {
    let input = try makeInput("{type: gpio-button, buttons: [{line: GPIO17, control: start}]}")
    #expect(chip.consumer(of: 17) == "wodclockd:gpio-button")
    let t = clock.now
    // Press with bounce, hold 150 ms, release with bounce.
    for (pressed, at) in [
      (true, 0), (false, 1), (true, 2), (false, 150), (true, 151), (false, 153),
    ] {
      if pressed {
        chip.press(17, at: t + ms(Int64(at)))
      } else {
        chip.releaseButton(17, at: t + ms(Int64(at)))
      }
    }
    clock.now = t + ms(153)
    let events = try run(input, until: t + ms(1_000))
    // Decided 183 ms after the press, dated to the press's first edge.
    #expect(events.map(\.0) == [.control("start", .press, pressedAt: t)])
    #expect(events.first?.1 == t + ms(183))
    input.stop()
    #expect(chip.consumer(of: 17) == nil)
  }

  @Test func holdingPastTheThresholdIsALongPressOnly() throws {
    let input = try makeInput(
      "{type: gpio-button, buttons: [{line: 17, control: start, long_press: 1s}]}")
    let t = clock.now
    chip.press(17, at: t)
    let early = try run(input, until: t + ms(999))
    #expect(early.isEmpty)
    let held = try run(input, until: t + ms(1_000))
    #expect(held.map(\.0) == [.control("start", .longPress, pressedAt: t)])
    #expect(held.first?.1 == t + ms(1_000))
    chip.releaseButton(17, at: t + ms(2_000))
    clock.now = t + ms(2_000)
    #expect(try run(input, until: t + ms(3_000)).isEmpty)
  }

  @Test func aSpikeFromTheHornRelayIsNotAPress() throws {
    let input = try makeInput("{type: gpio-button, buttons: [{line: GPIO17, control: start}]}")
    let t = clock.now
    chip.press(17, at: t)
    chip.releaseButton(17, at: t + ms(5))
    clock.now = t + ms(5)
    #expect(try run(input, until: t + ms(2_000)).isEmpty)
  }

  @Test func twoButtonsHeldTogetherFireTheCombinationAndNothingElse() throws {
    let input = try makeInput(
      """
      {type: gpio-button, buttons: [{line: GPIO17, control: start}, {line: GPIO27, control: next}],
        combinations: [{lines: [GPIO17, GPIO27], control: both, hold: 2s}]}
      """)
    let t = clock.now
    chip.press(17, at: t)
    chip.press(27, at: t + ms(200))
    clock.now = t + ms(200)
    let events = try run(input, until: t + ms(3_000))
    #expect(events.map(\.0) == [.control("both", .press, pressedAt: t + ms(200))])
    #expect(events.first?.1 == t + ms(2_200))
    chip.releaseButton(17, at: t + ms(3_000))
    chip.releaseButton(27, at: t + ms(3_000))
    #expect(try run(input, until: t + ms(4_000)).isEmpty)
    // Alone again, each button presses as usual.
    chip.tap(27, at: t + ms(5_000), holding: ms(100))
    clock.now = t + ms(5_100)
    #expect(
      try run(input, until: t + ms(6_000)).map(\.0)
        == [.control("next", .press, pressedAt: t + ms(5_000))])
  }

  @Test func activeHighButtonsWithAPullDownWork() throws {
    let input = try makeInput(
      "{type: gpio-button, buttons: [{line: 5, control: next, active_low: false, bias: pull-down}]}"
    )
    let pressed = clock.now
    chip.tap(5, at: pressed, holding: ms(100))
    clock.now += ms(100)
    #expect(
      try run(input, until: clock.now + ms(100)).map(\.0)
        == [.control("next", .press, pressedAt: pressed)])
  }

  @Test func aBusyLineFailsTheStartWithTheHolderNamed() throws {
    chip.occupy(17, consumer: "other-program")
    let config = try configuration(
      inputs: "[{type: gpio-button, buttons: [{line: GPIO17, control: start}]}]")
    let input = try GPIOButtonInput(instance: config.inputs[0], source: .fake([chip]))
    #expect(throws: GPIOError.self) { try input.start(context()) }
    #expect(chip.requestCount == 0)
  }
}

@Suite struct GPIOBuzzerTests {
  let clock = ManualClock()
  let chip: FakeGPIOChip

  init() {
    let clock = self.clock
    chip = FakeGPIOChip.raspberryPi(clock: { clock.now })
  }

  private func makeBuzzer(_ settings: String = "") throws -> GPIOBuzzerOutput {
    let config = try configuration(outputs: "[{type: gpio-buzzer, line: GPIO18\(settings)}]")
    let clock = self.clock
    let buzzer = try GPIOBuzzerOutput(
      instance: config.outputs[0], source: .fake([chip]), clock: { clock.now })
    try buzzer.start(context())
    return buzzer
  }

  /// Renders `cues` now and then every wake-up up to `until`.
  private func play(
    _ buzzer: GPIOBuzzerOutput, _ cues: [CueKind], until: Int64, muted: Bool = false,
    hour: Int = 12
  ) throws {
    let snapshot = try idleSnapshot()
    let due = cues.map { FrameCue(kind: $0, due: clock.now) }
    try buzzer.render(frame(snapshot, cues: due, at: clock.now, muted: muted, hour: hour))
    while let wake = buzzer.nextWakeUp(after: clock.now), wake <= until {
      clock.now = wake
      try buzzer.render(frame(snapshot, at: wake, muted: muted, hour: hour))
    }
    clock.now = until
  }

  @Test func theLineIsOffFromTheStart() throws {
    let buzzer = try makeBuzzer()
    defer { buzzer.stop() }
    #expect(chip.history(of: 18).map(\.value) == [false])
    #expect(chip.level(of: 18) == false)
  }

  @Test func aConfiguredPatternPlaysItsOnOffTimesExactly() throws {
    let buzzer = try makeBuzzer(", patterns: {round_start: [200ms, 100ms, 200ms]}")
    let t = clock.now
    try play(buzzer, [.roundStart(Counter(1, of: 3))], until: t + ms(2_000))
    #expect(
      chip.history(of: 18)
        == [
          .init(instant: t, value: false), .init(instant: t, value: true),
          .init(instant: t + ms(200), value: false), .init(instant: t + ms(300), value: true),
          .init(instant: t + ms(500), value: false),
        ])
  }

  @Test(arguments: [
    (CueKind.countdown(secondsLeft: 3, ending: .work), [Int64(150)]),
    (.segmentStart(.work), [1_000]),
    (.segmentStart(.rest), [1_000]),
    (.finish, [400, 400, 1_500]),
  ])
  func standardPatterns(_ cue: CueKind, _ expected: [Int64]) throws {
    let buzzer = try makeBuzzer()
    try play(buzzer, [cue], until: clock.now + ms(5_000))
    #expect(pulses(chip.history(of: 18)).map(\.on) == expected)
  }

  @Test func aWholeWorkoutBeepsThreeTwoOneLongAtSegmentsAndFinishes() throws {
    let config = try configuration(outputs: "[{type: gpio-buzzer, line: GPIO18}]")
    let clock = self.clock
    let buzzer = try GPIOBuzzerOutput(
      instance: config.outputs[0], source: .fake([chip]), clock: { clock.now })
    try buzzer.start(context())
    var engine = try WorkoutEngine(plan: config.presets[0].plan)
    let t = clock.now
    var cues = try engine.apply(.start, at: EngineInstant(nanoseconds: t))
    while true {
      let snapshot = engine.snapshot(at: EngineInstant(nanoseconds: clock.now))
      let due = cues.map { FrameCue(kind: $0.kind, due: $0.instant.nanoseconds) }
      try buzzer.render(frame(snapshot, cues: due, at: clock.now))
      let candidates = [engine.nextDeadline?.nanoseconds, buzzer.nextWakeUp(after: clock.now)]
      guard let next = candidates.compactMap({ $0 }).min() else { break }
      clock.now = next
      cues = engine.advance(to: EngineInstant(nanoseconds: next))
    }
    let heard = pulses(chip.history(of: 18)).map(\.on)
    // Count-in: 3, 2, 1 (its 3 on its first instant), work: long; 3-2-1; rest: long; ... the
    // finish.
    #expect(heard.prefix(8) == [150, 150, 150, 1_000, 150, 150, 150, 1_000], "\(heard)")
    #expect(heard.suffix(3) == [400, 400, 1_500], "\(heard)")
    #expect(heard.allSatisfy { [150, 400, 1_000, 1_500].contains($0) }, "\(heard)")
    // The rest's 3-2-1 starts as its long beep ends: 100 ms later, so it is heard as a beep.
    let starts = pulses(chip.history(of: 18)).map { ($0.at - t) / 1_000_000 }
    #expect(starts.prefix(9) == [0, 1_000, 2_000, 3_000, 5_000, 6_000, 7_000, 8_000, 9_100])
  }

  @Test func aFrameDrawnAfterSlowWorkPlaysTheWholePatternFromTheWrite() throws {
    // The loop woke at t, the action's work took 250 ms, then the frame was drawn.
    let buzzer = try makeBuzzer(", patterns: {round_start: [400ms, 200ms, 400ms]}")
    let t = clock.now
    let due = FrameCue(kind: .roundStart(Counter(1, of: 3)), due: t)
    clock.now += ms(250)
    try buzzer.render(frame(try idleSnapshot(), cues: [due], at: t))
    while let wake = buzzer.nextWakeUp(after: clock.now) {
      clock.now = wake
      try buzzer.render(frame(try idleSnapshot(), at: wake))
    }
    #expect(pulses(chip.history(of: 18)).map(\.on) == [400, 400])
  }

  @Test func aCueRenderedLatePlaysItsWholePatternFromTheRender() throws {
    let buzzer = try makeBuzzer(", patterns: {round_start: [400ms, 200ms, 400ms]}")
    let due = FrameCue(kind: .roundStart(Counter(1, of: 3)), due: clock.now)
    clock.now += ms(300)
    let t = clock.now
    try buzzer.render(frame(try idleSnapshot(), cues: [due], at: t))
    while let wake = buzzer.nextWakeUp(after: clock.now) {
      clock.now = wake
      try buzzer.render(frame(try idleSnapshot(), at: wake))
    }
    #expect(pulses(chip.history(of: 18)).map(\.on) == [400, 400])
    #expect(pulses(chip.history(of: 18)).first?.at == t)
  }

  @Test func noPatternKeepsTheLineOnPastTheMaximumOnTime() throws {
    // Two 2 s beeps with no gap would hold it on 4 s: the cap ends it at 3 s.
    let buzzer = try makeBuzzer(", patterns: {segment_start: [2s, 0s, 2s]}")
    let t = clock.now
    try play(buzzer, [.segmentStart(.work)], until: t + ms(6_000))
    #expect(pulses(chip.history(of: 18)).map(\.on) == [3_000])
  }

  @Test func stopTurnsTheLineOffAndReleasesIt() throws {
    let buzzer = try makeBuzzer()
    try play(buzzer, [.finish], until: clock.now + ms(100))
    #expect(chip.outputValue(of: 18) == true)
    clock.now += ms(1)
    buzzer.stop()
    #expect(chip.history(of: 18).last?.value == false)
    #expect(chip.outputValue(of: 18) == nil)
    // A reload is stop and start: off again from the first instant.
    try buzzer.start(context())
    #expect(chip.history(of: 18).last?.value == false)
    #expect(buzzer.nextWakeUp(after: clock.now) == nil)
  }

  @Test func muteCutsTheSoundAndSilencesLaterCues() throws {
    let buzzer = try makeBuzzer()
    let t = clock.now
    try play(buzzer, [.finish], until: t + ms(100))
    try play(buzzer, [], until: t + ms(5_000), muted: true)
    #expect(pulses(chip.history(of: 18)).map(\.on) == [100])
    try play(buzzer, [.segmentStart(.work)], until: t + ms(7_000), muted: true)
    #expect(chip.history(of: 18).filter(\.value).count == 1)
  }

  @Test func quietHoursKeepItSilent() throws {
    let buzzer = try makeBuzzer(", quiet_hours: [\"22:00-06:00\"]")
    try play(buzzer, [.finish], until: clock.now + ms(5_000), hour: 23)
    #expect(chip.history(of: 18).map(\.value) == [false])
    try play(buzzer, [.finish], until: clock.now + ms(5_000), hour: 12)
    #expect(pulses(chip.history(of: 18)).count == 3)
  }

  @Test func activeLowDrivesThePinHighWhenOff() throws {
    let buzzer = try makeBuzzer(", active_low: true")
    #expect(chip.level(of: 18) == true)
    buzzer.stop()
  }

  // Called as `--safe-outputs` calls it: on the output contract, not on the concrete class.
  @Test func driveSafeSetsTheLineOffWithoutStarting() throws {
    let config = try configuration(outputs: "[{type: gpio-buzzer, line: GPIO18}]")
    let buzzer: any OutputPlugin = try GPIOBuzzerOutput(
      instance: config.outputs[0], source: .fake([chip]), clock: { 0 })
    #expect(try buzzer.driveSafe() == .driven("off: line GPIO18 driven low"))
    #expect(chip.history(of: 18).map(\.value) == [false])
    #expect(chip.requestCount == 0)
  }

  @Test func driveSafeReportsAChipItCannotReach() throws {
    let config = try configuration(outputs: "[{type: gpio-buzzer, line: 18, chip: gpiochip7}]")
    let buzzer: any OutputPlugin = try GPIOBuzzerOutput(
      instance: config.outputs[0], source: .fake([chip]), clock: { 0 })
    #expect(throws: GPIOError.self) { try buzzer.driveSafe() }
  }
}

@Suite struct GPIOSignalTests {
  @Test func lampsFollowThePhaseByRole() throws {
    let clock = ManualClock()
    let chip = FakeGPIOChip.raspberryPi(clock: { clock.now })
    let config = try configuration(
      outputs: "[{type: gpio-signal, lines: {work: GPIO5, rest: GPIO6, get_ready: GPIO13}}]")
    let signal = try GPIOSignalOutput(instance: config.outputs[0], source: .fake([chip]))
    try signal.start(context())
    var engine = try WorkoutEngine(plan: config.presets[0].plan)
    let t = clock.now
    func lit(at offset: Int64) throws -> [Bool?] {
      clock.now = t + offset
      try signal.render(
        frame(engine.snapshot(at: EngineInstant(nanoseconds: clock.now)), at: clock.now))
      return [chip.outputValue(of: 5), chip.outputValue(of: 6), chip.outputValue(of: 13)]
    }
    #expect(try lit(at: 0) == [false, false, false])
    _ = try engine.apply(.start, at: EngineInstant(nanoseconds: t))
    #expect(try lit(at: ms(1_000)) == [false, false, true])
    #expect(try lit(at: ms(4_000)) == [true, false, false])
    #expect(try lit(at: ms(9_000)) == [false, true, false])
    signal.stop()
    #expect(chip.history(of: 6).last?.value == false)
    #expect(chip.requestCount == 0)
  }
}

@Suite struct GPIOSignalSafeStateTests {
  // Active-low relay boards light a lamp on a low line: off is high, the request's inactive
  // level, which the kernel drives from the request on.
  @Test func driveSafeTurnsEveryLampOffOnTheOutputContract() throws {
    let chip = FakeGPIOChip.raspberryPi(clock: { 0 })
    let config = try configuration(
      outputs:
        "[{type: gpio-signal, active_low: true, lines: {work: GPIO5, rest: GPIO6, paused: GPIO5}}]")
    let signal: any OutputPlugin = try GPIOSignalOutput(
      instance: config.outputs[0], source: .fake([chip]))
    #expect(try signal.driveSafe() == .driven("lamps off: lines GPIO5, GPIO6 driven high"))
    #expect(chip.history(of: 5).map(\.value) == [false])
    #expect(chip.history(of: 6).map(\.value) == [false])
    #expect(chip.requestCount == 0)
  }
}

@Suite struct GPIOConfigTests {
  @Test func twoSpellingsOfOneHeaderLineCollide() {
    let messages = diagnostics(
      inputs: "[{type: gpio-button, buttons: [{line: GPIO17, control: start}]}]",
      outputs: "[{type: gpio-buzzer, line: 17, chip: pinctrl-rp1}]")
    #expect(
      messages.contains(
        "output 'gpio-buzzer' claims GPIO line 'header:GPIO17', already taken by 'gpio-button'"),
      "\(messages)")
    let chips = diagnostics(
      outputs:
        "[{type: gpio-buzzer, line: 4, chip: /dev/gpiochip2}, {type: gpio-signal, chip: gpiochip2, lines: {work: 4}}]"
    )
    #expect(chips.contains { $0.contains("'gpiochip2:4', already taken") }, "\(chips)")
  }

  @Test func patternsAreCheckedAgainstCueNamesAndTheOnTimeLimit() {
    let messages = diagnostics(
      outputs: "[{type: gpio-buzzer, line: 18, patterns: {countdwn: 100ms, finish: 5s}}]")
    #expect(messages.contains("unknown cue 'countdwn' in 'patterns'"), "\(messages)")
    #expect(
      messages.contains("pattern 'finish' sounds for 5s, longer than max_on_time 3s"),
      "\(messages)")
  }

  @Test func combinationsMustNameTwoOfTheButtons() {
    let messages = diagnostics(
      inputs: """
        [{type: gpio-button, buttons: [{line: GPIO17, control: start}],
          combinations: [{lines: [GPIO17, GPIO22], control: both}]}]
        """)
    #expect(
      messages.contains(
        "combination names 'GPIO22', which is not the line of a button of this input"),
      "\(messages)")
  }

  @Test func signalRolesAndQuietHoursAreChecked() {
    let messages = diagnostics(
      outputs: """
        [{type: gpio-signal, lines: {wrok: GPIO5}},
         {type: gpio-buzzer, line: 18, quiet_hours: [22-6]}]
        """)
    #expect(messages.contains("unknown role 'wrok' in 'lines'"), "\(messages)")
    #expect(messages.contains("invalid quiet hours '22-6'"), "\(messages)")
  }

  @Test func muteIsAnAction() throws {
    let text = """
      presets:
        amrap: {mode: amrap, time: 10m}
      controls:
        horn: {press: mute}
      """
    let result = ConfigurationLoader.load(
      text: text, file: "t.yaml", plugins: PluginCatalog.schemas)
    #expect(result.configuration?.control(named: "horn")?.actions[.press] == .mute)
    let printed = ConfigurationPrinter.render(result.configuration!, plugins: PluginCatalog.schemas)
    #expect(printed.contains("press: mute"))
  }
}
