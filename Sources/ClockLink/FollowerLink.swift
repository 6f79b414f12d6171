// SPDX-License-Identifier: MIT
// A follower's side of the link as decisions: whether to apply a state message, and what small
// sign the clock shows about the link.

/// What a follower knows of its leader, and what it decides from it. The daemon feeds it what
/// arrives (state messages, the leader's availability, the broker's connection, whether the
/// wall clock is synchronized) and applies a state only when told to.
///
/// It follows only the room's claimant (``LeaderClaim``): a state message from any other
/// clock (a second clock left at the leader's role, or one forged) is ignored, and the
/// leader's availability is the claimant's own. A new claimant starts the stamps afresh (its
/// epoch is its own start, which may be older than the last one's); the same claimant with a
/// newer epoch is the leader restarted, and its stamps are newer anyway.
///
/// Faults keep the clock running what it knew: the leader gone (its last will says `offline`)
/// or the broker gone, the follower keeps running the plan it has and says so; a follower whose
/// wall clock is not synchronized cannot place the leader's wall-clock instants and refuses to
/// follow until it is (the newest refused state is then applied at once).
public struct FollowerLink: Sendable {
  /// The sign the clock shows about the link, most important first; nil when all is well.
  public enum Sign: Sendable, Hashable, CustomStringConvertible {
    case clockNotSynchronized
    case speedMismatch(leader: Int64, own: Int64)
    case brokerUnreachable
    case leaderOffline
    case waitingForLeader

    public var description: String {
      switch self {
      case .clockNotSynchronized: "clock not synchronized"
      case .speedMismatch(let leader, let own): "leader at speed \(leader), this clock at \(own)"
      case .brokerUnreachable: "broker unreachable"
      case .leaderOffline: "leader offline"
      case .waitingForLeader: "waiting for the leader"
      }
    }
  }

  /// What to do with a state message that arrived.
  public enum Decision: Sendable, Hashable {
    /// Compute the clock from it (``LeaderState/workout(at:staleCueLimit:)``).
    case apply
    /// It is not newer than the one applied last: a retained message delivered again.
    case ignoreOlder
    /// It is kept until the wall clock is synchronized, then applied (see
    /// ``clockSynchronization(_:)``).
    case holdUntilSynchronized
    /// The leader runs at another `--speed`: no second would match.
    case refuseSpeed
    /// It is not from the room's claimant (nil: no claim seen yet).
    case ignoreNotClaimant(claimant: LinkClientID?)
  }

  public let speed: Int64
  public private(set) var lastApplied: LinkStamp?
  public private(set) var leaderOnline: Bool?
  public private(set) var brokerConnected = false
  public private(set) var synchronized: Bool
  /// The clock whose claim on the room is the latest the broker gave.
  public private(set) var claimant: LinkClientID?
  private var roster = LinkRoster()
  /// The speed of the newest state refused for it, while that is the newest state.
  private var refusedSpeed: Int64?
  /// The newest state held until the wall clock is synchronized.
  private var held: LeaderState?

  public init(speed: Int64, synchronized: Bool) {
    self.speed = speed
    self.synchronized = synchronized
  }

  /// A state message arrived.
  public mutating func receive(_ state: LeaderState) -> Decision {
    guard let claimant, state.leader == claimant else {
      return .ignoreNotClaimant(claimant: claimant)
    }
    guard state.stamp.isNewer(than: lastApplied) else { return .ignoreOlder }
    guard state.speed == speed else {
      refusedSpeed = state.speed
      return .refuseSpeed
    }
    refusedSpeed = nil
    guard synchronized else {
      if held.map({ state.stamp > $0.stamp }) ?? true { held = state }
      return .holdUntilSynchronized
    }
    lastApplied = state.stamp
    // A state message comes from a leader that was online when it sent it.
    if leaderOnline == nil { leaderOnline = true }
    return .apply
  }

  /// The room's claim arrived (in the broker's order). Returns whether the claimant changed.
  @discardableResult
  public mutating func claimArrived(_ claim: LeaderClaim) -> Bool {
    guard claim.client != claimant else { return false }
    claimant = claim.client
    lastApplied = nil
    held = nil
    refusedSpeed = nil
    leaderOnline = roster.isOnline(claim.client)
    return true
  }

  /// A clock's availability topic said `payload`; anything but `online` or `offline` is
  /// ignored. Only the claimant's says whether the leader is there.
  public mutating func availability(of client: LinkClientID, _ payload: some Collection<UInt8>) {
    let online = roster.availability(of: client, payload)
    if client == claimant, let online { leaderOnline = online }
  }

  /// The broker connection came up or went down.
  public mutating func brokerConnection(_ connected: Bool) {
    brokerConnected = connected
  }

  /// Whether the wall clock is synchronized now. Returns the state held meanwhile when it
  /// just became synchronized: apply it.
  public mutating func clockSynchronization(_ synchronized: Bool) -> LeaderState? {
    self.synchronized = synchronized
    guard synchronized, let state = held else { return nil }
    held = nil
    guard state.stamp.isNewer(than: lastApplied) else { return nil }
    lastApplied = state.stamp
    return state
  }

  /// The sign to show now.
  public var sign: Sign? {
    if !synchronized { return .clockNotSynchronized }
    if let refusedSpeed { return .speedMismatch(leader: refusedSpeed, own: speed) }
    if !brokerConnected { return .brokerUnreachable }
    if leaderOnline == false { return .leaderOffline }
    if lastApplied == nil { return .waitingForLeader }
    return nil
  }
}
