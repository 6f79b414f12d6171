// SPDX-License-Identifier: MIT
// wodclockctl's table of subcommands against the protocol: each command line becomes the typed
// request it means, and the line sent is read back by the daemon's parser as that request.

import ControlProtocol
import JSONKit
import Testing
import WorkoutCore

@testable import WodclockClient

@Suite struct SubcommandTableTests {
  /// The request `words` (after the command's name) build, or the problem with them.
  private func build(_ name: String, _ words: [String] = [], json: Bool = false) throws
    -> Result<ClientMain.Exchange, ClientMain.ArgumentProblem>
  {
    let command = try #require(ClientMain.subcommands.first { $0.name == name })
    guard case .send(let make) = command.action else {
      Issue.record("'\(name)' does not ask the daemon")
      throw ClientMain.ArgumentProblem(message: "local")
    }
    return make(words, json)
  }

  private func request(_ name: String, _ words: [String] = []) throws -> CommandRequest {
    try build(name, words).get().request
  }

  @Test func commandLinesBecomeTheTypedRequestsTheyMean() throws {
    #expect(try request("start").command == .action(.start))
    #expect(try request("previous").command == .action(.previous))
    #expect(try request("watch").command == .subscribe)
    let run = try request("run", ["amrap", "--start", "14"])
    #expect(run == CommandRequest(command: .load(.workout("amrap 14")), start: true))
    let load = try request("load", ["--replace", "Friday", "WOD"])
    #expect(load == CommandRequest(command: .load(.preset("Friday WOD")), replace: true))
    #expect(try request("again", ["--start"]) == CommandRequest(command: .again, start: true))
    #expect(try request("mute").command == .mute(on: nil))
    #expect(try request("mute", ["off"]).command == .mute(on: false))
    #expect(try request("history", ["--limit", "5"]).command == .history(limit: 5))
    #expect(
      try request("history").command == .history(limit: CommandProtocol.defaultHistoryLimit))
    let snapshot = try build("snapshot", ["--size", "32x16"], json: true).get().request
    #expect(
      snapshot.command == .snapshot(SnapshotRequest(previewSize: .init(width: 32, height: 16))))
  }

  @Test func wrongArgumentsAreSaidWithoutAskingTheDaemon() throws {
    let cases: [(String, [String], String, Bool)] = [
      ("run", [], "'run' needs a workout, e.g. 'amrap 14'", true),
      ("load", ["--start"], "'load' needs a preset name", false),
      ("again", ["fran"], "'again' takes only --start and --replace", true),
      ("mute", ["loud"], "'mute' takes 'on', 'off' or nothing (toggle)", false),
      ("history", ["--limit", "0"], "'--limit' needs a positive number", false),
      ("status", ["now"], "'status' takes no arguments", false),
      ("snapshot", [], "'snapshot' needs --png FILE (- writes to standard output)", true),
    ]
    for (name, words, message, showsCommandUsage) in cases {
      guard case .failure(let problem) = try build(name, words) else {
        Issue.record("'\(name) \(words)' was accepted")
        continue
      }
      #expect(problem.message == message)
      #expect(problem.showsCommandUsage == showsCommandUsage, "\(name)")
    }
  }

  /// Every line the client can send is one the daemon reads back as the same request.
  @Test func everyRequestLineParsesBackToItsRequest() throws {
    let lines: [(String, [String])] =
      ClientMain.subcommands.compactMap { command in
        // Those that need arguments come below with theirs.
        guard case .send = command.action, (try? request(command.name)) != nil else { return nil }
        return (command.name, [])
      } + [
        ("run", ["21-15-9", "for", "time", "--replace", "--start"]),
        ("load", ["fran"]), ("mute", ["on"]), ("history", ["--limit", "10000"]),
      ]
    for (name, words) in lines {
      let sent = try request(name, words)
      let parsed = CommandProtocol.parse(Array(sent.line.utf8.dropLast()))
      #expect(try parsed.get() == sent, "\(name) \(words)")
    }
    let snapshot = CommandRequest(
      command: .snapshot(SnapshotRequest(previewSize: .init(width: 64, height: 32))))
    #expect(try CommandProtocol.parse(Array(snapshot.line.utf8.dropLast())).get() == snapshot)
  }
}
