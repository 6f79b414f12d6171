// SPDX-License-Identifier: MIT
// Typed readers for config values. Each reads one node, reports what is wrong with it at that
// node (what was expected, what was found, the allowed range) and returns nil, so the loader can
// carry on and report every problem of the file in one run.

import ConfigFormat
import WorkoutCore

/// Collects diagnostics while nodes are read as typed values.
struct SchemaChecker {
  var bag = DiagnosticBag(limit: DiagnosticBag.standardLimit)

  // MARK: Describing what was found

  /// "a list", "a mapping", "nothing" or the quoted text, for "expected X, found Y".
  static func found(_ node: ConfigNode) -> String {
    switch node {
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    case .scalar(let scalar): return scalar.isEmptyValue ? "nothing" : "'\(scalar.text)'"
    }
  }

  /// `'a', 'b' or 'c'`, for messages that list what is allowed.
  static func quotedList(_ words: [String], conjunction: String = "or") -> String {
    let quoted = words.map { "'\($0)'" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted.last!
  }

  /// "did you mean 'x'?" when something is close, otherwise nil.
  static func didYouMean(_ word: String, among candidates: [String]) -> String? {
    closestMatch(to: word, among: candidates).map { "did you mean '\($0)'?" }
  }

  /// A did-you-mean when something is close, otherwise the list of what is allowed.
  static func suggestion(_ word: String, among candidates: [String], listing: String) -> String {
    if let match = closestMatch(to: word, among: candidates) {
      return "did you mean '\(match)'? \(listing): \(candidates.joined(separator: ", "))"
    }
    return "\(listing): \(candidates.joined(separator: ", "))"
  }

  // MARK: Reporting

  mutating func error(
    _ message: String, at range: SourceRange, hint: String? = nil, notes: [Diagnostic] = []
  ) {
    bag.error(message, at: range, hint: hint, notes: notes)
  }

  mutating func warning(_ message: String, at range: SourceRange, hint: String? = nil) {
    bag.warning(message, at: range, hint: hint)
  }

  /// The scalar of `node`, or nil after reporting a missing value or a collection where a
  /// scalar (described by `expected`) belongs.
  mutating func scalar(_ node: ConfigNode, key: String, expected: String) -> Scalar? {
    guard case .scalar(let scalar) = node else {
      error("expected \(expected), found \(Self.found(node))", at: node.range)
      return nil
    }
    if scalar.isEmptyValue {
      error("missing value for '\(key)'", at: scalar.range, hint: "write \(expected)")
      return nil
    }
    return scalar
  }

  // MARK: Mappings and keys

  /// The mapping of `node` (an absent value counts as an empty mapping), or nil after reporting
  /// what was found instead. `what` names it in the message ("section 'clock'").
  mutating func mapping(_ node: ConfigNode, what: String, hint: String? = nil) -> ConfigMapping? {
    switch node {
    case .mapping(let mapping):
      return mapping
    case .scalar(let scalar) where scalar.isEmptyValue:
      return ConfigMapping(entries: [], style: .block, range: scalar.range)
    default:
      error(
        "expected a mapping of keys for \(what), found \(Self.found(node))", at: node.range,
        hint: hint ?? "write 'key: value' lines indented below it")
      return nil
    }
  }

  /// Reports each key of `mapping` not in `allowed` as unknown, with a did-you-mean, and returns
  /// the entries whose keys are allowed. `context` ends the message: "in 'clock'".
  @discardableResult
  mutating func checkKeys(
    _ mapping: ConfigMapping, allowed: [String], context: String
  ) -> [MappingEntry] {
    var known: [MappingEntry] = []
    for entry in mapping.entries {
      if allowed.contains(entry.key.text) {
        known.append(entry)
        continue
      }
      let hint =
        Self.didYouMean(entry.key.text, among: allowed)
        ?? "allowed keys: \(allowed.joined(separator: ", "))"
      error("unknown key '\(entry.key.text)' \(context)", at: entry.key.range, hint: hint)
    }
    return known
  }

  // MARK: Values

  /// A duration within `range`: `20s`, `1m30s`, `1:30`, `500ms`.
  mutating func duration(
    _ node: ConfigNode, key: String, in range: ClosedRange<TimeSpan>,
    of kind: ValueSyntax.DurationKind = .segment
  ) -> TimeSpan? {
    guard let scalar = scalar(node, key: key, expected: "a duration such as '20s' or '1:30'")
    else { return nil }
    guard let duration = bag.take(ValueSyntax.duration(scalar, of: kind)) else { return nil }
    // A duration the file can spell (999999999h) may not fit in TimeSpan's nanoseconds.
    guard let value = TimeSpan(exactly: duration), range.contains(value) else {
      error(
        "'\(key)' must be between \(DurationText.format(range.lowerBound)) and "
          + "\(DurationText.format(range.upperBound)), got \(scalar.text)", at: scalar.range)
      return nil
    }
    return value
  }

  /// A whole number within `range`.
  mutating func integer(_ node: ConfigNode, key: String, in range: ClosedRange<Int>) -> Int? {
    guard let scalar = scalar(node, key: key, expected: "a whole number") else { return nil }
    return bag.take(ValueSyntax.integer(scalar, name: key, in: range))
  }

  /// `true` or `false`.
  mutating func boolean(_ node: ConfigNode, key: String) -> Bool? {
    guard let scalar = scalar(node, key: key, expected: "true or false") else { return nil }
    return bag.take(ValueSyntax.boolean(scalar))
  }

  /// A whole percentage, 0% to 100%.
  mutating func percentage(_ node: ConfigNode, key: String) -> Int? {
    guard let scalar = scalar(node, key: key, expected: "a percentage such as '80%'") else {
      return nil
    }
    return bag.take(ValueSyntax.percentage(scalar, name: key))
  }

  /// Text. A plain `null` or `~` is refused: YAML tools read it as "no value", not as text.
  /// So are control characters (an escape such as `"\e"` can write them): text from the file
  /// reaches displays, the log and terminals, where they would act instead of showing. With
  /// `maximumLength`, longer text is refused too.
  mutating func text(_ node: ConfigNode, key: String, maximumLength: Int? = nil) -> String? {
    guard let scalar = scalar(node, key: key, expected: "text") else { return nil }
    if scalar.isNull {
      error(
        "expected text for '\(key)', found null", at: scalar.range,
        hint: "remove the key to leave it unset, or quote the word to mean it")
      return nil
    }
    guard checkPrintable(scalar, what: "'\(key)'") else { return nil }
    if let maximumLength, scalar.text.count > maximumLength {
      error(
        "'\(key)' is \(scalar.text.count) characters long, more than the \(maximumLength) allowed",
        at: scalar.range, hint: "shorten it")
      return nil
    }
    return scalar.text
  }

  /// True when `scalar` holds no control character; otherwise reports the first one by its code
  /// point. `what` names the text in the message: "'label'", "palette name 'x'".
  mutating func checkPrintable(_ scalar: Scalar, what: String) -> Bool {
    guard let control = scalar.text.unicodeScalars.first(where: Self.isControl) else {
      return true
    }
    error(
      "\(what) contains the control character \(Self.codePoint(control))", at: scalar.range,
      hint: "remove it; text in the configuration is shown as written, on displays and in the log")
    return false
  }

  /// The C0 and C1 control characters (tab and line feed included) and the line and paragraph
  /// separators: what a display cannot show and a terminal would act on.
  static func isControl(_ character: Unicode.Scalar) -> Bool {
    character.value < 0x20 || (0x7F...0x9F).contains(character.value)
      || character.value == 0x2028 || character.value == 0x2029
  }

  /// `U+001B`.
  static func codePoint(_ character: Unicode.Scalar) -> String {
    let digits = String(character.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// One of `choices`, with a did-you-mean for anything else.
  mutating func choice(_ node: ConfigNode, key: String, among choices: [String]) -> String? {
    let allowed = Self.quotedList(choices)
    guard let scalar = scalar(node, key: key, expected: allowed) else { return nil }
    if choices.contains(scalar.text) { return scalar.text }
    error(
      "'\(key)' must be \(allowed), found '\(scalar.text)'", at: scalar.range,
      hint: Self.didYouMean(scalar.text, among: choices))
    return nil
  }

  /// The items of a list (flow `[a, b]` or block); an absent value is an empty list.
  mutating func list(_ node: ConfigNode, key: String, example: String) -> [ConfigNode]? {
    switch node {
    case .sequence(let sequence):
      return sequence.items
    case .scalar(let scalar) where scalar.isEmptyValue:
      return []
    default:
      error(
        "expected a list such as '\(example)' for '\(key)', found \(Self.found(node))",
        at: node.range, hint: "write the items in brackets, separated by commas: '\(example)'")
      return nil
    }
  }

  /// A list of texts (captions), each at most `maximumLength` characters.
  mutating func textList(_ node: ConfigNode, key: String, maximumLength: Int) -> [String]? {
    guard let items = list(node, key: key, example: "[burpees, wall balls]") else { return nil }
    var texts: [String] = []
    var failed = false
    for item in items {
      if let text = text(item, key: key, maximumLength: maximumLength) {
        texts.append(text)
      } else {
        failed = true
      }
    }
    return failed ? nil : texts
  }

  /// A name the daemon's control socket and `load NAME` can use: letters, digits, `-` and `_`,
  /// at most ``TextLimits/name`` of them. `what` starts the message: "preset name", "plugin id".
  mutating func checkName(_ scalar: Scalar, what: String) -> Bool {
    let valid =
      !scalar.text.isEmpty
      && scalar.text.unicodeScalars.allSatisfy { character in
        switch character {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return true
        default: return false
        }
      }
    if !valid {
      error(
        "\(what) '\(scalar.text)' is not allowed", at: scalar.range,
        hint: "use letters, digits, '-' and '_' (no spaces), as in 'emom-10'")
      return false
    }
    if scalar.text.count > TextLimits.name {
      error(
        "\(what) '\(scalar.text)' is \(scalar.text.count) characters long, more than the "
          + "\(TextLimits.name) allowed", at: scalar.range, hint: "shorten it")
      return false
    }
    return true
  }
}

/// The longest texts the configuration takes, in characters. Displays cut or scroll long text,
/// the log and `wodclockctl` print it whole; these bounds keep every line of them readable.
public enum TextLimits {
  /// Preset names, plugin ids and control names: what `load NAME` and the control socket use.
  public static let name = 32
  /// A preset's `label`, the `labels` of its rounds and the names of sequence steps.
  public static let label = 64
  /// A replacement for a display word (`words:`), such as `get_ready: KLAR`.
  public static let word = 24
}
