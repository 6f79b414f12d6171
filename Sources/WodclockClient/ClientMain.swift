// SPDX-License-Identifier: MIT
// wodclockctl: the command-line client of the control socket.

import ConfigFormat
import ControlProtocol
import HardwareKit
import JSONKit
import ProductVersion
import WorkoutCore

/// `wodclockctl`: one subcommand per control command, human output or `--json`.
public enum ClientMain {
  /// Exit statuses scripts can rely on (sysexits where one fits).
  public enum ExitCode {
    public static let ok: Int32 = 0
    /// The daemon refused or failed the request (the reason is printed).
    public static let refused: Int32 = 1
    public static let usage: Int32 = 64
    /// The text given is not what it should be (`explain` of a text that is not a workout).
    public static let dataError: Int32 = 65
    /// The daemon is not running or its socket cannot be reached.
    public static let unavailable: Int32 = 69
    /// The daemon is running but could not serve this client now (too many clients, or no
    /// answer in time): try again.
    public static let temporaryFailure: Int32 = 75
    /// The control socket is closed to this user (sysexits' EX_NOPERM).
    public static let noPermission: Int32 = 77
    /// The output file cannot be written (`snapshot --png`).
    public static let cannotCreate: Int32 = 73
    /// The daemon answered something that is not the protocol.
    public static let protocolError: Int32 = 76
  }

  /// One subcommand: its help, and what it does with the words after its name.
  struct Subcommand: Sendable {
    var name: String
    var arguments: String
    var summary: String
    /// The full arguments for the command's own help, when the list shows them shortened.
    var synopsis: String?
    /// More for the command's own help.
    var details: String?
    var action: Action

    init(
      name: String, arguments: String = "", summary: String, synopsis: String? = nil,
      details: String? = nil, action: Action
    ) {
      self.name = name
      self.arguments = arguments
      self.summary = summary
      self.synopsis = synopsis
      self.details = details
      self.action = action
    }

    /// A command that takes no arguments and sends `command`.
    init(name: String, summary: String, sends command: Command) {
      self.init(
        name: name, summary: summary,
        action: .send { words, _ in
          words.isEmpty
            ? .success(Exchange(command))
            : .failure(ArgumentProblem(message: "'\(name)' takes no arguments"))
        })
    }
  }

  /// What a subcommand does.
  enum Action: Sendable {
    /// Asks the daemon: the request built from the arguments and `--json`, or what is wrong
    /// with them.
    case send(@Sendable ([String], Bool) -> Result<Exchange, ArgumentProblem>)
    /// Runs here, without the daemon (`explain`, `devices`): the arguments, `--json`; the exit
    /// status.
    case local(@Sendable ([String], Bool) -> Int32)
  }

  /// A request, and what becomes of the reply.
  struct Exchange {
    var request: CommandRequest
    /// Takes a successful reply instead of printing it (`snapshot` writes a PNG); the exit
    /// status.
    var takeReply: ((JSONValue, _ json: Bool) -> Int32)?

    init(
      _ command: Command, replace: Bool = false, start: Bool = false,
      takeReply: ((JSONValue, Bool) -> Int32)? = nil
    ) {
      request = CommandRequest(command: command, replace: replace, start: start)
      self.takeReply = takeReply
    }
  }

  /// Arguments a subcommand cannot take.
  struct ArgumentProblem: Error, Sendable {
    var message: String
    /// Whether the command's own usage line says more than the list of every command.
    var showsCommandUsage = false
  }

  static let subcommands: [Subcommand] =
    [
      Subcommand(
        name: "status", summary: "what the clock shows and where the workout is", sends: .status),
      Subcommand(
        name: "start", summary: "start the loaded workout (count-in first)",
        sends: .action(.start)),
      Subcommand(name: "pause", summary: "pause the running workout", sends: .action(.pause)),
      Subcommand(name: "resume", summary: "resume a paused workout", sends: .action(.resume)),
      Subcommand(
        name: "toggle", summary: "start, pause or resume, like the big button",
        sends: .action(.toggle)),
      Subcommand(name: "reset", summary: "stop and go back to the start", sends: .action(.reset)),
      Subcommand(
        name: "finish", summary: "end the workout now (For Time: stop the clock)",
        sends: .action(.finish)),
      Subcommand(
        name: "next", summary: "skip to the next interval or step", sends: .action(.next)),
      Subcommand(
        name: "previous", summary: "go back to the previous interval or step",
        sends: .action(.previous)),
      Subcommand(name: "lap", summary: "tally a round", sends: .action(.lap)),
      Subcommand(
        name: "mute", arguments: "[on|off]",
        summary: "silence the buzzer (or let it sound); no argument toggles",
        action: .send { words, _ in
          switch words {
          case []: .success(Exchange(.mute(on: nil)))
          case ["on"]: .success(Exchange(.mute(on: true)))
          case ["off"]: .success(Exchange(.mute(on: false)))
          default:
            .failure(ArgumentProblem(message: "'mute' takes 'on', 'off' or nothing (toggle)"))
          }
        }),
      Subcommand(
        name: "load", arguments: "PRESET", summary: "load a preset by name",
        synopsis: "PRESET [--start] [--replace]", details: LoadOptions.details,
        action: .send { words, _ in
          let options = LoadOptions(words)
          guard !options.words.isEmpty else {
            return .failure(ArgumentProblem(message: "'load' needs a preset name"))
          }
          return .success(
            Exchange(
              .load(.preset(options.words.joined(separator: " "))), replace: options.replace,
              start: options.start))
        }),
      Subcommand(
        name: "run", arguments: "TEXT...", summary: "load a workout as written: run amrap 14",
        synopsis: "TEXT... [--start] [--replace]",
        details: "The words are read as on a whiteboard ('amrap 14', 'emom 10 x 1:00',\n"
          + "'21-15-9 for time cap 10'); `wodclockctl explain TEXT` shows how.\n"
          + LoadOptions.details,
        action: .send { words, _ in
          let options = LoadOptions(words)
          let text = options.words.joined(separator: " ")
          guard !text.allSatisfy(\.isWhitespace) else {
            return .failure(
              ArgumentProblem(
                message: "'run' needs a workout, e.g. 'amrap 14'", showsCommandUsage: true))
          }
          return .success(
            Exchange(.load(.workout(text)), replace: options.replace, start: options.start))
        }),
      Subcommand(
        name: "again", arguments: "[--start]",
        summary: "load the last workout of the history again",
        synopsis: "[--start] [--replace]", details: LoadOptions.details,
        action: .send { words, _ in
          let options = LoadOptions(words)
          guard options.words.isEmpty else {
            return .failure(
              ArgumentProblem(
                message: "'again' takes only --start and --replace", showsCommandUsage: true))
          }
          return .success(Exchange(.again, replace: options.replace, start: options.start))
        }),
      Subcommand(
        name: "recent", summary: "the last ten different workouts, newest first", sends: .recent),
      Subcommand(name: "presets", summary: "list the presets", sends: .presets),
      Subcommand(
        name: "schedule",
        summary: "today's classes, the next one, and whether the clock is synchronized",
        sends: .schedule),
      Subcommand(
        name: "history", arguments: "[--limit N]", summary: "finished and abandoned workouts",
        action: .send { words, _ in
          guard let position = words.firstIndex(of: "--limit") else {
            guard words.isEmpty else {
              return .failure(ArgumentProblem(message: "'history' takes only '--limit N'"))
            }
            return .success(Exchange(.history(limit: CommandProtocol.defaultHistoryLimit)))
          }
          guard position + 1 < words.count, let limit = Int(words[position + 1]), limit > 0 else {
            return .failure(ArgumentProblem(message: "'--limit' needs a positive number"))
          }
          return .success(Exchange(.history(limit: limit)))
        }),
      Subcommand(name: "reload", summary: "re-read the configuration file", sends: .reload),
      Subcommand(
        name: "watch", summary: "follow the clock live (Ctrl-C to stop)", sends: .subscribe),
      Subcommand(name: "version", summary: "the daemon's version and protocol", sends: .version),
      Subcommand(
        name: "stats", summary: "wake-up lateness, CPU time and memory of the daemon", sends: .stats
      ),
      Subcommand(
        name: "snapshot", arguments: "--png FILE",
        summary: "save what the LED matrix shows as a PNG (or a preview)",
        synopsis: SnapshotCommand.synopsis, details: SnapshotCommand.details,
        action: .send { words, json in
          SnapshotCommand.parse(words, json: json).map { options in
            Exchange(.snapshot(SnapshotRequest(output: options.output, previewSize: options.size)))
            {
              reply, json in SnapshotCommand.save(reply, options, quiet: json)
            }
          }
        }),
      Subcommand(
        name: "explain", arguments: "TEXT...",
        summary: "what a written workout means: parts, lengths, total (local, no daemon)",
        synopsis: ExplainCommand.synopsis, details: ExplainCommand.details,
        action: .local { words, json in
          guard !words.joined().allSatisfy(\.isWhitespace) else {
            return commandUsageError("'explain' needs a workout, e.g. 'amrap 14'", "explain")
          }
          return ExplainCommand.run(words, json: json)
        }),
      Subcommand(
        name: "devices",
        summary: "input devices for usb-remote: name, USB id, node (local, no daemon)",
        action: .local { _, _ in listInputDevices() }),
    ] + competitionSubcommands

  static var usage: String {
    var text = """
      usage: wodclockctl [--socket PATH] [--json] <command> [arguments]

      Controls a running wodclockd through its control socket.

      commands:

      """
    for command in subcommands {
      let left = (command.name + " " + command.arguments).trimmingSpaces()
      text +=
        "  " + left + String(repeating: " ", count: max(1, 22 - left.count)) + command.summary
        + "\n"
    }
    text += """

      options:
        --socket PATH  the daemon's socket (default: $WODCLOCK_SOCKET, /run/wodclock/wodclockd.sock,
                       $XDG_RUNTIME_DIR/wodclockd.sock, /tmp/wodclockd-UID.sock: the first that exists)
        --json         print the daemon's JSON reply as it is
        --help         this help; `wodclockctl COMMAND --help` for one command
        --version      wodclockctl's own version (`wodclockctl version` asks the daemon's)

      exit status: 0 ok, 1 refused by the daemon, 64 bad command line, 65 not a workout (explain),
      69 daemon not running, 73 cannot write the output file, 75 daemon busy (try again),
      76 unexpected reply, 77 the socket is closed to this user
      """
    return text
  }

  public static func run(_ arguments: [String]) -> Int32 {
    var socketPath: String?
    var json = false
    var words: [String] = []
    var index = 0
    var wantsHelp = false
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--socket":
        index += 1
        guard index < arguments.count else { return usageError("option '--socket' needs a path") }
        socketPath = arguments[index]
      case "--json":
        json = true
      case "--help", "-h":
        wantsHelp = true
      case "--version" where words.isEmpty:
        print("wodclockctl \(WodclockVersion.current)")
        return ExitCode.ok
      default:
        if argument.hasPrefix("--socket=") {
          socketPath = String(argument.dropFirst("--socket=".count))
        } else {
          words.append(argument)
        }
      }
      index += 1
    }
    guard let name = words.first else {
      if wantsHelp {
        print(usage)
        return ExitCode.ok
      }
      return usageError("a command is needed")
    }
    guard
      let command = subcommands.first(where: {
        $0.name == name || (name == "prev" && $0.name == "previous")
      })
    else {
      let suggestion = closestMatch(to: name, among: subcommands.map(\.name))
      return usageError(
        "unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
    if wantsHelp {
      print(
        "usage: wodclockctl \(command.name) \(command.synopsis ?? command.arguments)"
          .trimmingSpaces() + "\n\n\(command.summary)" + (command.details.map { "\n\n" + $0 } ?? "")
      )
      return ExitCode.ok
    }
    let exchange: Exchange
    switch command.action {
    case .local(let run):
      return run(Array(words.dropFirst()), json)
    case .send(let build):
      switch build(Array(words.dropFirst()), json) {
      case .success(let built): exchange = built
      case .failure(let problem) where problem.showsCommandUsage:
        return commandUsageError(problem.message, command.name)
      case .failure(let problem):
        return usageError(problem.message)
      }
    }
    var client: UnixClient
    do {
      client = try connect(socketPath)
    } catch  where error.errno == .timedOut {
      return busy(
        "the daemon did not accept the connection within \(connectSeconds) s: its queue of new"
          + " connections stayed full (it is stuck, or flooded with connections)")
    } catch {
      let path = error.path ?? socketPath ?? "the control socket"
      let advice = ConnectionAdvice.explain(
        error, socket: path, facts: ConnectionAdvice.gather(socket: path))
      StandardError.writeLine("wodclockctl: \(advice.message)")
      for hint in advice.hints { StandardError.writeLine("hint: \(hint)") }
      return advice.exitCode
    }
    defer { try? client.close() }
    let watching = exchange.request.command == .subscribe
    do {
      let answer: String?
      switch send(&client, exchange.request.line) {
      case .success(let line): answer = line
      case .failure(let error) where error.errno == .timedOut:
        return busy(
          error.operation == "send"
            ? "the daemon did not take the request within \(sendSeconds) s (it is stuck or overloaded)"
            : "the daemon did not answer within \(answerSeconds) s (it is stuck or overloaded)")
      case .failure(let error): throw error
      }
      guard let line = answer else {
        StandardError.writeLine(
          "wodclockctl: the daemon closed the connection without answering (it stopped or"
            + " restarted, or it was just closing its socket)")
        StandardError.writeLine(
          "hint: `systemctl status wodclockd` shows whether it runs; then try again")
        return ExitCode.unavailable
      }
      let reply = try JSONValue.parse(line)
      guard let ok = reply["ok"]?.boolValue else {
        StandardError.writeLine("wodclockctl: unexpected reply: \(line)")
        return ExitCode.protocolError
      }
      if json { emit(line + "\n") }
      if !ok, let code = reply["error"]?["code"]?.stringValue,
        code == "evicted" || code == "too_many_clients"
      {
        // Said on standard error even with --json: it is about the connection, not the request.
        let reason = reply["error"]?["message"]?.stringValue ?? code
        StandardError.writeLine(
          "wodclockctl: the daemon closed this connection: too many clients (\(reason))")
        StandardError.writeLine(
          "hint: try again; a program that keeps many connections open to the daemon keeps"
            + " others out (`ss -xp | grep wodclockd` shows which)")
        return ExitCode.temporaryFailure
      }
      guard ok else {
        if !json {
          let message = reply["error"]?["message"]?.stringValue ?? line
          StandardError.writeLine("wodclockctl: \(message)")
        }
        return ExitCode.refused
      }
      if let take = exchange.takeReply { return take(reply, json) }
      if !json { emit(HumanOutput.describe(command: command.name, reply: reply)) }
      if watching { return follow(&client, json: json) }
      return ExitCode.ok
    } catch {
      StandardError.writeLine("wodclockctl: \(error)")
      return ExitCode.protocolError
    }
  }

  private static let connectSeconds = 2
  private static let sendSeconds = 2
  private static let answerSeconds = 5

  /// Sends the request and reads the first line back: the reply, or the daemon's last word
  /// before it closed the connection (`nil` when it closed without one).
  private static func send(_ client: inout UnixClient, _ request: String) -> Result<
    String?, SystemError
  > {
    do throws(SystemError) {
      do throws(SystemError) {
        try client.send(request, timeoutMilliseconds: sendSeconds * 1_000)
      } catch  where error.errno == .brokenPipe || error.errno == .connectionReset {
        // Closed before the request got there: a line it sent first says why.
      }
      return .success(try client.readLine(timeoutMilliseconds: answerSeconds * 1_000))
    } catch  where error.errno == .connectionReset {
      return .success(nil)
    } catch {
      return .failure(error)
    }
  }

  /// The daemon runs but cannot serve this client now: says so, and that trying again helps.
  private static func busy(_ what: String) -> Int32 {
    StandardError.writeLine("wodclockctl: \(what)")
    StandardError.writeLine(
      "hint: try again; `journalctl -u wodclockd` shows what the daemon is doing")
    return ExitCode.temporaryFailure
  }

  private static func follow(_ client: inout UnixClient, json: Bool) -> Int32 {
    while true {
      let line: String?
      do {
        line = try client.readLine(timeoutMilliseconds: 3_600_000)
      } catch  where error.errno == .timedOut {
        continue
      } catch {
        StandardError.writeLine("wodclockctl: \(error)")
        return ExitCode.protocolError
      }
      guard let line else {
        StandardError.writeLine("wodclockctl: the daemon stopped")
        return ExitCode.unavailable
      }
      if json {
        emit(line + "\n")
      } else if let event = try? JSONValue.parse(line) {
        emit(HumanOutput.describe(event: event))
      }
    }
  }

  private static func connect(_ explicit: String?) throws(SystemError) -> UnixClient {
    if let explicit {
      return try UnixClient.connect(path: explicit, timeoutMilliseconds: connectSeconds * 1_000)
    }
    let candidates = SocketLocations(
      environment: Environment.get, userID: Environment.userID
    ).clientCandidates
    // A socket in a directory closed to this user (the service's /run/wodclock, 0750) is
    // there all the same: connecting to it says EACCES, which is what the user must hear.
    for path in candidates where FileSystem.presence(path) != .absent {
      return try UnixClient.connect(path: path, timeoutMilliseconds: connectSeconds * 1_000)
    }
    return try UnixClient.connect(
      path: candidates.last ?? "/tmp/wodclockd.sock", timeoutMilliseconds: connectSeconds * 1_000)
  }

  /// Writes to stdout unbuffered, so `watch` piped into another program shows each line as
  /// it happens.
  /// The input event nodes of this machine, for a `usb-remote`'s `device:` setting.
  private static func listInputDevices() -> Int32 {
    let devices: [InputDeviceInfo]
    do {
      devices = try InputDevices.scan()
    } catch {
      StandardError.writeLine("wodclockctl: cannot list input devices: \(error)")
      return ExitCode.unavailable
    }
    var text = ""
    for device in devices {
      text += "\(device.devnode)  \(device.usbID ?? "----:----")  \"\(device.name)\""
      if let serial = device.serial { text += "  serial \(serial)" }
      text += "\n"
      for link in device.links where link.hasPrefix("/dev/input/by-id/") { text += "    \(link)\n" }
    }
    if devices.isEmpty { text = "no input devices\n" }
    if !InputDevices.udevIsRunning { text += "(udevd is not running: no by-id links)\n" }
    emit(text)
    return ExitCode.ok
  }

  private static func emit(_ text: String) {
    _ = try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
  }

  private static func usageError(_ message: String) -> Int32 {
    StandardError.writeLine("wodclockctl: \(message)\n\n" + usage)
    return ExitCode.usage
  }

  /// A bad command line for one command: the message and that command's usage line, which
  /// says more than the list of every command.
  private static func commandUsageError(_ message: String, _ name: String) -> Int32 {
    StandardError.writeLine("wodclockctl: \(message)")
    if let command = subcommands.first(where: { $0.name == name }) {
      StandardError.writeLine(
        "usage: wodclockctl \(command.name) \(command.synopsis ?? command.arguments)"
          .trimmingSpaces())
    }
    StandardError.writeLine("hint: `wodclockctl \(name) --help` explains the options")
    return ExitCode.usage
  }
}

extension String {
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
