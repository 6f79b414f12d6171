// SPDX-License-Identifier: MIT
// Workouts by name: the benchmark workouts every gym knows (`cindy`, `fran`, `fight gone bad`),
// and the gym's own from the file its config names. A text that is only a name reads as the
// workout, written in the notation with its whiteboard.

import JSONKit
import WorkoutCore

/// A workout known by its name.
public struct NamedWorkout: Sendable, Hashable {
  /// Where it comes from.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// One of CrossFit's benchmark "Girls".
    case girl
    /// A Hero workout, named for a fallen service member.
    case hero
    /// The gym's own, from the config's `workouts` file.
    case gym

    /// `benchmark workout`, `Hero workout`, `workout of this gym`, as a sentence says it.
    public var described: String {
      switch self {
      case .girl: "benchmark workout"
      case .hero: "Hero workout"
      case .gym: "gym's workout"
      }
    }
  }

  /// Its name as the whiteboard writes it: `Fight Gone Bad`.
  public var name: String
  /// The workout in the notation, its whiteboard lines after the first line.
  public var text: String
  public var kind: Kind

  public init(_ name: String, kind: Kind, _ text: String) {
    self.name = name
    self.kind = kind
    self.text = text
  }

  /// The first line of its text: the workout without its whiteboard.
  public var workoutLine: String {
    String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[0])
  }
}

/// Named workouts, found by name whatever the case and whether words are split by spaces,
/// hyphens or underscores (`Fight Gone Bad`, `fight-gone-bad`).
public struct WorkoutLibrary: Sendable, Hashable {
  /// In order: the gym's own first, then the benchmark workouts.
  public private(set) var workouts: [NamedWorkout]
  private var byKey: [String: Int]

  /// A library of `workouts`; of two with the same name the first is kept.
  public init(_ workouts: [NamedWorkout]) {
    self.workouts = []
    byKey = [:]
    for workout in workouts {
      let key = Self.key(workout.name)
      guard byKey[key] == nil else { continue }
      byKey[key] = self.workouts.count
      self.workouts.append(workout)
    }
  }

  /// The benchmark workouts (BenchmarkWorkouts.swift).
  public static let standard = WorkoutLibrary(BenchmarkWorkouts.all)
  /// No workouts by name.
  public static let empty = WorkoutLibrary([])

  /// This library with the gym's own workouts added in front: a name of theirs replaces the
  /// benchmark workout of that name.
  public func adding(_ own: [NamedWorkout]) -> WorkoutLibrary {
    WorkoutLibrary(own + workouts)
  }

  /// The longest name the library looks up; a longer text is never a name.
  public static let maximumNameLength = 64

  /// The workout `text` names, nil when it is no name of the library.
  public func workout(named text: String) -> NamedWorkout? {
    guard text.unicodeScalars.count <= Self.maximumNameLength,
      let index = byKey[Self.key(text)]
    else { return nil }
    return workouts[index]
  }

  /// Whether `a` and `b` are the same name to the library (`fight-gone-bad`, `Fight Gone Bad`).
  public static func sameName(_ a: String, _ b: String) -> Bool { key(a) == key(b) }

  /// A name as the library compares it: lower case, words split by one space.
  static func key(_ name: String) -> String {
    var words: [String] = []
    var word = ""
    for character in name.lowercased() {
      if character == " " || character == "-" || character == "_" || character == "\t" {
        if !word.isEmpty { words.append(word) }
        word = ""
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { words.append(word) }
    return words.joined(separator: " ")
  }
}

extension WorkoutLibrary {
  /// The library as the `presets` reply lists it, for a builder to offer: each workout's
  /// `name`, `kind` (`girl`, `hero`, `gym`), `workout` (its first line), `whiteboard` (the
  /// lines after it, as written), `notation` (the whole text), `mode` and `length_s` (null
  /// when open-ended).
  public var json: JSONValue {
    .array(
      workouts.map { workout -> JSONValue in
        let plan = try? WorkoutNotation.parse(workout.text, library: .empty).get()
        let length = (try? plan?.compile())?.workoutLength
        let lines = workout.text.split(separator: "\n").dropFirst().map {
          JSONValue.string(String($0))
        }
        let mode: JSONValue = plan.map { .string($0.mode.name.rawValue) } ?? .null
        let lengthValue: JSONValue = length.map { .double($0.seconds) } ?? .null
        return .object(
          JSONObject([
            ("name", .string(workout.name)), ("kind", .string(workout.kind.rawValue)),
            ("workout", .string(workout.workoutLine)), ("whiteboard", .array(lines)),
            ("notation", .string(workout.text)), ("mode", mode), ("length_s", lengthValue),
          ]))
      })
  }
}
