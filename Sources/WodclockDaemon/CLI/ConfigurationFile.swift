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
  /// The text of the files the configuration includes (the workouts file), by path.
  public var includedSources: [String: String] = [:]

  /// The diagnostics as a compiler prints them (at most `DiagnosticRenderer.defaultLimit`, the
  /// rest counted), followed by a summary line.
  public func rendered(color: Bool) -> String {
    var sources = includedSources
    if let source { sources[file] = source }
    let renderer = DiagnosticRenderer(sources: sources, usesColor: color)
    return renderer.render(diagnostics)
      + DiagnosticRenderer.summaryLine(file: file, diagnostics: diagnostics) + "\n"
  }

  /// One log line per diagnostic line (journald records each line on its own).
  public var renderedLines: [String] {
    rendered(color: false).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// `3 errors in wodclock.yaml` or the first message when there is one.
  /// It goes to displays, the log and control clients, so text from the file in it shows its
  /// control characters as `<U+001B>`, as the rendered diagnostics do.
  public var summary: String {
    let errors = diagnostics.filter { $0.severity == .error }
    if errors.count == 1, let only = errors.first {
      return DiagnosticRenderer.escaped(
        "\(only.location): \(only.message)", keepingLineBreaks: false)
    }
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
  /// Reads and validates `path` against the plugin catalog. With `checkingSystem`, what the file
  /// names on this machine is looked up too (the socket's group), as `--check-config` does: the
  /// daemon needs it at start, and a reload, which keeps the socket, does not.
  public static func load(path: String, plugins: [PluginSchema], checkingSystem: Bool = false)
    -> Result<LoadedConfiguration, ConfigurationProblem>
  {
    let bytes: [UInt8]
    do {
      bytes = try FileSystem.readFile(path)
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
    // The workouts file is part of the configuration: read at every load, a reload too.
    let result = ConfigurationLoader.load(
      bytes: bytes, file: path, plugins: plugins, system: checkingSystem ? Self.system : nil,
      readFile: readFile)
    // For quoting lines only: the diagnostics already name any byte that is not UTF-8.
    let text = String(decoding: bytes, as: UTF8.self)
    var problem = ConfigurationProblem(file: path, diagnostics: result.diagnostics, source: text)
    problem.includedSources = result.includedSources
    if let configuration = result.configuration {
      let warnings = result.diagnostics.isEmpty ? nil : problem
      return .success(LoadedConfiguration(configuration: configuration, warnings: warnings))
    }
    return .failure(problem)
  }

  /// This machine, as the daemon will find it when it starts.
  static let system = SystemLookup(group: groupStatus, readFile: readFile, directory: directory)

  /// Looks at the media directory as the web interface will: a directory it can list.
  @Sendable static func directory(_ path: String) -> SystemLookup.DirectoryRead {
    do {
      guard try FileSystem.attributes(path, followingLinks: true).kind == .directory else {
        return .notADirectory
      }
      _ = try FileSystem.directoryEntries(path)
      return .readable
    } catch {
      return .failed(reason: error.errno.message.lowercased(), errnoName: error.errno.name)
    }
  }

  /// Reads a file the configuration names (the broker's password and CA files), as the daemon
  /// will when it connects, and the permissions of the file itself (through a symbolic link,
  /// as open(2) goes).
  @Sendable static func readFile(_ path: String, maximumCount: Int) -> SystemLookup.FileRead {
    do {
      let bytes = try FileSystem.readFile(path, maximumCount: maximumCount)
      let permissions = try FileSystem.attributes(path, followingLinks: true).permissions
      return .read(bytes: bytes, permissions: permissions)
    } catch  where error.errno == .fileTooLarge {
      return .tooLarge
    } catch {
      return .failed(reason: error.errno.message.lowercased(), errnoName: error.errno.name)
    }
  }

  /// Asks the group database (NSS: /etc/group and whatever else nsswitch.conf lists) the same
  /// question the daemon asks when it gives the control socket to the group.
  @Sendable static func groupStatus(_ name: String) -> SystemLookup.GroupStatus {
    do {
      _ = try UnixListener.groupID(named: name)
      return .found
    } catch  where error.errno == .noSuchFile {
      return .notFound
    } catch {
      return .unknown(
        reason: "the group lookup failed: \(error.errno.message.lowercased()) (\(error.errno.name))"
      )
    }
  }
}
