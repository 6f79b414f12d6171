// SPDX-License-Identifier: MIT
// TempoRep's model: a four-phase tempo in half-second steps, reps, sets, sides.

/// A four-part lifting tempo such as 4010 (shown ↓4·0·↑1·0): eccentric (lowering), pause at
/// the bottom, concentric (lifting), pause at the top. Each value is counted in half seconds,
/// 0–18 (0–9 s), so ↓3·0·↑1.5·0 is valid.
public struct Tempo: Sendable, Hashable, Codable, CustomStringConvertible {
  public var eccentric: Int
  public var bottomPause: Int
  public var concentric: Int
  public var topPause: Int

  /// Half-second steps allowed in each position (0 to 9 seconds).
  public static let allowedHalfSeconds = 0...18

  public init(halfSeconds values: [Int]) {
    precondition(values.count == 4, "a tempo has four values")
    eccentric = values[0]
    bottomPause = values[1]
    concentric = values[2]
    topPause = values[3]
  }

  public init(eccentric: Int, bottomPause: Int, concentric: Int, topPause: Int) {
    self.eccentric = eccentric
    self.bottomPause = bottomPause
    self.concentric = concentric
    self.topPause = topPause
  }

  /// The four values in the order written.
  public var halfSeconds: [Int] { [eccentric, bottomPause, concentric, topPause] }

  public func value(of phase: TempoPhase) -> Int {
    switch phase {
    case .eccentric: eccentric
    case .bottomPause: bottomPause
    case .concentric: concentric
    case .topPause: topPause
    }
  }

  /// How long a phase lasts. A concentric of 0 means explosive and is timed as 1 s (TempoRep);
  /// other zero-length phases last zero and are skipped.
  public func duration(of phase: TempoPhase) -> TimeSpan {
    let value = value(of: phase)
    if phase == .concentric && value == 0 { return .seconds(1) }
    // Saturating, so asking an unchecked tempo (validation refuses it) cannot trap.
    return TimeSpan.halfSeconds(1).saturatingMultiply(value)
  }

  /// `4-0-1.5-0` style text, whole seconds without a fraction.
  public var description: String {
    halfSeconds.map { $0 % 2 == 0 ? "\($0 / 2)" : "\($0 / 2).5" }.joined(separator: "-")
  }
}

/// The four phases of a rep.
public enum TempoPhase: String, Sendable, Hashable, Codable, CaseIterable {
  case eccentric
  case bottomPause = "bottom_pause"
  case concentric
  case topPause = "top_pause"

  /// Position 0, 1, 2 or 3 in the written tempo.
  public var position: Int {
    switch self {
    case .eccentric: 0
    case .bottomPause: 1
    case .concentric: 2
    case .topPause: 3
    }
  }
}

/// Which side a unilateral set is on.
public enum Side: String, Sendable, Hashable, Codable {
  case left
  case right
}

/// Tempo sets: reps at a tempo, sets with rest between, optionally one side then the other.
public struct TempoParameters: Sendable, Hashable, Codable {
  public enum StartPhase: String, Sendable, Hashable, Codable {
    /// Squat, push-up: lower first.
    case eccentric
    /// Deadlift, pull-up: lift first.
    case concentric
  }

  public var tempo: Tempo
  public var reps: Int
  public var sets: Int
  public var setRest: TimeSpan
  public var startPhase: StartPhase
  /// All reps on one side, a switch pause, all reps on the other side, then the set rest.
  public var unilateral: Bool
  public var switchPause: TimeSpan
  /// Swaps which arrow and word mark which phase (a lat pulldown's concentric pulls down);
  /// never changes timing.
  public var reverseDirection: Bool

  public init(
    tempo: Tempo, reps: Int, sets: Int = 1, setRest: TimeSpan = .seconds(90),
    startPhase: StartPhase = .eccentric, unilateral: Bool = false,
    switchPause: TimeSpan = .seconds(5), reverseDirection: Bool = false
  ) {
    self.tempo = tempo
    self.reps = reps
    self.sets = sets
    self.setRest = setRest
    self.startPhase = startPhase
    self.unilateral = unilateral
    self.switchPause = switchPause
    self.reverseDirection = reverseDirection
  }

  /// The phases of one rep in the order they run.
  public var phaseOrder: [TempoPhase] {
    switch startPhase {
    case .eccentric: [.eccentric, .bottomPause, .concentric, .topPause]
    case .concentric: [.concentric, .topPause, .eccentric, .bottomPause]
    }
  }
}

/// Why a written tempo was refused: what is wrong and, when one helps, how to write it.
public struct TempoSyntaxError: Error, Sendable, Hashable {
  public var message: String
  public var hint: String?
  public init(message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}

extension Tempo {
  /// Reads a tempo as coaches write it: `4010` (one digit per phase, whole seconds) or
  /// `3-0-1.5-0` (values 0–9 in half-second steps). The lift (the third value) may be written
  /// `X`, explosive, as TempoRep writes it: stored as 0, which ``duration(of:)`` times as 1 s.
  /// The one parser of tempo text, for the config's `tempo:` key and the whiteboard notation.
  public static func parse(_ text: String) -> Result<Tempo, TempoSyntaxError> {
    let bytes = Array(text.utf8)
    let formsHint =
      "write one digit per phase, like '4010' or '31X0', or four values separated by '-', "
      + "like '3-0-1.5-0'"
    let fail = { (message: String, hint: String?) -> Result<Tempo, TempoSyntaxError> in
      .failure(TempoSyntaxError(message: message, hint: hint))
    }
    let explosiveOutOfPlace = { (shown: String) -> Result<Tempo, TempoSyntaxError> in
      fail(
        "'X' (explosive) can only be the lift, the third value, found in '\(shown)'",
        "write e.g. '30X0': lower 3 s, no pause, lift explosively, no pause")
    }
    if !bytes.contains(UInt8(ascii: "-")) {
      guard !bytes.isEmpty, bytes.allSatisfy({ isDigit($0) || isExplosive($0) }) else {
        return fail("expected a tempo like '4010' or '3-0-1.5-0', found '\(text)'", formsHint)
      }
      guard bytes.count == 4 else {
        return fail(
          "a tempo needs exactly four digits, found \(bytes.count) in '\(text)'", formsHint)
      }
      var values: [Int] = []
      for (position, byte) in bytes.enumerated() {
        if isExplosive(byte) {
          guard position == TempoPhase.concentric.position else { return explosiveOutOfPlace(text) }
          values.append(0)
        } else {
          values.append(Int(byte - UInt8(ascii: "0")) * 2)
        }
      }
      return .success(Tempo(halfSeconds: values))
    }
    let parts = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
    guard parts.count == 4 else {
      return fail(
        "a tempo has four values (lower, pause, lift, pause), found \(parts.count) in '\(text)'",
        formsHint)
    }
    var halfSeconds: [Int] = []
    for (position, part) in parts.enumerated() {
      let shown = String(decoding: part, as: UTF8.self)
      if part.count == 1, let byte = part.first, isExplosive(byte) {
        guard position == TempoPhase.concentric.position else { return explosiveOutOfPlace(text) }
        halfSeconds.append(0)
        continue
      }
      let pieces = part.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      guard (1...2).contains(pieces.count),
        pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) })
      else {
        return fail(
          "expected a tempo value like '3' or '1.5', found '\(shown)' in '\(text)'", formsHint)
      }
      // More than two digits is out of range whatever they say, and never worth adding up.
      let whole =
        pieces[0].count > 2 ? 100 : pieces[0].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      var half = 0
      if pieces.count == 2 {
        var trimmed = Array(pieces[1])
        while trimmed.last == UInt8(ascii: "0") { trimmed.removeLast() }
        if trimmed == [UInt8(ascii: "5")] {
          half = 1
        } else if !trimmed.isEmpty {
          return fail(
            "tempo values go in half-second steps, found '\(shown)' in '\(text)'",
            "use whole or half seconds, such as '1' or '1.5'")
        }
      }
      let value = whole * 2 + half
      guard allowedHalfSeconds.contains(value) else {
        return fail(
          "each tempo value must be between 0 and 9 seconds, found '\(shown)' in '\(text)'", nil)
      }
      halfSeconds.append(value)
    }
    return .success(Tempo(halfSeconds: halfSeconds))
  }

  /// The tempo as the notation writes it: `31X0` when every value is whole seconds (an
  /// explosive lift as `X`), otherwise `3-0-1.5-0`.
  public var written: String {
    let values = halfSeconds
    guard values.allSatisfy({ $0 % 2 == 0 }) else { return description }
    return values.enumerated().map { position, value in
      position == TempoPhase.concentric.position && value == 0 ? "X" : "\(value / 2)"
    }.joined()
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isExplosive(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "X") || byte == UInt8(ascii: "x")
  }
}
