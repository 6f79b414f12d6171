// SPDX-License-Identifier: MIT
// The display sections: language, words and design tokens.

import ConfigFormat
import DisplayKit
import WorkoutCore

extension Loader {
  // MARK: language

  /// English names of the languages, so `language: german` gets a precise hint.
  static let languageNames: [String: Language] = [
    "english": .english, "danish": .danish, "spanish": .spanish, "dutch": .dutch,
    "french": .french, "german": .german,
  ]

  mutating func readLanguage(_ node: ConfigNode?) -> Language {
    guard let node else { return .english }
    let codes = Language.allCases.map(\.code)
    guard
      let scalar = checker.scalar(node, key: "language", expected: "a language code such as 'en'")
    else { return .english }
    if let language = Language(rawValue: scalar.text) { return language }
    let lowered = scalar.text.lowercased()
    let named =
      Self.languageNames[lowered]
      ?? Language.allCases.first { $0.name.lowercased() == lowered || $0.code == lowered }
    let hint =
      named.map { "write '\($0.code)' for \($0.name); languages: \(codes.joined(separator: ", "))" }
      ?? SchemaChecker.suggestion(scalar.text, among: codes, listing: "languages")
    checker.error("unknown language '\(scalar.text)'", at: scalar.range, hint: hint)
    return .english
  }

  // MARK: words

  mutating func readWords(_ node: ConfigNode?) -> [WordKey: String] {
    var overrides: [WordKey: String] = [:]
    guard let node, let mapping = checker.mapping(node, what: "'words'") else { return overrides }
    let keys = WordKey.allCases.map(\.rawValue)
    for entry in mapping.entries {
      guard let key = WordKey(rawValue: entry.key.text) else {
        checker.error(
          "unknown word '\(entry.key.text)'", at: entry.key.range,
          hint: SchemaChecker.suggestion(entry.key.text, among: keys, listing: "words"))
        continue
      }
      guard
        let word = checker.text(entry.value, key: entry.key.text, maximumLength: TextLimits.word)
      else { continue }
      // DisplayWords ignores blank overrides so a display never goes silent; the file should
      // not say something it does not mean, so it is an error here.
      if word.allSatisfy(\.isWhitespace) {
        checker.error(
          "the word for '\(entry.key.text)' is blank", at: entry.value.range,
          hint: "write the word to show, or remove the line to keep the language's word")
        continue
      }
      overrides[key] = word
    }
    return overrides
  }

  // MARK: tokens

  static let tokenKeys = ["palette", "roles", "brightness", "blink"]
  static let brightnessKeys = ["day", "night", "night_from", "night_until"]
  static let blinkKeys = ["colon", "paused", "flash"]
  static let blinkRange = TimeSpan.zero...TimeSpan.seconds(10)

  mutating func readTokens(_ node: ConfigNode?) -> DesignTokens {
    let standard = DesignTokens.standard
    var tokens = standard
    guard let node, let mapping = checker.mapping(node, what: "'tokens'") else { return tokens }
    checker.checkKeys(mapping, allowed: Self.tokenKeys, context: "in 'tokens'")
    if let paletteNode = mapping["palette"] {
      tokens.palette = readPalette(paletteNode)
      palette = tokens.palette
    }
    if let rolesNode = mapping["roles"] {
      tokens.roles = readRoles(rolesNode, palette: tokens.palette)
    }
    if let brightnessNode = mapping["brightness"] {
      tokens.brightness = readBrightness(brightnessNode)
    }
    if let blinkNode = mapping["blink"] {
      tokens.blink = readBlink(blinkNode)
    }
    if !checker.bag.hasErrors {
      // A backstop: DisplayKit's own checks, in case its rules grow beyond the ones above.
      for problem in tokens.validationErrors() {
        checker.error(problem, at: mapping.range)
      }
    }
    return tokens
  }

  /// The file's colours first, in its order, then the standard colours it does not redefine, so
  /// every standard role keeps a colour to refer to.
  mutating func readPalette(_ node: ConfigNode) -> Palette {
    var entries: [(name: String, color: RGB)] = []
    if let mapping = checker.mapping(node, what: "'tokens.palette'") {
      for entry in mapping.entries {
        let name = entry.key.text
        if name.isEmpty || name.hasPrefix("#") || name.contains(" ") {
          checker.error(
            "palette name '\(name)' is not allowed", at: entry.key.range,
            hint: "use a word such as 'green' or 'brand-blue'")
          continue
        }
        guard checker.checkPrintable(entry.key, what: "palette name") else { continue }
        if let color = readHexColor(entry.value, key: name) {
          entries.append((name, RGB(red: color.red, green: color.green, blue: color.blue)))
        }
      }
    }
    var palette = Palette(entries)
    let standard = DesignTokens.standard.palette
    for name in standard.names where palette[name] == nil { palette[name] = standard[name] }
    return palette
  }

  /// A `"#rrggbb"` colour. An unquoted `#` starts a comment, which leaves the key without a
  /// value: the hint says to quote it.
  mutating func readHexColor(_ node: ConfigNode, key: String) -> RGBColor? {
    if node.isEmptyValue {
      checker.error(
        "missing colour for '\(key)'", at: node.range,
        hint: "quote the colour, as in \"#ff8800\": an unquoted '#' starts a comment")
      return nil
    }
    guard
      let scalar = checker.scalar(node, key: key, expected: "a colour such as \"#ff8800\"")
    else { return nil }
    guard let result = ValueSyntax.hexColor(scalar) else {
      checker.error(
        "expected a colour such as \"#ff8800\" for '\(key)', found '\(scalar.text)'",
        at: scalar.range, hint: "write '#' and six hexadecimal digits, in double quotes")
      return nil
    }
    return checker.bag.take(result)
  }

  mutating func readRoles(_ node: ConfigNode, palette: Palette) -> [Role: ColorReference] {
    var roles = DesignTokens.standard.roles
    guard let mapping = checker.mapping(node, what: "'tokens.roles'") else { return roles }
    let roleNames = Role.allCases.map(\.rawValue)
    for entry in mapping.entries {
      guard let role = Role(rawValue: entry.key.text) else {
        checker.error(
          "unknown role '\(entry.key.text)'", at: entry.key.range,
          hint: SchemaChecker.suggestion(entry.key.text, among: roleNames, listing: "roles"))
        continue
      }
      if let reference = readColorReference(entry.value, key: entry.key.text, palette: palette) {
        roles[role] = reference
      }
    }
    return roles
  }

  /// A palette name or a `"#rrggbb"` colour.
  mutating func readColorReference(_ node: ConfigNode, key: String, palette: Palette)
    -> ColorReference?
  {
    if node.isEmptyValue {
      checker.error(
        "missing colour for '\(key)'", at: node.range,
        hint: "write a palette name such as 'green', or a quoted colour such as \"#ff8800\"")
      return nil
    }
    guard
      let scalar = checker.scalar(
        node, key: key, expected: "a palette name or a colour such as \"#ff8800\"")
    else { return nil }
    if let result = ValueSyntax.hexColor(scalar) {
      guard let color = checker.bag.take(result) else { return nil }
      return .literal(RGB(red: color.red, green: color.green, blue: color.blue))
    }
    guard palette[scalar.text] != nil else {
      checker.error(
        "unknown colour '\(scalar.text)' for '\(key)'", at: scalar.range,
        hint: SchemaChecker.suggestion(scalar.text, among: palette.names, listing: "palette"))
      return nil
    }
    return .palette(scalar.text)
  }

  mutating func readBrightness(_ node: ConfigNode) -> BrightnessLevels {
    var levels = DesignTokens.standard.brightness
    guard let mapping = checker.mapping(node, what: "'tokens.brightness'") else { return levels }
    for entry in checker.checkKeys(
      mapping, allowed: Self.brightnessKeys, context: "in 'tokens.brightness'")
    {
      let key = entry.key.text
      switch key {
      case "day", "night":
        guard let percent = checker.percentage(entry.value, key: key) else { continue }
        if key == "day" { levels.dayPercent = percent } else { levels.nightPercent = percent }
      default:
        guard
          let scalar = checker.scalar(
            entry.value, key: key, expected: "a time of day such as '21:00'"),
          let time = checker.bag.take(ValueSyntax.timeOfDay(scalar))
        else { continue }
        let value = DisplayKit.TimeOfDay(hour: time.hour, minute: time.minute)
        if key == "night_from" { levels.nightStart = value } else { levels.nightEnd = value }
      }
    }
    if let from = mapping["night_from"], mapping["night_until"] != nil,
      levels.nightStart == levels.nightEnd
    {
      checker.warning(
        "'night_from' equals 'night_until': the night brightness never applies", at: from.range,
        hint: "set different times, or the same percentage for 'day' and 'night'")
    }
    return levels
  }

  mutating func readBlink(_ node: ConfigNode) -> BlinkRates {
    var rates = DesignTokens.standard.blink
    guard let mapping = checker.mapping(node, what: "'tokens.blink'") else { return rates }
    for entry in checker.checkKeys(mapping, allowed: Self.blinkKeys, context: "in 'tokens.blink'") {
      guard let span = checker.duration(entry.value, key: entry.key.text, in: Self.blinkRange)
      else { continue }
      let milliseconds = Int(span.nanoseconds / 1_000_000)
      switch entry.key.text {
      case "colon": rates.colonPeriodMilliseconds = milliseconds
      case "paused": rates.pausePeriodMilliseconds = milliseconds
      default: rates.cueFlashMilliseconds = milliseconds
      }
    }
    return rates
  }
}
