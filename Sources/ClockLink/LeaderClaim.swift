// SPDX-License-Identifier: MIT
// A room has one leader: the claim a leader publishes on the room's claim topic, what each
// clock knows of the others' availability, and a leader's decision to lead or to give way.

import JSONKit

/// A leader's claim on its room, retained on ``LinkRoom/claimTopic``: which clock leads, since
/// which start (`epoch`, the one its state messages carry) and since when (wall clock, ns).
public struct LeaderClaim: Sendable, Hashable {
  public static let version: Int64 = 1
  /// A claim is a few dozen bytes; anything much larger is not one.
  public static let maximumBytes = 1024

  public var client: LinkClientID
  public var epoch: Int64
  public var sinceWallNanoseconds: Int64

  public init(client: LinkClientID, epoch: Int64, sinceWallNanoseconds: Int64) {
    self.client = client
    self.epoch = epoch
    self.sinceWallNanoseconds = sinceWallNanoseconds
  }

  /// `{"v": 1, "client": "lane-1", "epoch": 1767635400000000000, "since_wall_ns": ...}`.
  public var encoded: [UInt8] {
    JSONValue.object(
      JSONObject([
        ("v", .integer(Self.version)), ("client", .string(client.text)),
        ("epoch", .integer(epoch)), ("since_wall_ns", .integer(sinceWallNanoseconds)),
      ])
    ).serializedBytes()
  }

  private static let parseOptions = JSONParseOptions(maxDepth: 4, maxInputBytes: maximumBytes)

  /// Reads a claim; every field is checked before it is used.
  public static func decode(_ bytes: some Collection<UInt8>) throws(LinkError) -> LeaderClaim {
    guard bytes.count <= maximumBytes else {
      throw LinkError("a claim of \(bytes.count) bytes, more than \(maximumBytes)")
    }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes, options: parseOptions)
    } catch {
      throw LinkError("the claim is not JSON: \(error)")
    }
    guard value["v"]?.intValue == version else {
      throw LinkError("the claim's version is not \(version)")
    }
    guard let text = value["client"]?.stringValue, let client = LinkClientID(text) else {
      throw LinkError("the claim's \"client\" is not a client id")
    }
    guard let epoch = value["epoch"]?.intValue, epoch >= 0,
      let since = value["since_wall_ns"]?.intValue, LinkLimits.wallNanoseconds.contains(since)
    else {
      throw LinkError("the claim's \"epoch\" and \"since_wall_ns\" must be instants in ns")
    }
    return LeaderClaim(client: client, epoch: epoch, sinceWallNanoseconds: since)
  }
}

/// What a clock knows of the others' availability (their retained `online`/`offline` on
/// ``LinkRoom/availabilityTopic(of:)``), bounded so that a flood of made-up clocks cannot grow
/// it without end.
public struct LinkRoster: Sendable, Hashable {
  public static let capacity = 256
  private var online: [LinkClientID: Bool] = [:]

  public init() {}

  /// Whether `client` said `online` last; nil when it said nothing (or was forgotten).
  public func isOnline(_ client: LinkClientID) -> Bool? { online[client] }

  /// `client`'s topic said `payload`; anything but `online` or `offline` is ignored. Returns
  /// the availability now known for it.
  @discardableResult
  public mutating func availability(of client: LinkClientID, _ payload: some Collection<UInt8>)
    -> Bool?
  {
    let said: Bool
    if payload.elementsEqual(LinkAvailability.online.utf8) {
      said = true
    } else if payload.elementsEqual(LinkAvailability.offline.utf8) {
      said = false
    } else {
      return online[client]
    }
    if online[client] == nil && online.count >= Self.capacity {
      // Forget the clocks that are gone first: an online one may be the room's leader.
      if let gone = online.first(where: { !$0.value })?.key {
        online[gone] = nil
      } else {
        return nil
      }
    }
    online[client] = said
    return said
  }
}

/// A clock configured as its room's leader deciding whether it leads (docs/link-protocol.md,
/// *One leader*).
///
/// On every connection it first learns what the broker holds: the room's retained claim and
/// the clocks' retained availability arrive on its subscriptions before the echo of its own
/// `online` (MQTT v5 section 4.6: a server keeps the order of the messages it forwards from
/// one client's publishes on one topic, and sends a subscription's retained messages when it
/// takes the subscription, before it handles that client's later publish). That echo is the
/// ``barrier()``: a claim by another clock that is online then means the room has a leader,
/// and this clock gives way. Otherwise it publishes its claim, and leads once the broker
/// forwards it back. Two clocks that claim at once see both claims in the broker's order:
/// the one whose claim came first leads, the other gives way, and the winner claims again so
/// the retained claim is its own.
public struct LeaderElection: Sendable, Hashable {
  public enum Standing: Sendable, Hashable {
    /// Connected; waiting for the room's retained claim and the clocks' availability.
    case probing
    /// Its claim published; waiting for the broker to forward it back.
    case claiming
    case leading
    /// Another clock leads the room: this one does not (until it is restarted or reloaded).
    case yielded(to: LinkClientID)
  }

  /// What the clock is to do.
  public enum Step: Sendable, Hashable {
    case none
    /// Publish this clock's claim (retained).
    case publishClaim
    /// Its claim is the room's: publish the state.
    case lead
    /// Another clock's claim came after this one's: publish this clock's again, so the
    /// retained claim, which the followers go by, is the leader's.
    case reclaim
    /// Another clock leads: stop leading, say so.
    case yield(to: LinkClientID)
  }

  public let own: LinkClientID
  public private(set) var standing: Standing = .probing
  /// The last claim the broker gave, in its order.
  public private(set) var roomClaim: LeaderClaim?
  public private(set) var roster = LinkRoster()

  public init(own: LinkClientID) { self.own = own }

  /// A new connection: what was known is asked again. A clock that gave way stays so.
  public mutating func connected() {
    roomClaim = nil
    if case .yielded = standing { return }
    standing = .probing
  }

  /// A clock's availability topic said `payload`.
  public mutating func availability(of client: LinkClientID, _ payload: some Collection<UInt8>) {
    roster.availability(of: client, payload)
  }

  /// The echo of this clock's own `online`: everything retained has arrived.
  public mutating func barrier() -> Step {
    guard standing == .probing else { return .none }
    if let claim = roomClaim, claim.client != own, roster.isOnline(claim.client) == true {
      standing = .yielded(to: claim.client)
      return .yield(to: claim.client)
    }
    standing = .claiming
    return .publishClaim
  }

  /// A claim arrived (retained or live). `epoch` is this clock's, to tell its own claim from
  /// one of an earlier run.
  public mutating func claimArrived(_ claim: LeaderClaim, ownEpoch epoch: Int64) -> Step {
    roomClaim = claim
    switch standing {
    case .probing, .yielded:
      return .none
    case .claiming:
      if claim.client == own {
        guard claim.epoch == epoch else { return .none }
        standing = .leading
        return .lead
      }
      // Another clock's claim, forwarded before this one's: it was first.
      standing = .yielded(to: claim.client)
      return .yield(to: claim.client)
    case .leading:
      // Another clock's claim after this one's: it was second and gives way when it sees
      // this one's claim come first; the retained claim must be the leader's again. A claim
      // with this clock's own id is another process with the same client id: the client
      // id clash, which the connection says (the broker throws one of them off).
      return claim.client == own ? .none : .reclaim
    }
  }

  /// The room's claim was cleared (an empty retained message).
  public mutating func claimCleared() { roomClaim = nil }

  /// The clock another clock's lead keeps from leading; nil otherwise.
  public var yieldedTo: LinkClientID? {
    if case .yielded(let other) = standing { return other }
    return nil
  }

  public var isLeading: Bool { standing == .leading }
}
