// SPDX-License-Identifier: MIT

/// A colour written `#rrggbb` or `#rgb`, 8 bits per channel.
public struct RGBColor: Sendable, Equatable, Hashable {
  /// Red, 0–255.
  public var red: UInt8
  /// Green, 0–255.
  public var green: UInt8
  /// Blue, 0–255.
  public var blue: UInt8

  /// Creates a colour from its channels.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }
}

/// A wall-clock time without a date, such as the `21:00` at which a display dims.
public struct TimeOfDay: Sendable, Equatable, Hashable, Comparable {
  /// 0–23.
  public var hour: Int
  /// 0–59.
  public var minute: Int

  /// Creates a time; callers keep `hour` in 0–23 and `minute` in 0–59.
  public init(hour: Int, minute: Int) {
    self.hour = hour
    self.minute = minute
  }

  /// Minutes since midnight, 0–1439.
  public var minutesSinceMidnight: Int { hour * 60 + minute }

  /// Orders by time of day.
  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
  }
}

/// Parsers for the value syntaxes of wodclock configuration files. Each reads a scalar's text
/// (its quoting does not matter) and returns the value, or a diagnostic underlining the scalar,
/// with a hint showing a correct spelling.
public enum ValueSyntax {
  // MARK: Durations

  /// What a duration times, which decides how a bare number's hint reads it.
  public enum DurationKind: Sendable {
    /// A short stretch (a rest, a count-in, a beep): `20` most likely means seconds.
    case segment
    /// A whole workout or a round of one (an AMRAP's `time`, a `cap`, an EMOM's `interval`):
    /// coaches say "AMRAP 20" and mean minutes.
    case workoutLength
  }

  /// Reads a duration: `20s`, `1m30s`, `90s`, `2h`, `1h30m`, `500ms`, `1.5s`, `20min`,
  /// `20 mins` (units from hours down to milliseconds, each at most once, a space allowed
  /// before a unit), or clock style `1:30` (m:ss) and `1:02:03` (h:mm:ss). A bare number is
  /// refused: `90` could mean seconds or minutes; the hint reads it as `kind` suggests.
  public static func duration(_ scalar: Scalar, of kind: DurationKind = .segment)
    -> Result<Duration, Diagnostic>
  {
    let text = scalar.text
    let fail = { (message: String, hint: String?) -> Result<Duration, Diagnostic> in
      .failure(.error(message, at: scalar.range, hint: hint))
    }
    if text.isEmpty {
      return fail("expected a duration like '20s' or '1:30', found nothing", "write e.g. '20s'")
    }
    if text.hasPrefix("-") {
      return fail("a duration cannot be negative, found '\(text)'", nil)
    }
    let bytes = Array(text.utf8)
    if bytes.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }),
      bytes.contains(where: isDigit)
    {
      return fail("a duration needs a unit", bareNumberHint(text, kind))
    }
    if bytes.contains(UInt8(ascii: ":")) {
      return clockDuration(bytes, text: text).mapError {
        .error($0.message, at: scalar.range, hint: $0.hint)
      }
    }
    return unitDuration(bytes, text: text).mapError {
      .error($0.message, at: scalar.range, hint: $0.hint)
    }
  }

  /// A message and hint waiting for a location.
  private struct Problem: Error {
    var message: String
    var hint: String?
  }

  private static func bareNumberHint(_ text: String, _ kind: DurationKind) -> String {
    switch kind {
    case .segment:
      guard let seconds = Int(text) else { return "write '\(text)s'" }
      return "write '\(seconds)s' or '\(clockText(seconds))'"
    case .workoutLength:
      // Nine digits at most, so the seconds cannot overflow.
      guard let minutes = Int(text), text.utf8.count <= 9 else { return "write '\(text)m'" }
      return "write '\(minutes)m' or '\(clockText(minutes * 60))'"
    }
  }

  /// `m:ss` below an hour, `h:mm:ss` from one.
  private static func clockText(_ seconds: Int) -> String {
    func twoDigits(_ value: Int) -> String { (value < 10 ? "0" : "") + "\(value)" }
    let hours = seconds / 3600
    let minutes = seconds / 60 % 60
    if hours > 0 { return "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds % 60))" }
    return "\(minutes):\(twoDigits(seconds % 60))"
  }

  /// `m:ss` or `h:mm:ss`.
  private static func clockDuration(_ bytes: [UInt8], text: String) -> Result<Duration, Problem> {
    let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    let expected = "expected a duration like '1:30' (m:ss) or '1:02:03' (h:mm:ss), found '\(text)'"
    guard parts.count == 2 || parts.count == 3,
      parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(isDigit) }),
      parts.dropFirst().allSatisfy({ $0.count == 2 })
    else {
      return .failure(Problem(message: expected, hint: nil))
    }
    let values = parts.map { decimalValue($0) }
    for (position, value) in values.enumerated().dropFirst() where value > 59 {
      let unit = position == values.count - 1 ? "seconds" : "minutes"
      return .failure(Problem(message: "\(unit) must be between 00 and 59 in '\(text)'", hint: nil))
    }
    let seconds = values.reduce(0) { $0 * 60 + $1 }
    return .success(.seconds(seconds))
  }

  /// `1h30m`, `1.5s`, `500ms`...: number-unit pairs from the largest unit to the smallest.
  private static func unitDuration(_ bytes: [UInt8], text: String) -> Result<Duration, Problem> {
    // `min` and `mins` are minutes as the whiteboard writes them; a rank orders the units.
    let units: [(name: String, milliseconds: Int, rank: Int)] = [
      ("h", 3_600_000, 0), ("m", 60_000, 1), ("min", 60_000, 1), ("mins", 60_000, 1),
      ("s", 1000, 2), ("ms", 1, 3),
    ]
    let expected = "expected a duration like '20s', '1m30s' or '1:30', found '\(text)'"
    var index = 0
    var total = 0
    var previousUnit = -1
    while index < bytes.count {
      let numberStart = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      let integerDigits = bytes[numberStart..<index]
      var fractionDigits: ArraySlice<UInt8> = []
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        let fractionStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        fractionDigits = bytes[fractionStart..<index]
        if fractionDigits.isEmpty { return .failure(Problem(message: expected, hint: nil)) }
      }
      guard !integerDigits.isEmpty, integerDigits.count <= 9, fractionDigits.count <= 9 else {
        return .failure(Problem(message: expected, hint: nil))
      }
      let number = String(decoding: bytes[numberStart..<index], as: UTF8.self)
      // `20 min`: spaces may stand between a number and its unit.
      while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
      let unitStart = index
      while index < bytes.count, isLetter(bytes[index]) { index += 1 }
      let unitText = String(decoding: bytes[unitStart..<index], as: UTF8.self)
      while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
      if unitText.isEmpty {
        if index < bytes.count { return .failure(Problem(message: expected, hint: nil)) }
        return .failure(
          Problem(
            message: "a duration needs a unit after '\(number)' in '\(text)'",
            hint: "write '\(text)s'"))
      }
      guard let unitIndex = units.firstIndex(where: { $0.name == unitText }) else {
        return .failure(
          Problem(
            message: "unknown duration unit '\(unitText)' in '\(text)'",
            hint: "use h, m (or min), s or ms, as in '1m30s', '20 min' or '500ms'"))
      }
      let rank = units[unitIndex].rank
      guard rank > previousUnit else {
        return .failure(
          Problem(
            message:
              "duration units must go from hours down to milliseconds, each once, in '\(text)'",
            hint: "write e.g. '1h30m' or '1m30s'"))
      }
      previousUnit = rank
      let scale = units[unitIndex].milliseconds
      var fraction = 0
      var divisor = 1
      for digit in fractionDigits {
        fraction = fraction * 10 + Int(digit - UInt8(ascii: "0"))
        divisor *= 10
      }
      guard (fraction * scale) % divisor == 0 else {
        return .failure(
          Problem(message: "durations are precise to the millisecond, found '\(text)'", hint: nil))
      }
      total += decimalValue(integerDigits) * scale + fraction * scale / divisor
    }
    return .success(.milliseconds(total))
  }

  // MARK: Colours

  /// Reads `#rrggbb` or `#rgb` (each digit doubled, as in CSS). Returns nil when the text does
  /// not start with `#`, so the caller can try a palette name; a diagnostic when it does but is
  /// malformed.
  public static func hexColor(_ scalar: Scalar) -> Result<RGBColor, Diagnostic>? {
    let bytes = Array(scalar.text.utf8)
    guard bytes.first == UInt8(ascii: "#") else { return nil }
    let values = bytes.dropFirst().compactMap(hexDigit)
    guard values.count == bytes.count - 1, values.count == 3 || values.count == 6 else {
      return .failure(
        .error(
          "expected a colour like '#ff8800' or '#f80', found '\(scalar.text)'", at: scalar.range,
          hint: "write '#' and six hexadecimal digits (red, green, blue)"))
    }
    if values.count == 3 {
      return .success(
        RGBColor(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17))
    }
    return .success(
      RGBColor(
        red: values[0] << 4 | values[1], green: values[2] << 4 | values[3],
        blue: values[4] << 4 | values[5]))
  }

  // MARK: Percentages

  /// Reads a whole percentage such as `80%`, between 0 and 100. `name` is the setting's key,
  /// used in the out-of-range message.
  public static func percentage(_ scalar: Scalar, name: String) -> Result<Int, Diagnostic> {
    let text = scalar.text
    guard text.hasSuffix("%") else {
      let hint = Int(text).map { "write '\($0)%'" }
      return .failure(
        .error(
          "expected a percentage like '80%', found '\(text)'", at: scalar.range, hint: hint))
    }
    let number = String(text.dropLast())
    guard let value = Int(number) else {
      let isDecimal = Double(number) != nil
      return .failure(
        .error(
          isDecimal
            ? "a percentage must be a whole number, found '\(text)'"
            : "expected a percentage like '80%', found '\(text)'", at: scalar.range))
    }
    guard (0...100).contains(value) else {
      return .failure(
        .error("'\(name)' must be between 0% and 100%, got \(text)", at: scalar.range))
    }
    return .success(value)
  }

  // MARK: Times of day

  /// Reads a 24-hour time of day: `21:00`, `06:30` or `6:30`.
  public static func timeOfDay(_ scalar: Scalar) -> Result<TimeOfDay, Diagnostic> {
    let text = scalar.text
    let parts = Array(text.utf8).split(
      separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy(isDigit) })
    else {
      return .failure(
        .error(
          "expected a time of day like '06:30' or '21:00', found '\(text)'", at: scalar.range,
          hint: "write hours (0–23), ':' and two digits of minutes"))
    }
    let hour = decimalValue(parts[0])
    let minute = decimalValue(parts[1])
    guard hour <= 23 else {
      return .failure(.error("hour must be between 0 and 23 in '\(text)'", at: scalar.range))
    }
    guard minute <= 59 else {
      return .failure(.error("minutes must be between 00 and 59 in '\(text)'", at: scalar.range))
    }
    return .success(TimeOfDay(hour: hour, minute: minute))
  }

  // MARK: Booleans

  /// Reads a YAML 1.2 core-schema boolean (§10.3.2): `true`, `True`, `TRUE`, `false`, `False`,
  /// `FALSE`. The YAML 1.1 words (`yes`, `no`, `on`, `off`, `y`, `n`) are refused with a hint,
  /// because editors and tools disagree about them.
  public static func boolean(_ scalar: Scalar) -> Result<Bool, Diagnostic> {
    switch scalar.text {
    case "true", "True", "TRUE": return .success(true)
    case "false", "False", "FALSE": return .success(false)
    default: break
    }
    let text = scalar.text
    switch text.lowercased() {
    case "yes", "on", "y":
      return .failure(
        .error(
          "expected true or false, found '\(text)'", at: scalar.range,
          hint: "write 'true'; only YAML 1.1 tools read '\(text)' as a boolean"))
    case "no", "off", "n":
      return .failure(
        .error(
          "expected true or false, found '\(text)'", at: scalar.range,
          hint: "write 'false'; only YAML 1.1 tools read '\(text)' as a boolean"))
    default:
      return .failure(.error("expected true or false, found '\(text)'", at: scalar.range))
    }
  }

  // MARK: Integers

  /// Reads a whole number within `range`; `name` is the setting's key, used in messages such as
  /// "'rounds' must be between 1 and 999, got 0".
  public static func integer(_ scalar: Scalar, name: String, in range: ClosedRange<Int>)
    -> Result<Int, Diagnostic>
  {
    let text = scalar.text
    let bytes = Array(text.utf8)
    let digits =
      bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+")
      ? bytes.dropFirst() : bytes[...]
    guard !digits.isEmpty, digits.allSatisfy(isDigit) else {
      return .failure(.error("'\(name)' must be a whole number, got '\(text)'", at: scalar.range))
    }
    guard let value = Int(text), range.contains(value) else {
      return .failure(
        .error(
          "'\(name)' must be between \(range.lowerBound) and \(range.upperBound), got \(text)",
          at: scalar.range))
    }
    return .success(value)
  }

  // MARK: Helpers

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  private static func decimalValue<Digits: Collection<UInt8>>(_ digits: Digits) -> Int {
    digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
