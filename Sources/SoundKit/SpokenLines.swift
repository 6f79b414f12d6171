// SPDX-License-Identifier: MIT
// What the speaker says, per language: the seeds' voice cues (WODrounds' get ready, halfway,
// ten seconds, 3-2-1, rounds remaining and completion lines; TempoRep's "Down, 2, 3, 4",
// "Hold", "Up", "Rest"), written as a coach would call them, for a synthesizer to speak.

import DisplayKit

/// Every line the speaker may say. Raw values are the config keys and never change.
public enum LineKey: String, Sendable, Hashable, Codable, CaseIterable {
  case getReady = "get_ready"
  case go
  case halfway
  case tenSeconds = "ten_seconds"
  case one, two, three, four, five, six, seven, eight, nine
  /// Rounds left, counting the one that starts: `{n}` stands for the number.
  case roundsRemaining = "rounds_remaining"
  /// Said instead when one round is left.
  case lastRound = "last_round"
  case rest
  case down
  case hold
  case up
  case sideSwitch = "side_switch"
  case setComplete = "set_complete"
  case lap
  case cap
  /// Said with the rest's or the count-in's line before a workout's next movement, as in
  /// "Rest. Next: 10 burpees".
  case next
  /// The end of the workout: one of these, picked by the cue's instant.
  case complete1 = "complete_1"
  case complete2 = "complete_2"
  case complete3 = "complete_3"
  case complete4 = "complete_4"

  /// The number words, one to nine (TempoRep counts up to a 9 s phase).
  public static let numbers: [LineKey] = [
    .one, .two, .three, .four, .five, .six, .seven, .eight, .nine,
  ]
  /// The completion lines the end picks from.
  public static let completions: [LineKey] = [.complete1, .complete2, .complete3, .complete4]
}

/// The spoken lines of one language, with any per-gym overrides applied.
public struct SpokenLines: Sendable, Hashable {
  /// The language the lines started from (the display language).
  public let language: Language
  /// Every key has a non-blank line.
  public private(set) var lines: [LineKey: String]
  /// The movements of the workout loaded, which the rest and the count-in announce ("Rest.
  /// Next: 10 burpees"): their lines are voiced with the others.
  public var movements: [String] = []

  /// The built-in lines of a language.
  public init(language: Language) {
    self.language = language
    self.lines = Self.builtIn(language)
  }

  /// The line for a key.
  public subscript(key: LineKey) -> String { lines[key] ?? key.rawValue }

  /// A copy with some lines replaced. Blank overrides are ignored, so a cue never goes silent
  /// because of a config slip (as display words).
  public func with(overrides: [LineKey: String]) -> SpokenLines {
    var copy = self
    for (key, line) in overrides where !line.allSatisfy(\.isWhitespace) { copy.lines[key] = line }
    return copy
  }

  /// The number 1 ... 9 as a word, or nil outside.
  public func number(_ value: Int) -> String? {
    guard (1...LineKey.numbers.count).contains(value) else { return nil }
    return self[LineKey.numbers[value - 1]]
  }

  /// "5 rounds to go", "Last round" for one; nil for none or fewer.
  public func roundsRemaining(_ count: Int) -> String? {
    guard count >= 1 else { return nil }
    if count == 1 { return self[.lastRound] }
    return Self.filling(self[.roundsRemaining], with: count)
  }

  /// One of the completion lines, picked by `seed` (the cue's instant, say), never by a global
  /// random generator: the same seed gives the same line.
  public func completion(seed: Int64) -> String {
    // SplitMix64's finaliser, so neighbouring instants do not walk the lines in order.
    var value = UInt64(bitPattern: seed) &+ 0x9E37_79B9_7F4A_7C15
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    value ^= value >> 31
    return self[LineKey.completions[Int(value % UInt64(LineKey.completions.count))]]
  }

  /// A rest's or a count-in's line with the movement that comes after it: "Rest. Next: 10
  /// burpees".
  public func announcing(_ line: String, next movement: String) -> String {
    "\(line). \(self[.next]): \(movement)"
  }

  /// Every distinct text the cues can say, for the synthesizer to render at start, with the
  /// rounds-remaining lines of `roundsRemaining` (the counts the workouts announce) and the
  /// announcements of the workout's movements.
  public func allTexts(roundsRemaining: [Int]) -> [String] {
    var texts: [String] = []
    var seen: Set<String> = []
    func add(_ text: String) { if seen.insert(text).inserted { texts.append(text) } }
    for key in LineKey.allCases where key != .roundsRemaining && key != .next { add(self[key]) }
    for count in roundsRemaining { if let line = self.roundsRemaining(count) { add(line) } }
    for movement in movements {
      add(announcing(self[.rest], next: movement))
      add(announcing(self[.getReady], next: movement))
    }
    return texts
  }

  /// Every distinct text, with the rounds-remaining counts the engine announces by default.
  public var allTexts: [String] { allTexts(roundsRemaining: [10, 5, 2]) }

  static func filling(_ template: String, with count: Int) -> String {
    var result = ""
    var index = template.startIndex
    while index < template.endIndex {
      if template[index...].hasPrefix("{n}") {
        result += "\(count)"
        index = template.index(index, offsetBy: 3)
      } else {
        result.append(template[index])
        index = template.index(after: index)
      }
    }
    return result
  }

  // As a coach calls them in each country; the number words are spelled out so that every
  // synthesizer says them in the language, and the numbers of rounds are digits, which it
  // reads as numbers.
  private static func builtIn(_ language: Language) -> [LineKey: String] {
    switch language {
    case .english:
      return [
        .getReady: "Get ready", .go: "Go", .halfway: "Halfway", .tenSeconds: "Ten seconds",
        .one: "One", .two: "Two", .three: "Three", .four: "Four", .five: "Five", .six: "Six",
        .seven: "Seven", .eight: "Eight", .nine: "Nine",
        .roundsRemaining: "{n} rounds to go", .lastRound: "Last round", .rest: "Rest",
        .down: "Down", .hold: "Hold", .up: "Up", .sideSwitch: "Switch sides",
        .setComplete: "Set complete", .lap: "Lap", .cap: "Time cap", .next: "Next",
        .complete1: "Workout complete. Great job!", .complete2: "That's it. Well done!",
        .complete3: "Done. Strong work today!", .complete4: "Finished. Nice work!",
      ]
    case .danish:
      return [
        .getReady: "Gør klar", .go: "Start", .halfway: "Halvvejs", .tenSeconds: "Ti sekunder",
        .one: "En", .two: "To", .three: "Tre", .four: "Fire", .five: "Fem", .six: "Seks",
        .seven: "Syv", .eight: "Otte", .nine: "Ni",
        .roundsRemaining: "{n} runder tilbage", .lastRound: "Sidste runde", .rest: "Pause",
        .down: "Ned", .hold: "Hold", .up: "Op", .sideSwitch: "Skift side",
        .setComplete: "Sæt færdigt", .lap: "Omgang", .cap: "Tiden er gået", .next: "Næste",
        .complete1: "Træningen er slut. Godt arbejde!", .complete2: "Det var det. Flot klaret!",
        .complete3: "Færdig. Stærkt gået i dag!", .complete4: "Slut. Godt gået!",
      ]
    case .spanish:
      return [
        .getReady: "Prepárate", .go: "¡Vamos!", .halfway: "A la mitad",
        .tenSeconds: "Diez segundos",
        .one: "Uno", .two: "Dos", .three: "Tres", .four: "Cuatro", .five: "Cinco", .six: "Seis",
        .seven: "Siete", .eight: "Ocho", .nine: "Nueve",
        .roundsRemaining: "Quedan {n} rondas", .lastRound: "Última ronda", .rest: "Descanso",
        .down: "Baja", .hold: "Mantén", .up: "Sube", .sideSwitch: "Cambia de lado",
        .setComplete: "Serie completa", .lap: "Vuelta", .cap: "Tiempo límite", .next: "Siguiente",
        .complete1: "Entrenamiento completo. ¡Buen trabajo!",
        .complete2: "¡Eso es todo! Bien hecho.",
        .complete3: "¡Terminado! Excelente trabajo hoy.", .complete4: "¡Listo! Muy bien.",
      ]
    case .dutch:
      return [
        .getReady: "Maak je klaar", .go: "Start", .halfway: "Halverwege",
        .tenSeconds: "Tien seconden",
        .one: "Een", .two: "Twee", .three: "Drie", .four: "Vier", .five: "Vijf", .six: "Zes",
        .seven: "Zeven", .eight: "Acht", .nine: "Negen",
        .roundsRemaining: "Nog {n} rondes", .lastRound: "Laatste ronde", .rest: "Rust",
        .down: "Omlaag", .hold: "Vasthouden", .up: "Omhoog", .sideSwitch: "Wissel van kant",
        .setComplete: "Set klaar", .lap: "Ronde", .cap: "Tijdlimiet", .next: "Volgende",
        .complete1: "Training voltooid. Goed gedaan!", .complete2: "Dat was het. Sterk werk!",
        .complete3: "Klaar. Lekker bezig vandaag!", .complete4: "Klaar. Top gedaan!",
      ]
    case .french:
      return [
        .getReady: "Préparez-vous", .go: "Partez", .halfway: "Mi-parcours",
        .tenSeconds: "Dix secondes",
        .one: "Un", .two: "Deux", .three: "Trois", .four: "Quatre", .five: "Cinq", .six: "Six",
        .seven: "Sept", .eight: "Huit", .nine: "Neuf",
        .roundsRemaining: "Encore {n} rounds", .lastRound: "Dernier round", .rest: "Repos",
        .down: "Descente", .hold: "Maintien", .up: "Montée", .sideSwitch: "Changez de côté",
        .setComplete: "Série terminée", .lap: "Tour", .cap: "Temps limite", .next: "Ensuite",
        .complete1: "Séance terminée. Beau travail !", .complete2: "C'est fini. Bien joué !",
        .complete3: "Terminé. Excellent travail aujourd'hui !", .complete4: "Bravo, c'est fini !",
      ]
    case .german:
      return [
        .getReady: "Mach dich bereit", .go: "Los", .halfway: "Halbzeit",
        .tenSeconds: "Zehn Sekunden",
        .one: "Eins", .two: "Zwei", .three: "Drei", .four: "Vier", .five: "Fünf", .six: "Sechs",
        .seven: "Sieben", .eight: "Acht", .nine: "Neun",
        .roundsRemaining: "Noch {n} Runden", .lastRound: "Letzte Runde", .rest: "Pause",
        .down: "Ab", .hold: "Halten", .up: "Auf", .sideSwitch: "Seite wechseln",
        .setComplete: "Satz geschafft", .lap: "Runde", .cap: "Zeitlimit", .next: "Als Nächstes",
        .complete1: "Training beendet. Gute Arbeit!", .complete2: "Das war's. Stark gemacht!",
        .complete3: "Fertig. Starke Leistung heute!", .complete4: "Geschafft. Super!",
      ]
    }
  }
}
