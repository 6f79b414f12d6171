// SPDX-License-Identifier: MIT
// Reading the config file from disk and turning its problems into printable lines.

import ConfigFormat
import Configuration
import HardwareKit

/// A configuration that cannot be used, with everything needed to tell the person why.
public struct ConfigurationProblem: Error {
  public var file: String
  public var diagnostics: [Diagnostic]
  public var source: String?

  /// The diagnostics as a compiler prints them, followed by a summary line.
  public func rendered(color: Bool) -> String {
    var text = ""
    if let source {
      text = DiagnosticRenderer(file: file, source: source, usesColor: color).render(diagnostics)
    } else {
      text = diagnostics.map {
        "\($0.location): \($0.severity.rawValue): \($0.message)"
          + ($0.hint.map { "\nhint: \($0)" } ?? "")
      }
      .joined(separator: "\n")
    }
    if !text.hasSuffix("\n") { text += "\n" }
    return text + DiagnosticRenderer.summaryLine(file: file, diagnostics: diagnostics) + "\n"
  }

  /// One log line per diagnostic line (journald records each line on its own).
  public var renderedLines: [String] {
    rendered(color: false).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// `3 errors in wodclock.yaml` or the first message when there is one.
  public var summary: String {
    let errors = diagnostics.filter { $0.severity == .error }
    if errors.count == 1, let only = errors.first { return "\(only.location): \(only.message)" }
    return DiagnosticRenderer.summaryLine(file: file, diagnostics: diagnostics)
  }
}

/// A configuration that loaded, with the warnings its file earned (legal but suspicious).
public struct LoadedConfiguration {
  public var configuration: WodclockConfiguration
  /// The warnings, rendered like errors, ready to print or log; empty when there are none.
  public var warnings: ConfigurationProblem?
}

public enum ConfigurationFile {
  /// Reads and validates `path` against the plugin catalog.
  public static func load(path: String, plugins: [PluginSchema]) -> Result<
    LoadedConfiguration, ConfigurationProblem
  > {
    let text: String
    do {
      text = try FileSystem.readTextFile(path)
    } catch {
      let hint =
        error.errno == .noSuchFile
        ? "copy the annotated default (Config/wodclock.yaml in the source tree) there, or pass --config FILE"
        : nil
      let diagnostic = Diagnostic(
        severity: .error, location: SourceLocation(file: path, line: 1, column: 1),
        message:
          "cannot read the configuration: \(error.errno.message.lowercased()) (\(error.errno.name))",
        hint: hint)
      return .failure(ConfigurationProblem(file: path, diagnostics: [diagnostic], source: nil))
    }
    let result = ConfigurationLoader.load(text: text, file: path, plugins: plugins)
    if let configuration = result.configuration {
      let warnings =
        result.diagnostics.isEmpty
        ? nil : ConfigurationProblem(file: path, diagnostics: result.diagnostics, source: text)
      return .success(LoadedConfiguration(configuration: configuration, warnings: warnings))
    }
    return .failure(ConfigurationProblem(file: path, diagnostics: result.diagnostics, source: text))
  }
}
