// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import HardwareKit
import Testing
import WodclockTestSupport

/// Random edits of valid configs must never crash or hang the loader, and every diagnostic must
/// point inside the text it was given.
@Suite("Loader robustness under random edits")
struct MutationTests {
  /// Near-misses and swaps for keys and values the configs use.
  static let replacements: [(String, String)] = [
    ("rounds", "rouds"), ("mode", "mood"), ("tabata", "tabatta"), ("emom", "amrap"),
    ("amrap", "emom"), ("sequence", "tempo"), ("tempo", "sequence"), ("work", "wrok"),
    ("duration", "durration"), ("steps", "step"), ("repeat", "repeats"), ("type", "kind"),
    ("terminal", "keyboard"), ("keyboard", "terminal"), ("green", "gren"), ("true", "yes"),
    ("false", "0"), ("press", "long_press"), ("toggle", "load fran"), ("24h", "25h"),
    ("interval", "time"), ("cap", "time"), ("en", "xx"), ("palette", "roles"), ("- ", ""),
    ("{", ""), ("}", ""), ("[", ""), (":", ""), ("\"", ""), ("line", "lines"),
  ]

  static let numbers = ["0", "1", "-1", "999", "1000", "99999999999999999999", "1.5", "", "x"]
  static let durations = [
    "0s", "1s", "24h", "25h", "1:00", "99:99", "500ms", "0.5ms", "1m1m", "90", "-5s", "[1s]",
  ]

  /// The configs of a fixture directory.
  static func fixtures(_ directory: String) throws -> [String] {
    let path = sourceDirectory() + "/Fixtures/" + directory
    return try fileNames(in: path, endingWith: ".yaml").map {
      try FileSystem.readTextFile(path + "/" + $0)
    }
  }

  static func mutate(_ lines: inout [String], using random: inout SeededGenerator) {
    guard !lines.isEmpty else {
      lines.append("presets:")
      return
    }
    let index = Int.random(in: 0..<lines.count, using: &random)
    switch Int.random(in: 0..<9, using: &random) {
    case 0:
      lines.remove(at: index)
    case 1:
      lines.insert(lines[index], at: index)
    case 2:
      let other = Int.random(in: 0..<lines.count, using: &random)
      lines.swapAt(index, other)
    case 3:
      // Change a number.
      lines[index] = replaceFirst(
        in: lines[index], where: { $0.isNumber }, with: numbers.randomElement(using: &random)!)
    case 4:
      // Change a duration-looking value.
      if let colon = lines[index].firstIndex(of: ":") {
        lines[index] =
          String(lines[index][...colon]) + " " + durations.randomElement(using: &random)!
      }
    case 5:
      let (from, to) = replacements.randomElement(using: &random)!
      if let range = lines[index].firstRange(of: from) {
        lines[index].replaceSubrange(range, with: to)
      }
    case 6:
      // Break the indentation.
      if lines[index].hasPrefix(" ") && Bool.random(using: &random) {
        lines[index].removeFirst()
      } else {
        lines[index] =
          String(repeating: " ", count: Int.random(in: 1...3, using: &random))
          + lines[index]
      }
    case 7:
      // Cut a line short.
      let count = lines[index].count
      lines[index] = String(lines[index].prefix(Int.random(in: 0...count, using: &random)))
    default:
      // Splice in a line from elsewhere, at the same place.
      let other = Int.random(in: 0..<lines.count, using: &random)
      lines.insert(lines[other], at: index)
    }
  }

  static func replaceFirst(in line: String, where predicate: (Character) -> Bool, with text: String)
    -> String
  {
    guard let start = line.firstIndex(where: predicate) else { return line }
    let end = line[start...].firstIndex { !predicate($0) } ?? line.endIndex
    return String(line[..<start]) + text + String(line[end...])
  }

  static func isInside(_ location: ConfigFormat.SourceLocation, _ lines: [Substring]) -> Bool {
    guard location.line >= 1, location.line <= max(1, lines.count), location.column >= 1 else {
      return false
    }
    let length = lines.isEmpty ? 0 : lines[location.line - 1].unicodeScalars.count
    return location.column <= length + 1
  }

  @Test("4,000 mutated configs give a configuration or diagnostics inside the text")
  func mutatedConfigs() throws {
    let valid = [try FileSystem.readTextFile(shippedConfigPath())] + (try Self.fixtures("valid"))
    let broken = try Self.fixtures("broken")
    var random = SeededGenerator(seed: 0x00C0_FFEE)
    var loaded = 0
    var rejected = 0
    for index in 0..<4000 {
      // Mostly valid configs, so edits often keep them loadable; a quarter start out broken.
      let source = index % 4 == 0 ? broken[index / 4 % broken.count] : valid[index % valid.count]
      var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        Self.mutate(&lines, using: &random)
      }
      let text = lines.joined(separator: "\n")
      let result = load(text, file: "mutant.yaml")
      let sourceLines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
        Substring($0)
      }
      if result.configuration != nil {
        loaded += 1
        #expect(result.errors.isEmpty, "case \(index)")
        if let configuration = result.configuration {
          // Whatever loads must print and load again.
          let printed = ConfigurationPrinter.render(configuration, plugins: TestPlugins.all)
          #expect(load(printed).configuration != nil, "case \(index): printed form fails:\n\(text)")
        }
      } else {
        rejected += 1
        #expect(!result.errors.isEmpty, "case \(index): no configuration and no error:\n\(text)")
      }
      for diagnostic in result.diagnostics + result.diagnostics.flatMap(\.notes) {
        #expect(
          Self.isInside(diagnostic.location, sourceLines),
          "case \(index): \(diagnostic.location) \(diagnostic.message) is outside:\n\(text)")
        #expect(!diagnostic.message.isEmpty && diagnostic.message.first?.isUppercase == false)
      }
      let rendered = DiagnosticRenderer(file: "mutant.yaml", source: text).render(
        result.diagnostics)
      #expect(result.diagnostics.isEmpty || rendered.hasPrefix("mutant.yaml:"))
    }
    // Both outcomes occur, so the edits neither always break nor never break the configs.
    #expect(loaded > 200)
    #expect(rejected > 1000)
  }
}
