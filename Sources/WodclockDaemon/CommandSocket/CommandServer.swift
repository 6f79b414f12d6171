// SPDX-License-Identifier: MIT
// The control socket's connections: reading lines, writing replies, keeping every bad client
// (garbage, floods, pipelined batches, silence, half lines, many at once) from costing the
// clock or the other clients anything.

import ControlProtocol
import HardwareKit
import JSONKit

/// Serves the line protocol on a Unix stream socket from the daemon's event loop.
///
/// Fair by turns: a client with requests waiting gets a turn of at most `requestsPerTurn` of
/// them, and a wake-up serves at most `requestsPerWakeUp` in all; a client with more waiting
/// keeps its place in line and the loop comes back at once (`nextWakeUp`), so a batch of
/// thousands holds nobody else up and is answered to the last request, in order. Bounded by
/// backpressure: a client that leaves its replies unread is not read from (and so sends no
/// more) until it reads them.
final class CommandServer {
  /// One connection and what is in flight on it. A class: its buffers change in place, never
  /// copied out of the table and back.
  final class Client {
    let connection: UnixConnection
    /// Bytes received and not yet handled: whole request lines, then perhaps part of one.
    var input: [UInt8] = []
    var output: [UInt8] = []
    var subscribed = false
    /// When the client last sent something or read a reply.
    var lastActivity: Int64
    /// More bytes may be waiting in the socket. Connections are watched edge-triggered (the
    /// poller reports new data once), so the server remembers what it has not read yet.
    var mayRead = true
    /// The peer sends nothing more (end of stream); what it sent before is still answered.
    var inputEnded = false
    /// The socket's buffer was full: wait for the poller to report room.
    var writeBlocked = false
    /// Close once the output is flushed (after a fatal protocol error or the end of input).
    var closeWhenFlushed = false
    /// Waiting in line for a turn.
    var queued = false

    init(connection: UnixConnection, lastActivity: Int64) {
      self.connection = connection
      self.lastActivity = lastActivity
    }

    /// Whether a turn has something to do: requests to answer, an overlong line to refuse or
    /// bytes to read, and room for the replies.
    var wantsTurn: Bool {
      guard !closeWhenFlushed, output.count < CommandServer.outputHighWater else { return false }
      if inputEnded || input.contains(0x0A) { return true }
      if input.count > CommandProtocol.maximumLineBytes { return true }
      return mayRead && input.count < CommandServer.maximumPendingInput
    }
  }

  /// Clients served at once. A new one past this closes the longest idle client that has not
  /// subscribed (`evicted`); when every client is subscribed or waiting for a turn, the new one
  /// is refused (`too_many_clients`).
  static let maximumClients = 64
  /// Requests answered for one client in one turn.
  static let requestsPerTurn = 8
  /// Requests answered in one wake-up, for all clients together: what a wake-up spends here.
  static let requestsPerWakeUp = 64
  /// Request bytes held per client; the socket is read again once they are answered. Twice the
  /// longest line, so that an overlong line is always seen to be one.
  static let maximumPendingInput = 2 * CommandProtocol.maximumLineBytes
  /// A client with this much unread output is not read from or served until it reads.
  static let outputHighWater = 256 << 10
  /// A subscriber whose unread output grows past this is too slow and is dropped.
  static let maximumPendingOutput = 1 << 20
  /// The longest reply: what fits above the high-water mark. A longer one is answered
  /// `too_large` instead.
  static let maximumReplyBytes = maximumPendingOutput - outputHighWater

  /// A client that has neither sent anything nor read a reply for this long is dropped
  /// (subscribers and clients waiting for a turn excepted).
  var idleTimeout: Int64 = 10_000_000_000

  let listener: UnixListener
  private let sources: EventSources
  /// Clients by the server's number for each (never reused while the daemon runs).
  private var clients: [UInt64: Client] = [:]
  /// Clients waiting for a turn, first come first served.
  private var queue: [UInt64] = []
  private var nextToken: UInt64 = 1
  private let logger: Logger

  typealias Responder = (CommandRequest) -> (reply: JSONValue, subscribe: Bool)

  /// Serves `listener`, watched through `sources` as ``EventSource/commandListener`` and each
  /// client as ``EventSource/commandClient(_:)``.
  init(listener: UnixListener, sources: EventSources, logger: Logger) throws {
    self.listener = listener
    self.sources = sources
    self.logger = logger
    try sources.watch(listener.fileDescriptor, for: .readable, as: .commandListener)
  }

  var clientCount: Int { clients.count }

  /// Whether anyone has subscribed to events (so the daemon can skip building them).
  var hasSubscribers: Bool { clients.values.contains(where: \.subscribed) }

  /// Accepts the clients waiting on the listening socket.
  func acceptClients(now: Int64) { acceptAll(now: now) }

  /// Handles what the poller saw on a client's connection: sends what the client has room
  /// for, and puts a client with something to read in line for a turn.
  func handle(client token: UInt64, _ readiness: Readiness, now: Int64) {
    guard let client = clients[token] else { return }
    // A hang-up or an error is found out by the next read or write.
    if readiness.isReadable || readiness.isHangup || readiness.isError { client.mayRead = true }
    if readiness.isWritable || readiness.isHangup || readiness.isError {
      client.writeBlocked = false
    }
    // Output going out to a client that was blocked means that it read.
    if flush(token, client) { client.lastActivity = now }
    queueForTurn(token)
  }

  /// Gives the clients in line their turns, in order, until the wake-up's budget is spent;
  /// the others keep their places for the next wake-up. `respond` executes a request and
  /// returns the reply (and whether the client now subscribes).
  func serve(now: Int64, respond: Responder) {
    var budget = Self.requestsPerWakeUp
    let waiting = queue
    queue = []
    var served = 0
    while served < waiting.count && budget > 0 {
      let token = waiting[served]
      served += 1
      guard let client = clients[token] else { continue }
      client.queued = false
      budget -= takeTurn(token, client, now: now, limit: min(budget, Self.requestsPerTurn), respond)
      queueForTurn(token)
    }
    queue = waiting[served...].filter { clients[$0] != nil } + queue
  }

  /// Sends `value` to every subscriber.
  func broadcast(_ value: JSONValue) {
    guard clients.values.contains(where: \.subscribed) else { return }
    let line = value.serializedBytes() + [0x0A]
    for (token, client) in clients where client.subscribed { enqueue(line, to: token) }
  }

  /// Now while a client waits for a turn; otherwise the earliest instant a silent client must
  /// be dropped.
  func nextWakeUp(after now: Int64) -> Int64? {
    if !queue.isEmpty { return now }
    return clients.values.filter { !$0.subscribed }.map { $0.lastActivity + idleTimeout }.min()
  }

  /// Drops clients that have been silent too long.
  func expire(now: Int64) {
    for (token, client) in clients where !client.subscribed && !client.queued {
      if now - client.lastActivity >= idleTimeout {
        logger.debug("control client timed out", [("client", String(token))])
        drop(token)
      }
    }
  }

  func close() {
    for token in Array(clients.keys) { drop(token) }
    sources.unwatch(.commandListener)
    try? listener.close(removingFile: true)
  }

  // MARK: - Connections

  private func acceptAll(now: Int64) {
    while true {
      let connection: UnixConnection?
      do {
        connection = try listener.accept()
      } catch {
        logger.warning("control socket accept failed", [("error", "\(error)")])
        return
      }
      guard let connection else { return }
      // Clients that hung up in the same moment may not have been read yet: they do not count.
      if clients.count >= Self.maximumClients { dropHungUpClients() }
      if clients.count >= Self.maximumClients { evictLongestIdle(now: now) }
      if clients.count >= Self.maximumClients {
        let reply = CommandProtocol.failure(
          id: nil,
          CommandFailure(
            "too_many_clients",
            "the daemon serves \(Self.maximumClients) clients at most, and every one is"
              + " subscribed or waiting for an answer"))
        _ = try? connection.write(reply.serializedBytes() + [0x0A])
        try? connection.close()
        continue
      }
      let token = nextToken
      nextToken += 1
      do {
        // Edge-triggered: a peer that has shut down its side stays readable for good, and a
        // client held back by backpressure stays readable too; neither may wake the loop again
        // and again. The server tracks what it has not read or written yet itself.
        try sources.watch(
          connection.fileDescriptor, for: [.readable, .writable, .edgeTriggered],
          as: .commandClient(token))
      } catch {
        try? connection.close()
        continue
      }
      clients[token] = Client(connection: connection, lastActivity: now)
      queueForTurn(token)
    }
  }

  /// Closes the client idle longest among those not subscribed and not waiting for a turn,
  /// after a last line that says why.
  private func evictLongestIdle(now: Int64) {
    let candidates = clients.filter { !$0.value.subscribed && !$0.value.queued }
    guard
      let (token, client) = candidates.min(by: { $0.value.lastActivity < $1.value.lastActivity })
        .map({ ($0.key, $0.value) })
    else { return }
    logger.info(
      "control client closed to make room for a new one",
      [
        ("client", String(token)),
        ("idle_s", String((now - client.lastActivity) / 1_000_000_000)),
      ])
    // After what it is still owed, when the socket takes all of that now.
    flush(token, client)
    if clients[token] != nil && client.output.isEmpty {
      let farewell = CommandProtocol.failure(
        id: nil,
        CommandFailure(
          "evicted",
          "the daemon serves \(Self.maximumClients) clients at most and closed this one, idle"
            + " the longest, to make room for a new one"))
      _ = try? client.connection.write(farewell.serializedBytes() + [0x0A])
    }
    drop(token)
  }

  private func queueForTurn(_ token: UInt64) {
    guard let client = clients[token], !client.queued, client.wantsTurn else { return }
    client.queued = true
    queue.append(token)
  }

  /// One turn: reads what the client sent (as much as it may have pending) and answers up to
  /// `limit` of its requests. Returns how many it answered.
  private func takeTurn(
    _ token: UInt64, _ client: Client, now: Int64, limit: Int, _ respond: Responder
  ) -> Int {
    readAvailable(token, client, now: now)
    var answered = 0
    while answered < limit, clients[token] != nil, !client.closeWhenFlushed,
      client.output.count < Self.outputHighWater
    {
      guard let newline = client.input.firstIndex(of: 0x0A) else {
        if client.input.count > CommandProtocol.maximumLineBytes {
          client.input.removeAll()
          failTooLong(token, client)
        }
        break
      }
      var text = Array(client.input[..<newline])
      client.input.removeSubrange(...newline)
      client.lastActivity = now
      if text.last == 0x0D { text.removeLast() }
      if text.isEmpty { continue }
      if text.count > CommandProtocol.maximumLineBytes {
        failTooLong(token, client)
        break
      }
      answered += 1
      switch CommandProtocol.parse(text) {
      case .success(let request):
        let (reply, subscribe) = respond(request)
        if subscribe { client.subscribed = true }
        var bytes = reply.serializedBytes() + [0x0A]
        if bytes.count > Self.maximumReplyBytes {
          let failure = CommandFailure(
            "too_large",
            "the reply would be \(bytes.count) bytes, more than the \(Self.maximumReplyBytes)"
              + " one reply may have; ask for less")
          bytes = CommandProtocol.failure(id: request.id, failure).serializedBytes() + [0x0A]
        }
        enqueue(bytes, to: token)
      case .failure(let rejection):
        enqueue(
          CommandProtocol.failure(id: rejection.id, rejection.failure).serializedBytes() + [0x0A],
          to: token)
      }
    }
    finishIfDone(token, client)
    return answered
  }

  /// Reads until the socket is empty or the client holds as many request bytes as it may;
  /// nothing while its replies are piling up unread.
  private func readAvailable(_ token: UInt64, _ client: Client, now: Int64) {
    guard client.mayRead, !client.inputEnded, !client.closeWhenFlushed,
      client.output.count < Self.outputHighWater
    else { return }
    while client.input.count < Self.maximumPendingInput {
      let result: FileDescriptor.ReadResult
      do {
        result = try client.connection.read(
          appendingTo: &client.input,
          maximumCount: min(4096, Self.maximumPendingInput - client.input.count))
      } catch {
        // A connection reset: no reply could reach the client any more.
        drop(token)
        return
      }
      switch result {
      case .bytes:
        client.lastActivity = now
        continue
      case .wouldBlock:
        client.mayRead = false
      case .endOfFile:
        client.mayRead = false
        client.inputEnded = true
      }
      return
    }
  }

  /// Closes a client that will send nothing more once its last request has been answered and
  /// the replies have gone out. What it half-sent before hanging up is discarded.
  private func finishIfDone(_ token: UInt64, _ client: Client) {
    guard clients[token] != nil, client.inputEnded, !client.closeWhenFlushed,
      !client.input.contains(0x0A)
    else { return }
    if client.output.isEmpty {
      drop(token)
    } else {
      client.closeWhenFlushed = true
    }
  }

  private func failTooLong(_ token: UInt64, _ client: Client) {
    let failure = CommandFailure(
      "line_too_long", "a request line is \(CommandProtocol.maximumLineBytes) bytes at most")
    enqueue(CommandProtocol.failure(id: nil, failure).serializedBytes() + [0x0A], to: token)
    client.closeWhenFlushed = true
    if clients[token] != nil && client.output.isEmpty { drop(token) }
  }

  private func enqueue(_ bytes: [UInt8], to token: UInt64) {
    guard let client = clients[token] else { return }
    // Only events can overflow: a request is answered below the high-water mark, and its
    // reply fits above it.
    if client.output.count + bytes.count > Self.maximumPendingOutput {
      logger.warning("control client too slow; dropped", [("client", String(token))])
      drop(token)
      return
    }
    client.output += bytes
    flush(token, client)
  }

  /// Writes what the socket takes now. Returns whether anything went out.
  @discardableResult
  private func flush(_ token: UInt64, _ client: Client) -> Bool {
    guard !client.writeBlocked else { return false }
    var wrote = false
    while !client.output.isEmpty {
      let result: FileDescriptor.WriteResult
      do {
        result = try client.connection.write(client.output)
      } catch {
        drop(token)
        return wrote
      }
      switch result {
      case .written(let count):
        client.output.removeFirst(count)
        wrote = true
      case .wouldBlock:
        client.writeBlocked = true
        return wrote
      }
    }
    if client.closeWhenFlushed { drop(token) }
    return wrote
  }

  private func dropHungUpClients() {
    for (token, client) in clients where client.connection.isHungUp { drop(token) }
  }

  private func drop(_ token: UInt64) {
    guard let client = clients.removeValue(forKey: token) else { return }
    if client.queued { queue.removeAll { $0 == token } }
    sources.unwatch(.commandClient(token))
    try? client.connection.close()
  }
}
