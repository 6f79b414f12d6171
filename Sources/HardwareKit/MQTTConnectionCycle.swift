// SPDX-License-Identifier: MIT
// The life of an MQTT client's connection as a value: attempts, acceptance, endings, the waits
// between attempts and the client id clash, decided from what happened and the instants the
// caller gives. MQTTClient keeps one over libmosquitto; a test's in-memory client keeps one
// over an in-memory broker, so what the daemon sees of a clash or an outage is decided by the
// same rules in both.

public import RetryKit

/// Where a connection stands and what its next attempt waits for. No clock and no IO: every
/// instant is given (`CLOCK_MONOTONIC` nanoseconds).
public struct MQTTConnectionCycle: Sendable {
  public enum Phase: Hashable, Sendable {
    /// Not connected yet: no attempt was asked for.
    case idle
    /// An attempt is under way: the broker's CONNACK has not come.
    case connecting
    /// The broker accepted, at this instant.
    case connected(since: Int64)
    /// No connection; the next attempt is due at this instant.
    case waiting(retryAt: Int64)
    case closed
  }

  /// How a connection that was up ended, as the client says it.
  public enum Ending: Hashable, Sendable {
    /// This side asked for it (DISCONNECT with reason 0).
    case asked
    /// Another client uses this client id (``MQTTConnectionCycle/clientIDClash``).
    case clientIDClash
    /// The broker ended it this long after accepting it, without a reason: another client
    /// with the same id, or a broker that refuses what this client sends.
    case endedSoon(after: Int64)
    /// Anything else: the broker stopped, the network went, a keepalive ran out.
    case other
  }

  /// How long a connection must have been up for the backoff to start again at its first
  /// wait. One the broker ends at once (a second clock with the same client id taking the
  /// session over, a broker that drops a client it does not like) keeps backing off, so two
  /// clocks with one id do not throw each other off every second.
  public static let heldConnectionNanoseconds: Int64 = 10_000_000_000
  /// How many connections in a row the broker ends soon after accepting them before they are
  /// taken for a client id clash, when it gives no reason code.
  public static let takeOversForClash = 2
  /// The waits between attempts once a clash is seen: the other client keeps the connection
  /// meanwhile, and the two do not take it from each other every second.
  public static let clashBackoff = RetryBackoff(
    initial: 30_000_000_000, maximum: 300_000_000_000)
  /// How long a connection must be held for a clash to be over: longer than the clash's
  /// longest wait, by which the other clock, were it still there, would have taken the
  /// connection back. Sooner, the two would start their waits over at every hand-over and take
  /// the connection from each other every 30 s for ever.
  public static let clashOverAfterNanoseconds: Int64 =
    clashBackoff.maximum + heldConnectionNanoseconds

  public private(set) var phase: Phase = .idle
  private var backoff: RetryBackoff
  private var clashWaits = MQTTConnectionCycle.clashBackoff
  /// Connections the broker ended soon after accepting them, in a row.
  private var takeOversInARow = 0
  private var lastRetryWait: Int64 = 0
  /// Attempts that opened a connection (a socket), since the cycle began: a new socket may
  /// reuse the old one's number, and this tells them apart.
  public private(set) var attempts = 0
  /// Connections the broker accepted, since the cycle began.
  public private(set) var connectionsAccepted = 0
  /// Connections ended because another client took the client id over, since the cycle began.
  public private(set) var clientIDTakeOvers = 0
  /// Whether another client uses this client id on the broker now: the broker ended a
  /// connection with reason 0x8E "Session taken over" (MQTT v5 section 3.14.2.1; section
  /// 3.1.4 step 3: the server disconnects the existing client with that id), or ended
  /// ``takeOversForClash`` connections in a row soon after accepting them (a broker that
  /// closes the old socket before the DISCONNECT is written, or speaks 3.1.1, gives no
  /// reason). Cleared once a connection is held for ``clashOverAfterNanoseconds``.
  public private(set) var clientIDClash = false

  /// A cycle whose waits between failed attempts follow `backoff`.
  public init(backoff: RetryBackoff) {
    self.backoff = backoff
  }

  /// Whether the broker has accepted the current connection.
  public var isConnected: Bool {
    if case .connected = phase { return true }
    return false
  }

  /// The wait chosen before the next attempt at the last failure, in nanoseconds; nil while
  /// connected or before a failure.
  public var retryWait: Int64? {
    if case .waiting = phase { return lastRetryWait }
    return nil
  }

  /// The wait a clash's next failure gets, for the words that say it.
  public var upcomingClashWait: Int64 { clashWaits.upcoming }

  /// Whether an attempt is due at `now`.
  public func attemptDue(at now: Int64) -> Bool {
    if case .waiting(let retryAt) = phase { return now >= retryAt }
    return false
  }

  /// Connecting anew to a broker (another address, or the first): the waits start over.
  public mutating func restart() {
    backoff.reset()
  }

  /// An attempt opened a connection; the broker's answer is awaited.
  public mutating func attemptStarted() {
    attempts += 1
    phase = .connecting
  }

  /// An attempt that opened no connection (nothing listens, TLS failed), or whose
  /// connection ended before the broker accepted it: the next one waits.
  public mutating func attemptFailed(at now: Int64) {
    phase = .connecting
    retry(after: now, held: false)
  }

  /// The broker accepted the connection at `now`.
  public mutating func accepted(at now: Int64) {
    connectionsAccepted += 1
    phase = .connected(since: now)
  }

  /// A turn at `now`: a connection held long enough is no longer one ended soon after it was
  /// accepted, and one held longer still ends a clash and starts its waits over.
  public mutating func noteHeld(at now: Int64) {
    guard case .connected(let since) = phase else { return }
    if now - since >= Self.heldConnectionNanoseconds { takeOversInARow = 0 }
    if now - since >= Self.clashOverAfterNanoseconds { endClash() }
  }

  /// When a turn must come for ``noteHeld(at:)`` to end the clash, while one is on and the
  /// connection is up.
  public var clashEnds: Int64? {
    guard clientIDClash, case .connected(let since) = phase else { return nil }
    return since + Self.clashOverAfterNanoseconds
  }

  private mutating func endClash() {
    clientIDClash = false
    clashWaits.reset()
  }

  /// What ended a connection, as the broker or the socket said it.
  public enum Cause: Hashable, Sendable {
    /// This side asked for it (DISCONNECT with reason 0).
    case asked
    /// The broker's DISCONNECT 0x8E "Session taken over".
    case sessionTakenOver
    /// The socket closed without a reason.
    case lost
    /// Another reason: a broker's DISCONNECT code, a keepalive that ran out, a socket error.
    case other
  }

  /// The connection ended at `now` for `cause`. Returns how it ended, or nil when it was not
  /// up (an attempt that failed), and sets the next attempt.
  public mutating func ended(_ cause: Cause, at now: Int64) -> Ending? {
    guard case .connected(let since) = phase else {
      attemptFailed(at: now)
      return nil
    }
    let held = now - since >= Self.heldConnectionNanoseconds
    let takenOver = cause == .sessionTakenOver || (!held && cause == .lost)
    takeOversInARow = takenOver ? takeOversInARow + 1 : 0
    if cause == .sessionTakenOver || takeOversInARow >= Self.takeOversForClash {
      clientIDClash = true
      clientIDTakeOvers += 1
    } else if now - since >= Self.clashOverAfterNanoseconds {
      endClash()
    }
    retry(after: now, held: held)
    if cause == .asked { return .asked }
    if clientIDClash { return .clientIDClash }
    if takenOver { return .endedSoon(after: now - since) }
    return .other
  }

  /// The client was closed: no more attempts.
  public mutating func close() {
    phase = .closed
  }

  private mutating func retry(after now: Int64, held: Bool) {
    if held { backoff.reset() }
    let wait = clientIDClash ? clashWaits.failed() : backoff.failed()
    lastRetryWait = wait
    phase = .waiting(retryAt: now > Int64.max - wait ? Int64.max : now + wait)
  }
}
