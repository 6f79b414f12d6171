// SPDX-License-Identifier: MIT
// What a 7-segment display shows for a snapshot: pure, so every layout and mode is testable
// against the real engine without hardware.

public import DisplayKit
public import WorkoutCore

/// What a layout's digits show, and how to read its counter field.
public struct SegmentDisplayOptions: Hashable, Sendable {
  /// Whether interval modes count rounds up (3 of 10 shows 3) or down (3 of 10 shows 8, the
  /// rounds left including the one running).
  public enum RoundCount: String, Hashable, Sendable, CaseIterable {
    case current
    case remaining
  }

  public var layout: SegmentLayout
  public var rounds: RoundCount
  /// Put an `r` in front of a round number when there is a digit to spare (`r3` on `RR`).
  public var roundPrefix: Bool

  public init(layout: SegmentLayout, rounds: RoundCount = .current, roundPrefix: Bool = false) {
    self.layout = layout
    self.rounds = rounds
    self.roundPrefix = roundPrefix
  }
}

/// One picture for a 7-segment display: segments per digit, lit colons, brightness.
public struct SegmentFrame: Hashable, Sendable {
  /// Per digit, left to right; decimal points of the template's `.` included, colons not.
  public var digits: [Segments]
  /// The positions after which a colon is lit now (a subset of the layout's `colonsAfter`).
  public var colonsLit: [Int]
  /// 0–100, from the design tokens' day/night schedule.
  public var brightnessPercent: Int

  public init(digits: [Segments], colonsLit: [Int] = [], brightnessPercent: Int = 100) {
    self.digits = digits
    self.colonsLit = colonsLit
    self.brightnessPercent = brightnessPercent
  }

  /// Whether any colon is lit, for displays with one dedicated colon (HT16K33 backpack,
  /// SparkFun Serial 7-Segment).
  public var colonLit: Bool { !colonsLit.isEmpty }

  /// The digits with each lit colon drawn as the decimal point of the digit before it: how a
  /// colon is wired on TM1637 clock modules (bit 7 of the second digit, TM1637 datasheet
  /// display register table) and on most multiplexed and shift-register builds.
  public var digitsWithColonsAsDecimalPoints: [Segments] {
    var result = digits
    for position in colonsLit where result.indices.contains(position) {
      result[position].insert(.dp)
    }
    return result
  }
}

/// Turns a snapshot into a `SegmentFrame`.
///
/// The time field:
/// - A workout shows its big digits (`WorkoutSnapshot.display`). Two-unit fields show minutes
///   and seconds whatever their letters (`HH:MM` shows 9:30 of an AMRAP as ` 9:30`); one- and
///   three-unit fields show the units they name. The top unit is not wrapped (`MM:SS` shows 75
///   minutes as `75:00`); leading zeros of the top unit are blank.
/// - Over range: a field of two or three units moves every unit one step coarser and drops the
///   finest (`MM:SS` shows 100:00 as ` 1:40`, hours and minutes); when even hours do not fit, and
///   for a one-unit field, every digit shows `-`. Never a wrong number.
/// - The `clock` mode shows the time of day: two-unit fields hours and minutes, others the units
///   they name; 24-hour faces pad hours with a zero, 12-hour faces with a blank. Its colon
///   blinks at the tokens' colon period.
/// - Paused: the time field and its colon blink at the tokens' pause period.
/// - Finished: the final time, steady. When the counter field has fewer than three digits, the
///   time field alternates at the pause period between the time and `End` (or `CAP` when a cap
///   ended the workout).
///
/// The counter field (width w):
/// - Idle and the clock mode: blank. Count-in: `PrE` when w ≥ 3, else blank.
/// - The first second of the workout: `GO` when w ≥ 2.
/// - Rests: `rSt` (a set rest `SEt`) when w ≥ 3; narrower fields keep the number.
/// - Numbers: `for_time` and `amrap` the lap tally (blank before the first lap); `emom`,
///   `intervals`, `tabata` and `sequence` the round (current or remaining, per the options);
///   `tempo` the rep, with the set in front when w ≥ 3 (`2 05`: set 2, rep 5).
/// - Finished: `End` or `CAP` when w ≥ 3, else the last number (the rounds done).
/// - A number too wide for the field shows `-` on every digit.
public enum SegmentRenderer {
  /// Renders one frame.
  /// - Parameters:
  ///   - timeOfDay: the wall-clock time, for the clock mode and the brightness schedule.
  ///   - face: the clock face when the snapshot carries none.
  ///   - milliseconds: a monotonic time for the blink phases.
  public static func render(
    _ snapshot: WorkoutSnapshot, options: SegmentDisplayOptions, tokens: DesignTokens,
    timeOfDay: TimeOfDay, face: ClockFace = ClockFace(), milliseconds: Int64
  ) -> SegmentFrame {
    let layout = options.layout
    var characters = [Character](repeating: " ", count: layout.digitCount)
    var colonsLit: [Int] = []
    let blink = tokens.blink
    let pauseLit = BlinkRates.isLit(
      periodMilliseconds: blink.pausePeriodMilliseconds, atMilliseconds: milliseconds)
    let counterWidth = layout.counter?.count ?? 0

    if let time = layout.time {
      var text: [Character]?
      var colonOn = true
      if snapshot.mode == .clock {
        text = clockCharacters(
          layout.timeGroups, timeOfDay: timeOfDay, face: snapshot.clockFace ?? face)
        colonOn = BlinkRates.isLit(
          periodMilliseconds: blink.colonPeriodMilliseconds, atMilliseconds: milliseconds)
      } else if let display = snapshot.display {
        text = durationCharacters(layout.timeGroups, seconds: display.seconds)
      }
      if snapshot.runState == .paused && !pauseLit {
        text = nil
        colonOn = false
      }
      if snapshot.runState == .finished, counterWidth < 3, time.count >= 3, !pauseLit {
        text = rightAligned(Array(finishTag(snapshot)), width: time.count)
        colonOn = false
      }
      if let text {
        for (offset, character) in text.enumerated() {
          characters[time.lowerBound + offset] = character
        }
        if colonOn {
          colonsLit = layout.colonsAfter.filter { time.contains($0) && $0 + 1 < time.upperBound }
        }
      }
    }

    if let counter = layout.counter, snapshot.mode != .clock {
      let text = counterCharacters(snapshot, width: counter.count, options: options)
      for (offset, character) in text.enumerated() {
        characters[counter.lowerBound + offset] = character
      }
    }

    var digits = characters.map { SegmentFont.segments(for: $0) ?? .blank }
    for position in layout.dotsAfter { digits[position].insert(.dp) }
    return SegmentFrame(
      digits: digits, colonsLit: colonsLit,
      brightnessPercent: tokens.brightness(atMinuteOfDay: timeOfDay.minuteOfDay))
  }

  /// A short text over the whole display, right-aligned (what a keypad composes: `A 14`,
  /// `E 10.1`). `.` and `:` light the decimal point of the digit before them. Too long a text
  /// loses its spaces, then its beginning: the end is what was typed last. A character the
  /// font has no shape for is blank.
  public static func render(
    text: String, layout: SegmentLayout, tokens: DesignTokens, timeOfDay: TimeOfDay
  ) -> SegmentFrame {
    func digitCount(_ characters: [Character]) -> Int {
      characters.filter { $0 != "." && $0 != ":" }.count
    }
    var characters = Array(text)
    if digitCount(characters) > layout.digitCount { characters.removeAll { $0 == " " } }
    while digitCount(characters) > layout.digitCount || characters.first == "."
      || characters.first == ":"
    {
      characters.removeFirst()
    }
    var digits: [Segments] = []
    for character in characters {
      if character == "." || character == ":" {
        if digits.isEmpty { digits.append(.blank) }
        digits[digits.count - 1].insert(.dp)
      } else {
        digits.append(SegmentFont.segments(for: character) ?? .blank)
      }
    }
    digits = [Segments](repeating: .blank, count: max(0, layout.digitCount - digits.count)) + digits
    return SegmentFrame(
      digits: digits, colonsLit: [],
      brightnessPercent: tokens.brightness(atMinuteOfDay: timeOfDay.minuteOfDay))
  }

  /// The period of whatever blinks on this display now, in milliseconds, or nil when nothing
  /// does: an output asks for frames at its half periods.
  public static func blinkPeriodMilliseconds(
    _ snapshot: WorkoutSnapshot, options: SegmentDisplayOptions, tokens: DesignTokens
  ) -> Int? {
    let layout = options.layout
    let period: Int
    if snapshot.mode == .clock {
      guard !layout.colonsAfter.isEmpty else { return nil }
      period = tokens.blink.colonPeriodMilliseconds
    } else if snapshot.runState == .paused {
      period = tokens.blink.pausePeriodMilliseconds
    } else if snapshot.runState == .finished, (layout.counter?.count ?? 0) < 3,
      (layout.time?.count ?? 0) >= 3
    {
      period = tokens.blink.pausePeriodMilliseconds
    } else {
      return nil
    }
    return period > 0 ? period : nil
  }

  // MARK: time field

  /// A workout time on the time field's groups, right-aligned, per the rules above.
  static func durationCharacters(_ groups: [SegmentLayout.TimeGroup], seconds: Int64)
    -> [Character]
  {
    let width = groups.reduce(0) { $0 + $1.positions.count }
    let value = max(0, seconds)
    var units = groups.map(\.unit)
    if units == [.hour, .minute] { units = [.minute, .second] }
    while true {
      let top = Int64(units[0].rawValue)
      let topDigits = groups[0].positions.count
      if value / top < power(10, topDigits) {
        var text = paddedNumber(value / top, width: topDigits, pad: " ")
        for (group, unit) in zip(groups.dropFirst(), units.dropFirst()) {
          text += paddedNumber(
            value / Int64(unit.rawValue) % 60, width: group.positions.count, pad: "0")
        }
        return text
      }
      guard units.count > 1, let shifted = shiftCoarser(units) else {
        return [Character](repeating: "-", count: width)
      }
      units = shifted
    }
  }

  private static func shiftCoarser(_ units: [SegmentLayout.TimeUnit]) -> [SegmentLayout.TimeUnit]? {
    var result: [SegmentLayout.TimeUnit] = []
    for unit in units {
      guard let coarser = unit.coarser else { return nil }
      result.append(coarser)
    }
    return result
  }

  /// The time of day on the time field's groups.
  static func clockCharacters(
    _ groups: [SegmentLayout.TimeGroup], timeOfDay: TimeOfDay, face: ClockFace
  ) -> [Character] {
    var units = groups.map(\.unit)
    if units.count == 2 { units = [.hour, .minute] }
    let hour24 = ((timeOfDay.hour % 24) + 24) % 24
    var text: [Character] = []
    for (index, (group, unit)) in zip(groups, units).enumerated() {
      let width = group.positions.count
      let value: Int64
      var pad: Character = "0"
      switch unit {
      case .hour:
        if face.twentyFourHour {
          value = Int64(hour24)
        } else {
          value = Int64(hour24 % 12 == 0 ? 12 : hour24 % 12)
          pad = " "
        }
      case .minute: value = Int64(((timeOfDay.minute % 60) + 60) % 60)
      case .second: value = Int64(((timeOfDay.second % 60) + 60) % 60)
      }
      if index == 0, value >= power(10, width) {
        text += [Character](repeating: "-", count: width)
      } else {
        text += paddedNumber(value % power(10, width), width: width, pad: pad)
      }
    }
    return text
  }

  // MARK: counter field

  static func counterCharacters(
    _ snapshot: WorkoutSnapshot, width: Int, options: SegmentDisplayOptions
  ) -> [Character] {
    let blank = [Character](repeating: " ", count: width)
    switch snapshot.runState {
    case .idle:
      return blank
    case .countIn:
      return width >= 3 ? rightAligned(Array("PrE"), width: width) : blank
    case .finished:
      if width >= 3 { return rightAligned(Array(finishTag(snapshot)), width: width) }
    case .running, .paused:
      if width >= 2, snapshot.segmentKind == .work, snapshot.elapsed < .seconds(1),
        snapshot.mode != .clock
      {
        return rightAligned(Array("GO"), width: width)
      }
      if width >= 3, snapshot.segmentKind == .rest {
        return rightAligned(Array("rSt"), width: width)
      }
      if width >= 3, snapshot.segmentKind == .setRest {
        return rightAligned(Array("SEt"), width: width)
      }
    }
    return number(snapshot, width: width, options: options)
  }

  private static func number(
    _ snapshot: WorkoutSnapshot, width: Int, options: SegmentDisplayOptions
  ) -> [Character] {
    let blank = [Character](repeating: " ", count: width)
    switch snapshot.mode {
    case .clock:
      return blank
    case .forTime, .amrap:
      // A rep scheme's round shows its reps (21, 15, 9); an AMRAP its score, the rounds done
      // (blank before the first lap); rounds for time the round under way, as interval modes.
      if let reps = snapshot.targetReps { return fitted(Int64(reps), width: width) }
      guard let round = snapshot.round else { return blank }
      if TimeText.isLapTally(snapshot) { return fitted(Int64(round.index), width: width) }
      return roundDigits(round, width: width, options: options)
    case .tempo:
      guard let rep = snapshot.rep ?? snapshot.set else { return blank }
      if width >= 3, let set = snapshot.set, snapshot.rep != nil {
        let setPart = fitted(Int64(set.index), width: width - 2)
        return setPart + fitted(Int64(rep.index), width: 2, pad: "0")
      }
      return fitted(Int64(rep.index), width: width)
    case .emom, .intervals, .tabata, .sequence:
      guard let round = snapshot.round else { return blank }
      return roundDigits(round, width: width, options: options)
    }
  }

  private static func roundDigits(
    _ round: Counter, width: Int, options: SegmentDisplayOptions
  ) -> [Character] {
    var value = round.index
    if options.rounds == .remaining, let count = round.count { value = count - round.index + 1 }
    let digits = fitted(Int64(value), width: width)
    if options.roundPrefix, width >= 2, String(value).count < width {
      return ["r"] + fitted(Int64(value), width: width - 1)
    }
    return digits
  }

  private static func finishTag(_ snapshot: WorkoutSnapshot) -> String {
    snapshot.finishReason == .capped ? "CAP" : "End"
  }

  // MARK: text helpers

  private static func fitted(_ value: Int64, width: Int, pad: Character = " ") -> [Character] {
    guard value >= 0, value < power(10, width) else {
      return [Character](repeating: "-", count: width)
    }
    return paddedNumber(value, width: width, pad: pad)
  }

  private static func paddedNumber(_ value: Int64, width: Int, pad: Character) -> [Character] {
    let digits = Array(String(value))
    guard digits.count < width else { return Array(digits.suffix(width)) }
    return [Character](repeating: pad, count: width - digits.count) + digits
  }

  private static func rightAligned(_ text: [Character], width: Int) -> [Character] {
    guard text.count < width else { return Array(text.prefix(width)) }
    return [Character](repeating: " ", count: width - text.count) + text
  }

  private static func power(_ base: Int64, _ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<min(exponent, 18) { result *= base }
    return result
  }
}

/// Which digits to write: the positions whose segments differ from what the display shows.
public enum SegmentDiff {
  /// The positions of `next` that differ from `previous`; every position when nothing was
  /// written before or the digit count changed.
  public static func changedPositions(from previous: [UInt8]?, to next: [UInt8]) -> [Int] {
    guard let previous, previous.count == next.count else { return Array(next.indices) }
    return next.indices.filter { previous[$0] != next[$0] }
  }

  /// Positions grouped into runs of consecutive ones: `[1, 2, 3, 5]` → `[1..<4, 5..<6]`. One
  /// auto-incrementing write per run touches only changed digits.
  public static func runs(_ positions: [Int]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for position in positions.sorted() {
      if let last = result.last, last.upperBound == position {
        result[result.count - 1] = last.lowerBound..<(position + 1)
      } else {
        result.append(position..<(position + 1))
      }
    }
    return result
  }
}
