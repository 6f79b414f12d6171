// SPDX-License-Identifier: MIT
// Where linked clocks meet on the broker: a room's topics, and the names that go into them.

/// A room: the topic namespace that the clocks showing one workout share. Several rooms on one
/// broker never see each other's messages: every topic of a room is under `wodclock/<room>/`,
/// and a room's name cannot hold a level separator (`/`) or a wildcard (`+`, `#`), so no name
/// reaches into another room's topics and no topic of one room matches another's.
public struct LinkRoom: Sendable, Hashable, CustomStringConvertible {
  public let name: String

  /// The first level of every topic of the link.
  public static let topicPrefix = "wodclock"
  /// The room of a config that names none.
  public static let standard = LinkRoom(checked: "main")
  public static let maximumLength = 64

  /// The room called `name`, or nil when the name is not 1–64 of `a-z A-Z 0-9 _ -`
  /// (``problem(with:)`` says why, for a diagnostic).
  public init?(_ name: String) {
    guard Self.problem(with: name) == nil else { return nil }
    self.name = name
  }

  private init(checked name: String) { self.name = name }

  /// Why `name` cannot name a room, or nil when it can.
  public static func problem(with name: String) -> String? {
    guard !name.isEmpty else { return "a room's name is empty" }
    guard name.utf8.count <= maximumLength else {
      return "a room's name has at most \(maximumLength) characters"
    }
    guard name.utf8.allSatisfy(isNameByte) else {
      return "a room's name is made of letters, digits, '_' and '-' (no '/', '+', '#' or spaces)"
    }
    return nil
  }

  /// The leader's state message, retained: what a follower computes its clock from.
  public var stateTopic: String { base + "state" }
  /// The leader's claim on the room, retained (``LeaderClaim``): which clock leads.
  public var claimTopic: String { base + "leader/claim" }
  /// Commands to the leader, from the followers' buttons and from Home Assistant.
  public var commandTopic: String { base + "command" }
  /// A clock's own availability, retained: `online`, and `offline` as its last will.
  public func availabilityTopic(of client: LinkClientID) -> String {
    base + "clock/" + client.text + "/available"
  }
  /// Every clock's availability topic: the filter a clock watches the others' with.
  public var availabilityFilter: String { base + "clock/+/available" }
  /// The clock whose availability topic `topic` is; nil for any other topic.
  public func availabilityClient(topic: String) -> LinkClientID? {
    let prefix = base + "clock/"
    let suffix = "/available"
    guard topic.hasPrefix(prefix), topic.hasSuffix(suffix),
      topic.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let name = topic.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
    return LinkClientID(String(decoding: name, as: UTF8.self))
  }
  /// The result of the last command Home Assistant sent this clock, retained (its sensor).
  public func homeAssistantResultTopic(of client: LinkClientID) -> String {
    base + "clock/" + client.text + "/ha_result"
  }
  /// The same result as an event, not retained (its event entity).
  public func homeAssistantEventTopic(of client: LinkClientID) -> String {
    base + "clock/" + client.text + "/ha_event"
  }
  /// The state message a clock publishes for Home Assistant (see ``HomeAssistantState``).
  public func homeAssistantStateTopic(of client: LinkClientID) -> String {
    base + "clock/" + client.text + "/ha"
  }
  /// The command topic of one of a clock's Home Assistant entities.
  public func homeAssistantCommandTopic(of client: LinkClientID, entity: String) -> String {
    base + "clock/" + client.text + "/ha/" + entity
  }

  /// Whether `topic` is one of this room's.
  public func contains(topic: String) -> Bool { topic.hasPrefix(base) }

  public var description: String { name }

  private var base: String { Self.topicPrefix + "/" + name + "/" }
}

/// A clock's MQTT client id: how the broker and the other clocks tell it apart. It is part of
/// its topics, so it holds no level separator or wildcard: 1–64 of `a-z A-Z 0-9 _ - .`.
public struct LinkClientID: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let text: String
  public static let maximumLength = 64

  public init?(_ text: String) {
    guard !text.isEmpty, text.utf8.count <= Self.maximumLength,
      text.utf8.allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: ".") })
    else { return nil }
    self.text = text
  }

  /// Home Assistant's node id for this clock: its ids are `a-z A-Z 0-9 _ -` only, so every
  /// other character becomes `_`.
  public var nodeID: String {
    String(decoding: text.utf8.map { isNameByte($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }
  public var description: String { text }
}

/// `a-z A-Z 0-9 _ -`: the characters of Home Assistant's ids, and of room names.
func isNameByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
    true
  default: false
  }
}
