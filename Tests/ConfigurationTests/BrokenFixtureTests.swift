// SPDX-License-Identifier: MIT

import ConfigFormat
import Configuration
import HardwareKit
import Testing
import WodclockTestSupport

/// Each file in `Fixtures/broken` is a config with deliberate mistakes. Its leading comment
/// block says what it tests and lists every diagnostic the loader must give, in order:
///
/// ```
/// # a key of another mode says which
/// # error 9:5: 'interval' is not a key of mode 'amrap'
/// #   hint: 'interval' belongs to mode 'emom'; ...
/// #   note 3:3: ...
/// ```
///
/// Hints spanning lines are written with `\n`. The configuration must be nil exactly when an
/// error is expected.
@Suite("Broken configs")
struct BrokenFixtureTests {
  static let directory = sourceDirectory() + "/Fixtures/broken"
  static let names = (try? fileNames(in: directory, endingWith: ".yaml")) ?? []

  struct Expected: Equatable, CustomStringConvertible {
    var severity: String
    var line: Int
    var column: Int
    var message: String
    var hint: String?
    var notes: [String] = []

    var description: String {
      "\(severity) \(line):\(column): \(message)" + (hint.map { " [hint: \($0)]" } ?? "")
        + notes.map { " [note \($0)]" }.joined()
    }
  }

  /// The expectations of a fixture's leading comment block.
  static func expectations(_ text: String) -> [Expected] {
    var result: [Expected] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("#") else { break }
      if line.hasPrefix("#   hint: "), !result.isEmpty {
        let hint = line.dropFirst("#   hint: ".count)
        result[result.count - 1].hint = hint.split(
          separator: "\\n", omittingEmptySubsequences: false
        )
        .joined(separator: "\n")
      } else if line.hasPrefix("#   note "), !result.isEmpty {
        result[result.count - 1].notes.append(String(line.dropFirst("#   note ".count)))
      } else if line.hasPrefix("# error ") || line.hasPrefix("# warning ") {
        let parts = line.dropFirst(2).split(separator: " ", maxSplits: 1)
        let rest = parts[1]
        guard let colon = rest.firstIndex(of: ":"),
          let close = rest[rest.index(after: colon)...].firstIndex(of: ":"),
          let lineNumber = Int(rest[..<colon]),
          let column = Int(rest[rest.index(after: colon)..<close])
        else { continue }
        let message = rest[close...].dropFirst(2)
        result.append(
          Expected(
            severity: String(parts[0]), line: lineNumber, column: column, message: String(message)))
      }
    }
    return result
  }

  static func actual(_ diagnostic: Diagnostic) -> Expected {
    Expected(
      severity: diagnostic.severity.rawValue, line: diagnostic.location.line,
      column: diagnostic.location.column, message: diagnostic.message, hint: diagnostic.hint,
      notes: diagnostic.notes.map { "\($0.location.line):\($0.location.column): \($0.message)" })
  }

  @Test("there are at least 60 broken fixtures, each with expectations")
  func count() throws {
    #expect(Self.names.count >= 60)
    for name in Self.names {
      let text = try FileSystem.readTextFile(Self.directory + "/" + name)
      #expect(!Self.expectations(text).isEmpty, "\(name) lists no expected diagnostics")
    }
  }

  @Test("every broken fixture gives exactly its expected diagnostics", arguments: names)
  func fixture(_ name: String) throws {
    let text = try FileSystem.readTextFile(Self.directory + "/" + name)
    let expected = Self.expectations(text)
    let result = load(text, file: name)
    let actual = result.diagnostics.map(Self.actual)
    #expect(actual == expected, "\(name)")
    let expectsError = expected.contains { $0.severity == "error" }
    #expect((result.configuration == nil) == expectsError, "\(name)")
    for diagnostic in result.diagnostics {
      #expect(diagnostic.location.file == name)
      #expect(diagnostic.message.first?.isUppercase == false && !diagnostic.message.hasSuffix("."))
    }
  }
}
