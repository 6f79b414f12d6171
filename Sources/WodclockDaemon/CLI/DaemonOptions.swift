// SPDX-License-Identifier: MIT
// wodclockd's command line.

import ConfigFormat
import ControlProtocol
import HardwareKit

/// What `wodclockd` was asked to do.
public struct DaemonOptions: Equatable {
  public enum Task: Equatable {
    case run
    case checkConfig
    case printConfig
    case safeOutputs
    case version
    case help
    /// `wodclockd --resolve HOST`: looks `HOST` up and prints its addresses. Not for people:
    /// the daemon runs it as a child of its own, so that the loop never waits for a name
    /// server (``AddressResolver``).
    case resolve(String)
    /// `wodclockd --synthesize-voice LANG`: reads lines on standard input and writes their
    /// sound in `LANG`'s voice. Not for people either: the daemon runs it as a child, so that
    /// it never maps libespeak-ng (``VoiceSynthesizer``).
    case synthesizeVoice(String)
  }

  public var task: Task = .run
  public var configPath: String?
  public var socketPath: String?
  public var stateDirectory: String?
  public var speed: Int64 = 1

  public static let defaultConfigPath = "/etc/wodclock/wodclock.yaml"
  /// The hidden option of the resolver's child (``Task/resolve(_:)``).
  static let resolveFlag = "--resolve"
  /// The hidden option of the voice synthesizer's child (``Task/synthesizeVoice(_:)``).
  static let synthesizeVoiceFlag = "--synthesize-voice"

  public static let usage = """
    usage: wodclockd [--config FILE] [--socket PATH] [--state-dir DIR] [--speed N]
           wodclockd --check-config [FILE]
           wodclockd --print-config [FILE]

    Runs the gym clock: the workout engine, its displays, buzzers and buttons.

    options:
      --config FILE      configuration file (default /etc/wodclock/wodclock.yaml)
      --socket PATH      control socket (default $RUNTIME_DIRECTORY/wodclockd.sock under
                         systemd, else $XDG_RUNTIME_DIR/wodclockd.sock or /tmp/wodclockd-UID.sock)
      --state-dir DIR    where the running workout and the history are kept (default
                         $STATE_DIRECTORY under systemd, else ~/.local/state/wodclock)
      --speed N          run the clock N times faster (1-1000), to preview a workout
      --check-config     check the configuration, print its problems, exit 0 or 78
      --print-config     print the effective configuration with every default filled in
      --safe-outputs     drive every output to its safe state (buzzer off) and exit
      --version          print the version
      --help             print this help

    exit status: 0 ok, 64 bad command line, 69 cannot start, 78 bad configuration
    """

  /// Parses the arguments (without the program name).
  public static func parse(_ arguments: [String]) -> Result<DaemonOptions, UsageError> {
    var options = DaemonOptions()
    // The resolver's child: the name is taken as it is, whatever it starts with.
    if arguments.first == resolveFlag {
      guard arguments.count == 2 else {
        return .failure(UsageError("'\(resolveFlag)' takes one host name"))
      }
      options.task = .resolve(arguments[1])
      return .success(options)
    }
    if arguments.first == synthesizeVoiceFlag {
      guard arguments.count == 2 else {
        return .failure(UsageError("'\(synthesizeVoiceFlag)' takes one language"))
      }
      options.task = .synthesizeVoice(arguments[1])
      return .success(options)
    }
    var index = 0
    func value(for flag: String) -> Result<String, UsageError> {
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("--") else {
        return .failure(UsageError("option '\(flag)' needs a value"))
      }
      return .success(arguments[index])
    }
    func optionalFile() -> String? {
      if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
        index += 1
        return arguments[index]
      }
      return nil
    }
    while index < arguments.count {
      let argument = arguments[index]
      var flag = argument
      var inline: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        flag = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func take() -> Result<String, UsageError> {
        if let inline { return .success(inline) }
        return value(for: flag)
      }
      switch flag {
      case "--config", "-c":
        switch take() {
        case .success(let path): options.configPath = path
        case .failure(let error): return .failure(error)
        }
      case "--socket":
        switch take() {
        case .success(let path): options.socketPath = path
        case .failure(let error): return .failure(error)
        }
      case "--state-dir":
        switch take() {
        case .success(let path): options.stateDirectory = path
        case .failure(let error): return .failure(error)
        }
      case "--speed":
        switch take() {
        case .success(let text):
          guard let speed = Int64(text), (1...1000).contains(speed) else {
            return .failure(
              UsageError("'--speed' takes a whole number from 1 to 1000, got '\(text)'"))
          }
          options.speed = speed
        case .failure(let error): return .failure(error)
        }
      case "--check-config", "-t":
        options.task = .checkConfig
        if let file = inline ?? optionalFile() { options.configPath = file }
      case "--print-config":
        options.task = .printConfig
        if let file = inline ?? optionalFile() { options.configPath = file }
      case "--safe-outputs":
        options.task = .safeOutputs
      case "--version":
        options.task = .version
      case "--help", "-h":
        options.task = .help
      default:
        let known = [
          "--config", "--socket", "--state-dir", "--speed", "--check-config", "--print-config",
          "--safe-outputs", "--version", "--help",
        ]
        let suggestion = closestMatch(to: flag, among: known)
        return .failure(
          UsageError(
            "unknown option '\(argument)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")))
      }
      index += 1
    }
    return .success(options)
  }
}

/// A bad command line: printed with the usage, exit status 64 (EX_USAGE).
public struct UsageError: Error, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// Where things live by default, following systemd's directories when it runs us.
public enum DefaultPaths {
  /// The control socket without `--socket` (see `SocketLocations`, which wodclockctl shares).
  public static func socket() -> String {
    SocketLocations(environment: Environment.get, userID: Environment.userID).daemonSocket
  }

  public static func stateDirectory() -> String {
    if let state = Environment.get("STATE_DIRECTORY"), !state.isEmpty {
      return SocketLocations.firstPath(state)
    }
    if let state = Environment.get("XDG_STATE_HOME"), !state.isEmpty { return state + "/wodclock" }
    if let home = Environment.get("HOME"), !home.isEmpty { return home + "/.local/state/wodclock" }
    return "/tmp/wodclock-state-\(Environment.userID)"
  }
}
