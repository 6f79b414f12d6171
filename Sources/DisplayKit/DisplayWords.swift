// SPDX-License-Identifier: MIT
// The words displays show, per language: short, upper case, what a coach would shout.

import WorkoutCore

/// The built-in display languages.
public enum Language: String, Sendable, Hashable, Codable, CaseIterable {
  case english = "en"
  case danish = "da"
  case spanish = "es"
  case dutch = "nl"
  case french = "fr"
  case german = "de"

  /// The ISO 639-1 code the config uses.
  public var code: String { rawValue }

  /// The language's own name, for help text and status output.
  public var name: String {
    switch self {
    case .english: "English"
    case .danish: "Dansk"
    case .spanish: "Español"
    case .dutch: "Nederlands"
    case .french: "Français"
    case .german: "Deutsch"
    }
  }
}

/// Every word a display may show. Raw values are the config keys and never change.
public enum WordKey: String, Sendable, Hashable, Codable, CaseIterable {
  case work
  case rest
  case getReady = "get_ready"
  case setRest = "set_rest"
  case sideSwitch = "side_switch"
  case done
  /// A For Time ended at its cap.
  case cap
  case paused
  case round
  case set
  case rep
  case lap
  case left
  case right
  case down
  case up
  /// The pauses of a tempo rep, at the bottom and at the top.
  case hold
  /// A loaded workout waiting for start.
  case ready
  case forTime = "for_time"
  case amrap
  case emom
  case intervals
  case tabata
  case tempo
  case sequence
  case clock

  /// The title key of a mode (raw values match ``ModeName``'s, so configs read the same).
  public init(mode: ModeName) {
    switch mode {
    case .clock: self = .clock
    case .forTime: self = .forTime
    case .amrap: self = .amrap
    case .emom: self = .emom
    case .intervals: self = .intervals
    case .tabata: self = .tabata
    case .tempo: self = .tempo
    case .sequence: self = .sequence
    }
  }
}

/// The words of one language, with any per-gym overrides applied.
public struct DisplayWords: Sendable, Hashable {
  /// The built-in language the words started from.
  public let language: Language
  /// Every key has a non-empty word.
  public private(set) var words: [WordKey: String]

  /// The built-in words of a language.
  public init(language: Language) {
    self.language = language
    self.words = Self.builtIn(language)
  }

  /// The English words, the default.
  public static let english = DisplayWords(language: .english)

  /// The word for a key.
  public subscript(key: WordKey) -> String { words[key] ?? key.rawValue.uppercased() }

  /// A copy with some words replaced. Empty or all-blank overrides are ignored so a display
  /// never goes silent because of a config slip.
  public func with(overrides: [WordKey: String]) -> DisplayWords {
    var copy = self
    for (key, word) in overrides where !word.allSatisfy(\.isWhitespace) {
      copy.words[key] = word
    }
    return copy
  }

  /// The title of a mode.
  public func title(of mode: ModeName) -> String { self[WordKey(mode: mode)] }

  /// The key of the phase word a snapshot shows (see ``word(for:)``).
  public func key(for snapshot: WorkoutSnapshot) -> WordKey {
    switch snapshot.runState {
    case .finished: return snapshot.finishReason == .capped ? .cap : .done
    case .paused: return .paused
    case .countIn: return .getReady
    case .idle: return snapshot.mode == .clock ? .clock : .ready
    case .running: break
    }
    switch snapshot.segmentKind {
    case .countIn: return .getReady
    case .work, nil: return .work
    case .rest: return .rest
    case .setRest: return .setRest
    case .sideSwitch: return .sideSwitch
    case .bottomPause, .topPause: return .hold
    case .eccentric, .concentric:
      // The engine already swapped the arrow for reverse-direction lifts.
      if let arrow = snapshot.tempo?.arrow { return arrow == .down ? .down : .up }
      return snapshot.segmentKind == .eccentric ? .down : .up
    }
  }

  /// The phase word: WORK, REST, GET READY, DOWN, HOLD, PAUSED, DONE, CAP, READY ...
  public func word(for snapshot: WorkoutSnapshot) -> String { self[key(for: snapshot)] }

  // Gym vocabulary as coaches in each country use it; the long forms stay under about twelve
  // letters so they fit an LED matrix line.
  private static func builtIn(_ language: Language) -> [WordKey: String] {
    switch language {
    case .english:
      return [
        .work: "WORK", .rest: "REST", .getReady: "GET READY", .setRest: "SET REST",
        .sideSwitch: "SWITCH", .done: "DONE", .cap: "CAP", .paused: "PAUSED", .round: "ROUND",
        .set: "SET", .rep: "REP", .lap: "LAP", .left: "LEFT", .right: "RIGHT", .down: "DOWN",
        .up: "UP", .hold: "HOLD", .ready: "READY", .forTime: "FOR TIME", .amrap: "AMRAP",
        .emom: "EMOM", .intervals: "INTERVALS", .tabata: "TABATA", .tempo: "TEMPO",
        .sequence: "SEQUENCE", .clock: "CLOCK",
      ]
    case .danish:
      return [
        .work: "ARBEJD", .rest: "PAUSE", .getReady: "GØR KLAR", .setRest: "SÆTPAUSE",
        .sideSwitch: "SKIFT", .done: "FÆRDIG", .cap: "TIDSGRÆNSE", .paused: "PAUSET",
        .round: "RUNDE", .set: "SÆT", .rep: "REP", .lap: "OMGANG", .left: "VENSTRE",
        .right: "HØJRE", .down: "NED", .up: "OP", .hold: "HOLD", .ready: "KLAR",
        .forTime: "PÅ TID", .amrap: "AMRAP", .emom: "EMOM", .intervals: "INTERVALLER",
        .tabata: "TABATA", .tempo: "TEMPO", .sequence: "SEKVENS", .clock: "UR",
      ]
    case .spanish:
      return [
        .work: "TRABAJO", .rest: "DESCANSO", .getReady: "PREPÁRATE", .setRest: "RECUPERACIÓN",
        .sideSwitch: "CAMBIO", .done: "TERMINADO", .cap: "LÍMITE", .paused: "EN PAUSA",
        .round: "RONDA", .set: "SERIE", .rep: "REP", .lap: "VUELTA", .left: "IZQUIERDA",
        .right: "DERECHA", .down: "BAJA", .up: "SUBE", .hold: "MANTÉN", .ready: "LISTO",
        .forTime: "POR TIEMPO", .amrap: "AMRAP", .emom: "EMOM", .intervals: "INTERVALOS",
        .tabata: "TABATA", .tempo: "TEMPO", .sequence: "SECUENCIA", .clock: "RELOJ",
      ]
    case .dutch:
      // "KLAAR" means both ready and done; Dutch timers say KLAAR at the end, so idle is GEREED.
      return [
        .work: "WERK", .rest: "RUST", .getReady: "MAAK JE KLAAR", .setRest: "SETRUST",
        .sideSwitch: "WISSEL", .done: "KLAAR", .cap: "TIJDLIMIET", .paused: "GEPAUZEERD",
        .round: "RONDE", .set: "SET", .rep: "REP", .lap: "RONDE", .left: "LINKS",
        .right: "RECHTS", .down: "NEER", .up: "OP", .hold: "VASTHOUDEN", .ready: "GEREED",
        .forTime: "OP TIJD", .amrap: "AMRAP", .emom: "EMOM", .intervals: "INTERVALLEN",
        .tabata: "TABATA", .tempo: "TEMPO", .sequence: "REEKS", .clock: "KLOK",
      ]
    case .french:
      return [
        .work: "TRAVAIL", .rest: "REPOS", .getReady: "PRÉPAREZ-VOUS", .setRest: "RÉCUP",
        .sideSwitch: "CHANGEMENT", .done: "TERMINÉ", .cap: "LIMITE", .paused: "EN PAUSE",
        .round: "ROUND", .set: "SÉRIE", .rep: "RÉP", .lap: "TOUR", .left: "GAUCHE",
        .right: "DROITE", .down: "DESCENTE", .up: "MONTÉE", .hold: "MAINTIEN", .ready: "PRÊT",
        .forTime: "CHRONO", .amrap: "AMRAP", .emom: "EMOM", .intervals: "INTERVALLES",
        .tabata: "TABATA", .tempo: "TEMPO", .sequence: "SÉQUENCE", .clock: "HORLOGE",
      ]
    case .german:
      // PAUSE is the rest interval, so the paused clock says PAUSIERT.
      return [
        .work: "ARBEIT", .rest: "PAUSE", .getReady: "VORBEREITEN", .setRest: "SATZPAUSE",
        .sideSwitch: "WECHSEL", .done: "FERTIG", .cap: "ZEITLIMIT", .paused: "PAUSIERT",
        .round: "RUNDE", .set: "SATZ", .rep: "WDH", .lap: "RUNDE", .left: "LINKS",
        .right: "RECHTS", .down: "AB", .up: "AUF", .hold: "HALTEN", .ready: "BEREIT",
        .forTime: "AUF ZEIT", .amrap: "AMRAP", .emom: "EMOM", .intervals: "INTERVALLE",
        .tabata: "TABATA", .tempo: "TEMPO", .sequence: "ABFOLGE", .clock: "UHR",
      ]
    }
  }
}
