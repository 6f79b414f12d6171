// SPDX-License-Identifier: MIT
// Composing a workout on a numeric keypad, the way it is written on the whiteboard: digits, then
// a mode key (`14` AMRAP is AMRAP 14:00; `10` × `1` EMOM is 10 rounds every 1:00), then the
// confirm key. One digit and the confirm key load that preset, so presets 1–9 stay one key away.
//
// Pure: it is given each key and the instant it came at; it reads no clock. An unfinished
// composition is dropped `timeout` after its last key.

import WorkoutCore

/// A key of the composer.
public enum ComposerKey: Sendable, Hashable {
  case digit(Int)
  /// "×": from rounds to a length (`10 × 1`), or from work to rest (`8 × 20 × 10`).
  case times
  /// ":": minutes to seconds inside one number (`1:30`).
  case colon
  case mode(ComposerMode)
  /// Loads what is composed (a workout, or the preset of a lone number).
  case confirm
  /// Takes the last key back; with nothing left, cancels.
  case delete
  /// Drops the whole composition.
  case cancel
}

/// The workout kinds a keypad composes.
public enum ComposerMode: String, Sendable, Hashable, CaseIterable {
  /// `T` AMRAP: minutes (or m:ss).
  case amrap
  /// `R` EMOM, or `R × T`: R rounds every T minutes (1:00 when left out).
  case emom
  /// For time, with `T` minutes as the cap (none when left out, or `0`).
  case forTime = "for_time"
  /// `R × W × S`: R rounds of W seconds of work and S of rest; nothing is a Tabata (8 × 20/10).
  case intervals

  /// The letter the displays show in front of the numbers.
  public var letter: Character {
    switch self {
    case .amrap: "A"
    case .emom: "E"
    case .forTime: "F"
    case .intervals: "t"
    }
  }
}

/// What the displays show while composing.
public struct ComposedText: Sendable, Hashable {
  /// For displays with room: `A 14`, `E 10×1`, `t 8×20/10`.
  public var wide: String
  /// For 7-segment digits (their font has no × nor /): the separators are decimal points,
  /// `A 14`, `E 10.1`, `t 8.20.10`. A display too narrow drops the space, then keeps the end.
  public var narrow: String

  public init(wide: String, narrow: String) {
    self.wide = wide
    self.narrow = narrow
  }
}

/// What a key did.
public enum ComposerOutcome: Sendable, Equatable {
  /// The key changed the composition (or was ignored inside it); the displays show `text`.
  case composing
  /// Nothing is being composed and this key does not start anything: its other meaning applies.
  case notComposing
  /// The composition went (cancel, or delete on nothing).
  case cancelled
  /// Confirmed: load the n-th preset.
  case preset(Int)
  /// Confirmed: load this workout, as the whiteboard notation writes it (`amrap 14`,
  /// `emom 10 x 1:00`); the daemon reads it with the notation, as it reads every written one.
  case workout(String)
  /// Confirmed, but it cannot run yet: what is missing, in a few words for the displays.
  case incomplete(String)
}

/// The keys pressed so far and what they mean.
public struct WorkoutComposer: Sendable {
  /// An unfinished composition is dropped this long after its last key (15 s: time to look up
  /// at the board with chalk on the hands, short enough that a stray digit is soon gone).
  public static let defaultTimeout: Int64 = 15_000_000_000
  /// The most digits of one number: up to 999 minutes or rounds, never an overflow.
  public static let maximumDigits = 3
  /// Rounds, then a length, then a rest.
  public static let maximumNumbers = 3

  public let timeout: Int64
  public private(set) var mode: ComposerMode?
  /// The numbers typed, each as its characters (digits and at most one ':').
  private var numbers: [[Character]] = []
  /// When the composition is dropped; nil while nothing is composed.
  public private(set) var deadline: Int64?

  public init(timeout: Int64 = defaultTimeout) {
    self.timeout = timeout
  }

  public var isComposing: Bool { deadline != nil }

  /// Takes one key at `now`.
  public mutating func press(_ key: ComposerKey, at now: Int64) -> ComposerOutcome {
    if let deadline, now >= deadline { clear() }
    if !isComposing {
      switch key {
      case .digit, .mode: break
      default: return .notComposing
      }
    }
    deadline = now + timeout
    switch key {
    case .digit(let digit):
      guard (0...9).contains(digit) else { return .composing }
      if numbers.isEmpty { numbers = [[]] }
      let last = numbers[numbers.count - 1]
      if let colon = last.firstIndex(of: ":") {
        guard last.count - colon - 1 < 2 else { return .composing }
      } else {
        guard last.count < Self.maximumDigits else { return .composing }
      }
      numbers[numbers.count - 1].append(Character(String(digit)))
    case .times:
      guard let last = numbers.last, !last.isEmpty, last.last != ":",
        numbers.count < Self.maximumNumbers
      else { return .composing }
      numbers.append([])
    case .colon:
      guard let last = numbers.last, !last.isEmpty, !last.contains(":") else { return .composing }
      numbers[numbers.count - 1].append(":")
    case .mode(let chosen):
      mode = chosen
    case .delete:
      if var last = numbers.popLast() {
        if !last.isEmpty {
          last.removeLast()
          numbers.append(last)
        }
      } else if mode != nil {
        mode = nil
      }
      if numbers.last?.isEmpty == true, numbers.count == 1 { numbers = [] }
      if numbers.isEmpty && mode == nil {
        clear()
        return .cancelled
      }
    case .cancel:
      clear()
      return .cancelled
    case .confirm:
      return confirmed()
    }
    return .composing
  }

  /// Drops an unfinished composition whose time is up; returns whether it did.
  public mutating func expire(at now: Int64) -> Bool {
    guard let deadline, now >= deadline else { return false }
    clear()
    return true
  }

  /// Forgets everything (after a load, or to start afresh).
  public mutating func clear() {
    mode = nil
    numbers = []
    deadline = nil
  }

  /// What the displays show, nil while nothing is composed.
  public var text: ComposedText? {
    guard isComposing else { return nil }
    var wide = ""
    var narrow = ""
    for (index, number) in numbers.enumerated() {
      if index > 0 {
        wide += mode == .intervals && index == 2 ? "/" : "×"
        narrow += "."
      }
      wide += String(number)
      narrow += String(number)
    }
    if let mode {
      let letter = String(mode.letter)
      wide = wide.isEmpty ? letter : letter + " " + wide
      narrow = narrow.isEmpty ? letter : letter + " " + narrow
    }
    return ComposedText(wide: wide, narrow: narrow)
  }

  // MARK: - The workout

  private func confirmed() -> ComposerOutcome {
    guard let mode else {
      if numbers.count == 1, !numbers[0].contains(":"), let number = Int(String(numbers[0])),
        number > 0
      {
        return .preset(number)
      }
      return .incomplete("press a mode key")
    }
    let text: String?
    switch mode {
    case .amrap:
      text = amrap()
    case .emom:
      text = emom()
    case .forTime:
      text = forTime()
    case .intervals:
      text = intervals()
    }
    guard let text else { return .incomplete(Self.missing[mode] ?? "") }
    return .workout(text)
  }

  /// What a mode needs, said when it is missing.
  private static let missing: [ComposerMode: String] = [
    .amrap: "amrap needs minutes", .emom: "emom needs rounds",
    .forTime: "cap in minutes or nothing", .intervals: "rounds × work × rest",
  ]

  private func amrap() -> String? {
    guard numbers.count == 1, length(numbers[0], unit: 60) != nil else { return nil }
    return "amrap \(Self.written(numbers[0]))"
  }

  private func emom() -> String? {
    guard (1...2).contains(numbers.count), !numbers[0].contains(":"),
      let rounds = Int(String(numbers[0])), rounds > 0
    else { return nil }
    if numbers.count == 1 { return "emom \(rounds)" }
    guard let interval = length(numbers[1], unit: 60) else { return nil }
    return "emom \(rounds) x \(Self.clockText(interval))"
  }

  private func forTime() -> String? {
    switch numbers.count {
    case _ where numbers == [["0"]]:
      // `0` For Time: a keypad whose For Time key does something else while nothing is being
      // composed needs a digit first to start composing.
      fallthrough
    case 0:
      return "for time"
    case 1:
      guard length(numbers[0], unit: 60) != nil else { return nil }
      return "for time cap \(Self.written(numbers[0]))"
    default:
      return nil
    }
  }

  private func intervals() -> String? {
    if numbers.isEmpty { return "tabata" }
    guard numbers.count == 3, !numbers[0].contains(":"), let rounds = Int(String(numbers[0])),
      rounds > 0, length(numbers[1], unit: 1) != nil, length(numbers[2], unit: 1) != nil
    else { return nil }
    return "\(rounds) x \(Self.written(numbers[1]))/\(Self.written(numbers[2]))"
  }

  /// A number as a length: `14` is 14 units (minutes or seconds), `1:30` minutes and seconds.
  /// Nil when it is zero or its seconds are 60 or more.
  private func length(_ number: [Character], unit: Int64) -> TimeSpan? {
    let parts = number.split(separator: ":", omittingEmptySubsequences: false)
    let seconds: Int64
    switch parts.count {
    case 1:
      guard let value = Int64(String(parts[0])) else { return nil }
      seconds = value * unit
    case 2:
      guard let minutes = Int64(String(parts[0])), parts[1].count == 2,
        let rest = Int64(String(parts[1])), rest < 60
      else { return nil }
      seconds = minutes * 60 + rest
    default:
      return nil
    }
    return seconds > 0 ? .seconds(seconds) : nil
  }

  /// A number as it is written back: without leading zeros (`014` is `14`, `01:30` is `1:30`).
  private static func written(_ number: [Character]) -> String {
    let parts = number.split(separator: ":", omittingEmptySubsequences: false)
    let head = String(Int(String(parts[0])) ?? 0)
    return parts.count == 2 ? head + ":" + String(parts[1]) : head
  }

  /// `1:00` for a whole minute, `1:30`, `0:45`.
  private static func clockText(_ span: TimeSpan) -> String {
    let seconds = span.nanoseconds / 1_000_000_000
    let rest = seconds % 60
    return "\(seconds / 60):" + (rest < 10 ? "0" : "") + "\(rest)"
  }
}
