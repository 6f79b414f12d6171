// SPDX-License-Identifier: MIT
// Commands over the broker speak the control socket's vocabulary, read by its one parser.

import ControlProtocol
import JSONKit
import Testing
import WodclockDaemon
import WorkoutCore

@testable import ClockLink

@Suite struct LinkCommandTests {
  private func parsed(_ command: LinkCommand) throws -> CommandRequest {
    try CommandProtocol.parse(command.requestLine).get()
  }

  @Test func everyActionRoundTripsAndIsTheSocketsCommand() throws {
    for action in WorkoutAction.allCases {
      let command = LinkCommand.action(action, client: followerID, requestID: 9)
      let back = try LinkCommand.decode(command.encoded())
      #expect(back == command)
      #expect(back.client == followerID && back.requestID == 9)
      let request = try parsed(back)
      #expect(request.command == .action(action))
      #expect(request.id == .integer(9))
    }
  }

  @Test func loadsAreTheSocketsLoads() throws {
    let preset = try parsed(
      LinkCommand.decode(
        LinkCommand.load(preset: "fran", client: followerID, requestID: 1).encoded()))
    #expect(preset.command == .load(.preset("fran")) && !preset.start)
    let workout = try parsed(
      LinkCommand.decode(
        LinkCommand.load(workout: "amrap 14", start: true, client: followerID, requestID: 2)
          .encoded()))
    #expect(workout.command == .load(.workout("amrap 14")) && workout.start)
    let again = try LinkCommand.decode(Array(#"{"cmd":"again","client":"lane-2","id":3}"#.utf8))
    #expect(try parsed(again).command == .again)
  }

  @Test func everyAcceptedNameIsOneTheSocketKnows() {
    #expect(Set(LinkCommand.acceptedNames).isSubset(of: Set(Command.names)))
    // A command over the broker is one the socket would take too.
    #expect(LinkCommand.maximumBytes <= CommandProtocol.maximumLineBytes)
  }

  @Test(arguments: [
    "reload", "status", "subscribe", "mute", "snapshot", "history", "stats", "schedule", "nonsense",
  ])
  func whatIsNotAcceptedOverTheBrokerIsRefusedWithTheList(_ name: String) {
    let text = #"{"cmd":"\#(name)","client":"lane-2","id":1}"#
    #expect(throws: LinkError.self) { try LinkCommand.decode(Array(text.utf8)) }
    do {
      _ = try LinkCommand.decode(Array(text.utf8))
    } catch {
      #expect(
        error.message.contains("not accepted over the broker") && error.message.contains("toggle"))
    }
  }

  @Test(arguments: [
    #"{"cmd":"toggle","id":1}"#, #"{"cmd":"toggle","client":"a/b","id":1}"#,
    #"{"cmd":"toggle","client":"lane-2"}"#, #"{"cmd":"toggle","client":"lane-2","id":-1}"#,
    #"{"cmd":"toggle","client":"lane-2","id":1e300}"#,
    #"{"cmd":"toggle","client":"lane-2","id":9007199254740993}"#,
    #"{"client":"lane-2","id":1}"#, #"["toggle"]"#, #"{"cmd":"toggle","client":"lane-2","id":1"#,
    #"{"cmd":1,"client":"lane-2","id":1}"#,
  ])
  func aMalformedCommandIsRefused(_ text: String) {
    #expect(throws: LinkError.self) { try LinkCommand.decode(Array(text.utf8)) }
  }

  @Test func aCommandLargerThanTheBoundIsRefusedUnread() {
    let huge =
      Array(#"{"cmd":"toggle","client":"lane-2","id":1,"x":""#.utf8)
      + [UInt8](repeating: UInt8(ascii: "a"), count: LinkCommand.maximumBytes) + Array(#""}"#.utf8)
    #expect(throws: LinkError.self) { try LinkCommand.decode(huge) }
  }
}
