// SPDX-License-Identifier: MIT
// The control socket's connections: reading lines, writing replies, keeping every bad client
// (garbage, floods, silence, half lines, many at once) from costing the clock anything.

import HardwareKit
import JSONKit

/// Serves the line protocol on a Unix stream socket from the daemon's event loop.
final class ControlServer {
  struct Client {
    var connection: UnixConnection
    var input: [UInt8] = []
    var output: [UInt8] = []
    var subscribed = false
    var lastActivity: Int64
    /// Close once the output is flushed (after a fatal protocol error).
    var closeWhenFlushed = false
    var wantsWritable = false
  }

  /// More simultaneous clients than this are answered `too_many_clients` and closed.
  static let maximumClients = 64
  /// A client that has not sent a full request for this long is dropped (subscribers excepted).
  var idleTimeout: Int64 = 10_000_000_000
  /// A subscriber whose unread output grows past this is too slow and is dropped.
  static let maximumPendingOutput = 1 << 20

  let listener: UnixListener
  private let poller: EventPoller
  private let tokenBase: UInt64
  private var clients: [UInt64: Client] = [:]
  private var nextToken: UInt64
  private let logger: Logger

  /// Tokens at or above `tokenBase` belong to this server; `tokenBase` itself is the listener.
  init(listener: UnixListener, poller: EventPoller, tokenBase: UInt64, logger: Logger) throws {
    self.listener = listener
    self.poller = poller
    self.tokenBase = tokenBase
    self.nextToken = tokenBase + 1
    self.logger = logger
    try poller.register(listener.fileDescriptor, token: tokenBase, interest: .readable)
  }

  func owns(_ token: UInt64) -> Bool { token >= tokenBase }

  var clientCount: Int { clients.count }

  /// Whether anyone has subscribed to events (so the daemon can skip building them).
  var hasSubscribers: Bool { clients.values.contains(where: \.subscribed) }

  /// Handles a poller event for one of this server's tokens. `respond` executes a request and
  /// returns the reply (and whether the client now subscribes).
  func handle(
    _ event: EventPoller.Event, now: Int64,
    respond: (ControlRequest) -> (reply: JSONValue, subscribe: Bool)
  ) {
    if event.token == tokenBase {
      acceptAll(now: now)
      return
    }
    guard clients[event.token] != nil else { return }
    if event.isReadable || event.isHangup || event.isError {
      read(event.token, now: now, respond: respond)
    }
    if event.isWritable, clients[event.token] != nil {
      flush(event.token)
    }
  }

  /// Sends `value` to every subscriber.
  func broadcast(_ value: JSONValue) {
    guard clients.values.contains(where: \.subscribed) else { return }
    let line = value.serializedBytes() + [0x0A]
    for token in Array(clients.keys) where clients[token]?.subscribed == true {
      enqueue(line, to: token)
    }
  }

  /// The earliest instant a silent client must be dropped.
  func nextWakeUp() -> Int64? {
    clients.values.filter { !$0.subscribed }.map { $0.lastActivity + idleTimeout }.min()
  }

  /// Drops clients that have been silent too long.
  func expire(now: Int64) {
    for (token, client) in clients where !client.subscribed {
      if now - client.lastActivity >= idleTimeout {
        logger.debug("control client timed out", [("client", String(token - tokenBase))])
        drop(token)
      }
    }
  }

  func close() {
    for token in Array(clients.keys) { drop(token) }
    try? poller.unregister(listener.fileDescriptor)
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
      if clients.count >= Self.maximumClients {
        let reply = ControlProtocol.failure(
          id: nil,
          ControlFailure(
            "too_many_clients", "the daemon serves \(Self.maximumClients) clients at most"))
        _ = try? connection.write(reply.serializedBytes() + [0x0A])
        try? connection.close()
        continue
      }
      let token = nextToken
      nextToken += 1
      do {
        try poller.register(connection.fileDescriptor, token: token, interest: .readable)
      } catch {
        try? connection.close()
        continue
      }
      clients[token] = Client(connection: connection, lastActivity: now)
    }
  }

  private func read(
    _ token: UInt64, now: Int64, respond: (ControlRequest) -> (reply: JSONValue, subscribe: Bool)
  ) {
    guard var client = clients[token] else { return }
    // Read what is there, a bounded amount per wake-up so one flooding client cannot starve
    // the loop; the rest is read on the next wake-up (epoll is level-triggered).
    var closed = false
    for _ in 0..<16 {
      let result: FileDescriptor.ReadResult
      do {
        result = try client.connection.read(appendingTo: &client.input, maximumCount: 4096)
      } catch {
        closed = true
        break
      }
      if case .bytes = result { continue }
      if case .endOfFile = result { closed = true }
      break
    }
    clients[token] = client
    processLines(token, now: now, respond: respond)
    if closed {
      // A client that hung up mid-line: what it half-sent is discarded.
      drop(token)
    }
  }

  private func processLines(
    _ token: UInt64, now: Int64, respond: (ControlRequest) -> (reply: JSONValue, subscribe: Bool)
  ) {
    while var client = clients[token], !client.closeWhenFlushed {
      guard let newline = client.input.firstIndex(of: 0x0A) else {
        if client.input.count > ControlProtocol.maximumLineBytes {
          client.input.removeAll()
          clients[token] = client
          fail(
            token,
            ControlFailure(
              "line_too_long", "a request line is \(ControlProtocol.maximumLineBytes) bytes at most"
            ))
        }
        return
      }
      var line = Array(client.input[..<newline])
      client.input.removeSubrange(...newline)
      client.lastActivity = now
      clients[token] = client
      if line.last == 0x0D { line.removeLast() }
      if line.isEmpty { continue }
      if line.count > ControlProtocol.maximumLineBytes {
        fail(
          token,
          ControlFailure(
            "line_too_long", "a request line is \(ControlProtocol.maximumLineBytes) bytes at most"))
        return
      }
      switch ControlProtocol.parse(line) {
      case .success(let request):
        let (reply, subscribe) = respond(request)
        if subscribe { clients[token]?.subscribed = true }
        enqueue(reply.serializedBytes() + [0x0A], to: token)
      case .failure(let rejection):
        enqueue(
          ControlProtocol.failure(id: rejection.id, rejection.failure).serializedBytes() + [0x0A],
          to: token)
      }
    }
  }

  private func fail(_ token: UInt64, _ failure: ControlFailure) {
    enqueue(ControlProtocol.failure(id: nil, failure).serializedBytes() + [0x0A], to: token)
    clients[token]?.closeWhenFlushed = true
    if clients[token]?.output.isEmpty ?? true { drop(token) }
  }

  private func enqueue(_ bytes: [UInt8], to token: UInt64) {
    guard var client = clients[token] else { return }
    if client.output.count + bytes.count > Self.maximumPendingOutput {
      logger.warning("control client too slow; dropped", [("client", String(token - tokenBase))])
      drop(token)
      return
    }
    client.output += bytes
    clients[token] = client
    flush(token)
  }

  private func flush(_ token: UInt64) {
    guard var client = clients[token] else { return }
    while !client.output.isEmpty {
      let result: FileDescriptor.WriteResult
      do {
        result = try client.connection.write(client.output)
      } catch {
        drop(token)
        return
      }
      switch result {
      case .written(let count):
        client.output.removeFirst(count)
      case .wouldBlock:
        if !client.wantsWritable {
          client.wantsWritable = true
          try? poller.modify(
            client.connection.fileDescriptor, token: token, interest: [.readable, .writable])
        }
        clients[token] = client
        return
      }
    }
    if client.wantsWritable {
      client.wantsWritable = false
      try? poller.modify(client.connection.fileDescriptor, token: token, interest: .readable)
    }
    clients[token] = client
    if client.closeWhenFlushed { drop(token) }
  }

  private func dropHungUpClients() {
    for (token, client) in clients where client.connection.isHungUp { drop(token) }
  }

  private func drop(_ token: UInt64) {
    guard let client = clients.removeValue(forKey: token) else { return }
    try? poller.unregister(client.connection.fileDescriptor)
    try? client.connection.close()
  }
}
