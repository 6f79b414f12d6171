// SPDX-License-Identifier: MIT
// A command over the broker: a follower's button, or Home Assistant's, acting on the leader.

import JSONKit
import WorkoutCore

/// A command sent to the leader on the room's command topic: one of the control socket's
/// request objects (`{"cmd": "toggle"}`, `{"cmd": "load", "preset": "fran"}`), with the
/// sender's client id (`client`) and a request id (`id`, as the socket's requests have one).
///
/// The vocabulary is the control socket's, read by the daemon's one parser of it
/// (`CommandProtocol.parse` of ``requestLine``); this only checks the envelope and which
/// commands a clock accepts over the broker: the workout's actions, `load`, `again`, `lane` and
/// `score`. Not
/// `reload`, and nothing that answers with data or changes one clock's own settings.
public struct LinkCommand: Sendable, Hashable {
  /// The most bytes a command has: 8 KiB, what the accepted commands need (the socket takes
  /// longer lines, for a heat sheet, which does not travel over the broker).
  public static let maximumBytes = 8192
  /// The commands accepted over the broker: also a judge's lane input and a class score, so
  /// a script or Home Assistant records them on the clock that keeps the heats.
  public static let acceptedNames: [String] =
    WorkoutAction.allCases.map(\.rawValue) + ["load", "again", "lane", "score"]

  public var client: LinkClientID
  public var requestID: Int64
  /// The request as the control socket reads it, without `client`.
  public private(set) var request: JSONObject

  /// The command's name (`toggle`, `load`).
  public var name: String { request["cmd"]?.stringValue ?? "" }

  /// A command of `request` (a control socket request object); nil unless its `cmd` is one
  /// of ``acceptedNames``.
  public init?(client: LinkClientID, requestID: Int64, request: JSONObject) {
    guard let name = request["cmd"]?.stringValue, Self.acceptedNames.contains(name) else {
      return nil
    }
    var request = request
    request["id"] = .integer(requestID)
    _ = request.removeValue(forKey: "client")
    self.client = client
    self.requestID = requestID
    self.request = request
  }

  /// A workout action (`toggle`, `next`, `lap` ...).
  public static func action(_ action: WorkoutAction, client: LinkClientID, requestID: Int64)
    -> LinkCommand
  {
    LinkCommand(
      client: client, requestID: requestID,
      request: JSONObject([("cmd", .string(action.rawValue))]))!
  }

  /// Loads a preset of the leader's config; `start` starts it too.
  public static func load(
    preset: String, start: Bool = false, client: LinkClientID, requestID: Int64
  ) -> LinkCommand {
    var request = JSONObject([("cmd", .string("load")), ("preset", .string(preset))])
    if start { request["start"] = .bool(true) }
    return LinkCommand(client: client, requestID: requestID, request: request)!
  }

  /// Loads a workout in the notation (`amrap 14`); `start` starts it too.
  public static func load(
    workout: String, start: Bool = false, client: LinkClientID, requestID: Int64
  ) -> LinkCommand {
    var request = JSONObject([("cmd", .string("load")), ("workout", .string(workout))])
    if start { request["start"] = .bool(true) }
    return LinkCommand(client: client, requestID: requestID, request: request)!
  }

  /// The request line for the control socket's parser.
  public var requestLine: [UInt8] { JSONValue.object(request).serializedBytes() }

  /// The message as published.
  public func encoded() -> [UInt8] {
    var object = request
    object["client"] = .string(client.text)
    return JSONValue.object(object).serializedBytes()
  }

  private static let parseOptions = JSONParseOptions(maxDepth: 8, maxInputBytes: maximumBytes)

  /// Reads a command message, checked before anything acts on it.
  public static func decode(_ bytes: some Collection<UInt8>) throws(LinkError) -> LinkCommand {
    guard bytes.count <= maximumBytes else {
      throw LinkError("a command of \(bytes.count) bytes, more than \(maximumBytes)")
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes, options: parseOptions)
    } catch {
      throw LinkError("the command is not JSON: \(error)")
    }
    guard let object = value.objectValue else { throw LinkError("a command is a JSON object") }
    guard let text = object["client"]?.stringValue, let client = LinkClientID(text) else {
      throw LinkError("\"client\" must be the sender's client id")
    }
    guard let requestID = object["id"]?.intValue, (0...Int64(1) << 53).contains(requestID) else {
      throw LinkError("\"id\" must be a whole number from 0 to 2^53")
    }
    guard let name = object["cmd"]?.stringValue else {
      throw LinkError("missing \"cmd\" (a string)")
    }
    guard let command = LinkCommand(client: client, requestID: requestID, request: object) else {
      throw LinkError(
        "'\(name)' is not accepted over the broker; these are: "
          + acceptedNames.joined(separator: ", "))
    }
    return command
  }
}
