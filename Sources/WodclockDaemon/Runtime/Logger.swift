// SPDX-License-Identifier: MIT
// Journal-friendly logging: one line per event, `message key=value ...`, with the journald
// priority prefix `<N>` when stderr is connected to the journal (sd-daemon(3)).

import HardwareKit

/// Syslog priorities, as journald reads them from a `<N>` line prefix.
public enum LogLevel: Int, Sendable, Comparable {
  case error = 3
  case warning = 4
  case notice = 5
  case info = 6
  case debug = 7

  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue > rhs.rawValue }

  var word: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .notice: "notice"
    case .info: "info"
    case .debug: "debug"
    }
  }
}

/// Writes log lines. Single-threaded like the daemon's loop; not shared across threads.
public final class Logger {
  /// Where lines go. By default stderr; a full-screen terminal view takes them over so they do
  /// not scribble across its picture.
  public var sink: (LogLevel, String) -> Void
  public var minimumLevel: LogLevel

  public init(minimumLevel: LogLevel = .info) {
    self.minimumLevel = minimumLevel
    self.sink = Self.standardErrorSink()
  }

  /// A full-screen terminal view takes the terminal: the lines people should see go to its
  /// message line instead of scribbling across the picture. Only when stderr is that terminal;
  /// otherwise they still go to the journal.
  public func showOnTerminalView(_ show: @escaping (String) -> Void) {
    guard Terminal.isTTY(.standardError) else { return }
    sink = { level, line in
      if level >= .notice { show(line) }
    }
  }

  /// Sends lines to stderr again (after a full-screen view that had taken them over stops).
  public func resetSink() { sink = Self.standardErrorSink() }

  private static func standardErrorSink() -> (LogLevel, String) -> Void {
    let journal = JournalStream.isStderrJournal()
    return { level, line in
      StandardError.writeLine(journal ? "<\(level.rawValue)>\(line)" : "\(level.word): \(line)")
    }
  }

  /// Logs `message` followed by `key=value` fields (values with spaces are quoted).
  public func log(_ level: LogLevel, _ message: String, _ fields: [(String, String)] = []) {
    guard level >= minimumLevel else { return }
    var line = message
    for (key, value) in fields {
      line += " \(key)=\(Self.quoted(value))"
    }
    sink(level, line)
  }

  public func error(_ message: String, _ fields: [(String, String)] = []) {
    log(.error, message, fields)
  }
  public func warning(_ message: String, _ fields: [(String, String)] = []) {
    log(.warning, message, fields)
  }
  public func notice(_ message: String, _ fields: [(String, String)] = []) {
    log(.notice, message, fields)
  }
  public func info(_ message: String, _ fields: [(String, String)] = []) {
    log(.info, message, fields)
  }
  public func debug(_ message: String, _ fields: [(String, String)] = []) {
    log(.debug, message, fields)
  }

  static func quoted(_ value: String) -> String {
    if !value.isEmpty && !value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) {
      return value
    }
    var text = "\""
    for character in value {
      if character == "\"" || character == "\\" { text.append("\\") }
      text.append(character)
    }
    return text + "\""
  }
}
