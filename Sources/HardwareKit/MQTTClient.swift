// SPDX-License-Identifier: MIT
// An MQTT client inside the daemon's one loop: libmosquitto in its external-loop mode, loaded on
// demand (CMosquitto), with no thread of its own and no call that waits. The loop watches the
// client's socket, hands over what is ready, and wakes it about once a second for the
// keepalive and at the reconnect backoff's instants.
//
// MQTT v5 (OASIS MQTT Version 5.0): libmosquitto speaks it with the same calls as 3.1.1 once the
// protocol option is set, and its CONNACK and DISCONNECT reason codes say more (0x86 "bad user
// name or password" and 0x87 "not authorized" apart from the others, 0x8E "session taken over"
// when a second client uses the same id).

import CLinux
import CMosquitto
import Glibc
import RetryKit

/// An MQTT client driven by the caller's event loop.
///
/// Make it with its ``Options``, ``connect(to:now:)`` to a numeric address, then on every turn
/// watch ``watch`` (re-read it after each call: the socket changes at every reconnect), call
/// ``handleReady(readable:writable:now:)`` when the socket is ready or ``nextWakeUp`` has
/// come, and act on the events it returns. A connection that fails or drops is tried again by
/// itself (1 s doubling to 30 s; ``RetryBackoff``), and the subscriptions are made again on
/// every new connection.
///
/// Not thread-safe: one loop owns it. Nothing it is given or receives traps: what the library
/// or the broker refuses is an ``MQTTError`` (thrown, or in an event).
public final class MQTTClient {
  public let options: Options
  /// Where it connects; nil before ``connect(to:now:)``.
  public private(set) var broker: SocketAddress?
  /// The subscriptions made again on every connection, in the order they were asked for.
  public private(set) var subscriptions: [Subscription] = []
  /// The library's keepalive and retry work is done this often while a socket is open.
  public static let housekeepingNanoseconds: Int64 = 1_000_000_000
  /// The protocol spoken.
  public static let protocolName = "MQTT v5"

  private var client: OpaquePointer?
  /// Attempts, acceptance, endings, the waits between attempts and the client id clash.
  private var cycle: MQTTConnectionCycle
  private var nextHousekeeping: Int64 = 0
  /// The instant of the caller's last call that gave one: a call that gives none (a publish)
  /// and finds the connection ended stamps the ending with it, rather than read a clock.
  private var lastNow: Int64 = 0
  /// The wait before the next attempt as it was chosen at the last failure, in nanoseconds;
  /// nil while connected or before a failure.
  public var retryWait: Int64? { cycle.retryWait }
  /// Connections the broker accepted (CONNACK with reason 0), since the client was made.
  public var connectionsAccepted: Int { cycle.connectionsAccepted }
  /// Connections ended because another client took the client id over (see
  /// ``clientIDClash``), since the client was made.
  public var clientIDTakeOvers: Int { cycle.clientIDTakeOvers }
  /// Whether another client uses this client id on the broker now
  /// (``MQTTConnectionCycle/clientIDClash``).
  public var clientIDClash: Bool { cycle.clientIDClash }
  private var events: [Event] = []
  /// The subscriptions sent and not answered yet, by message id.
  private var pendingSubscriptions: [Int32: String] = [:]
  /// The broker refused this connection's CONNACK: the disconnection that follows is the same
  /// news and is not reported again.
  private var refusalReported = false
  /// The socket's own error (SO_ERROR), taken before the library reads a socket that failed to
  /// connect, so a refused TLS connection says ECONNREFUSED rather than "TLS failed".
  private var socketError: Errno?

  /// Loads libmosquitto (the first time) and makes the client; nothing is sent yet.
  /// - Throws: ``MQTTError``: the library is missing, or a setting it refuses (the client id,
  ///   keepalive, user name, password, will, an unreadable CA file).
  public init(options: Options) throws(MQTTError) {
    self.options = options
    cycle = MQTTConnectionCycle(backoff: options.reconnectBackoff)
    var message = [CChar](repeating: 0, count: 512)
    guard cmosq_load(&message, message.count) == 0 else {
      throw MQTTError(
        reason: .libraryMissing,
        message: "the MQTT link needs libmosquitto (Debian package libmosquitto1): "
          + String(
            decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
        hint: "apt install libmosquitto1")
    }
    try Self.check(options)
    var error: Int32 = 0
    guard
      let made = options.clientID.withCString({
        cmosq_new(
          $0, true, max(1, options.maximumQueuedEvents), max(0, options.maximumPayloadBytes),
          &error)
      })
    else {
      throw Self.settingError(
        "the MQTT client cannot be made with the client id \"\(options.clientID)\": "
          + Self.libraryText(error), hint: nil)
    }
    client = made
    if let username = options.username {
      // The password's bytes as they are (MQTT's password is binary data, section 3.1.3.6),
      // NUL-terminated for the library.
      let password = options.password.map { $0.map { CChar(bitPattern: $0) } + [0] }
      let result = username.withCString { user in
        password.map { cmosq_credentials(made, user, $0) } ?? cmosq_credentials(made, user, nil)
      }
      guard result == CMOSQ_ERR_SUCCESS else {
        throw Self.settingError(
          "the MQTT user name is refused: " + Self.libraryText(result),
          hint: "a user name is UTF-8 text")
      }
    }
    if let will = options.will {
      let result = will.topic.withCString { topic in
        will.payload.withUnsafeBytes {
          cmosq_will(made, topic, $0.baseAddress, $0.count, Int32(will.qos.rawValue), will.retain)
        }
      }
      guard result == CMOSQ_ERR_SUCCESS else {
        throw Self.settingError(
          "the MQTT last will's topic \"\(will.topic)\" is refused: " + Self.libraryText(result),
          hint: "a topic to publish to has no + or # and is not empty")
      }
    }
    if let caFile = options.certificateAuthorityFile {
      // mosquitto_tls_set opens the file to see that it is there; its certificates are read at
      // the connection (connect throws when they do not load).
      guard caFile.withCString({ cmosq_tls(made, $0) }) == CMOSQ_ERR_SUCCESS else {
        throw MQTTError(
          reason: .certificateAuthorityFile,
          message: "cannot read the MQTT broker's CA file \(caFile)",
          hint: "give the path of a PEM file holding the certificate of the authority that "
            + "signed the broker's, readable by the daemon's user")
      }
    }
  }

  deinit { close() }

  /// Connects to `address` (a numeric address: names are looked up off the loop, with
  /// ``AddressResolver``). The connection proceeds in ``handleReady(readable:writable:now:)``;
  /// a failure (nothing listens, unreachable) is an event, tried again with backoff. An open
  /// connection is ended cleanly first.
  /// - Throws: ``MQTTError`` when the attempt cannot be made at all: port 0, the CA file's
  ///   certificates do not load, the library refuses the address.
  public func connect(to address: SocketAddress, now: Int64) throws(MQTTError) {
    guard let client, cycle.phase != .closed else {
      throw MQTTError(reason: .notConnected, message: "the MQTT client is closed")
    }
    guard address.port != 0 else {
      throw Self.settingError(
        "the MQTT broker's port cannot be 0", hint: "the usual ports are 1883, and 8883 with TLS")
    }
    if cmosq_socket(client) >= 0 { _ = cmosq_disconnect(client) }
    broker = address
    lastNow = max(lastNow, now)
    cycle.restart()
    var errorNumber: Int32 = 0
    let result = address.address.description.withCString {
      cmosq_connect(client, $0, Int32(address.port), Int32(options.keepAliveSeconds), &errorNumber)
    }
    // The CA file loaded and the handshake began: a broker whose certificate does not verify
    // (or one that is not speaking TLS on this port) is a failure of this attempt, reported as
    // an event and tried again with backoff, as when the same happens on a reconnection.
    if result == CMOSQ_ERR_TLS && lastLogLine(or: "").hasSuffix("verify failed") {
      started(result, errorNumber: errorNumber, now: now)
      return
    }
    if result == CMOSQ_ERR_TLS {
      defer { cmosq_clear_last_log(client) }
      throw MQTTError(
        reason: .certificateAuthorityFile,
        message:
          "the MQTT broker's CA file \(options.certificateAuthorityFile ?? "") does not load: "
          + lastLogLine(or: "no certificate in it"),
        hint: "the file must hold the authority's certificate in PEM (-----BEGIN CERTIFICATE-----)")
    }
    if result == CMOSQ_ERR_INVAL {
      throw Self.settingError(
        "the MQTT client cannot connect to \(address): " + Self.libraryText(result), hint: nil)
    }
    started(result, errorNumber: errorNumber, now: now)
  }

  /// Connects to `host`, which must be a numeric IPv4 or IPv6 address.
  /// - Throws: ``MQTTError`` with ``MQTTError/Reason/notNumericAddress`` for a name, and what
  ///   ``connect(to:now:)`` throws.
  public func connect(host: String, port: UInt16, now: Int64) throws(MQTTError) {
    guard let address = IPAddress(host) else {
      throw MQTTError(
        reason: .notNumericAddress,
        message: "\"\(host)\" is not a numeric address: the MQTT client connects to addresses",
        hint: "look the name up first (AddressResolver does it in a child process, off the loop)")
    }
    try connect(to: SocketAddress(address, port: port), now: now)
  }

  /// What the loop watches for the client now; nil while it has no socket.
  public var watch: Watch? {
    guard let client else { return nil }
    let socket = cmosq_socket(client)
    guard socket >= 0 else { return nil }
    return Watch(
      descriptor: FileDescriptor(rawValue: socket), writable: cmosq_want_write(client),
      connection: cycle.attempts)
  }

  /// Whether the broker has accepted the current connection.
  public var isConnected: Bool { cycle.isConnected }

  /// When ``handleReady(readable:writable:now:)`` must be called even if the socket stays
  /// quiet, in `CLOCK_MONOTONIC` nanoseconds: the next housekeeping while a socket is open
  /// (keepalive pings, about once a second), the next attempt while there is none; nil before
  /// ``connect(to:now:)`` and after ``close()``.
  public var nextWakeUp: Int64? {
    switch cycle.phase {
    case .idle, .closed: nil
    case .waiting(let retryAt): retryAt
    case .connecting, .connected: nextHousekeeping
    }
  }

  /// Does what is ready: reads what the broker sent, writes what waits, pings when due, and
  /// tries again when the backoff's instant has come. Call it when ``watch``'s descriptor is
  /// ready or ``nextWakeUp`` has come (`readable` and `writable` false then).
  /// - Returns: the events since the last call, in order (``takeEvents()``'s).
  @discardableResult
  public func handleReady(readable: Bool, writable: Bool, now: Int64) -> [Event] {
    guard let client else { return takeEvents() }
    lastNow = max(lastNow, now)
    cycle.noteHeld(at: now)
    if cmosq_socket(client) >= 0 {
      if cycle.phase == .connecting && (readable || writable) {
        socketError = pendingSocketError()
      }
      if readable { _ = cmosq_loop_read(client) }
      if writable && cmosq_socket(client) >= 0 { _ = cmosq_loop_write(client) }
      if now >= nextHousekeeping && cmosq_socket(client) >= 0 {
        _ = cmosq_loop_misc(client)
        nextHousekeeping = now + Self.housekeepingNanoseconds
      }
      drain(now: now)
    }
    if cycle.attemptDue(at: now) {
      var errorNumber: Int32 = 0
      let result = cmosq_reconnect(client, &errorNumber)
      started(result, errorNumber: errorNumber, now: now)
    }
    return takeEvents()
  }

  /// The events since the last call (of this or ``handleReady(readable:writable:now:)``).
  public func takeEvents() -> [Event] {
    defer { events = [] }
    return events
  }

  /// Publishes `payload` to `topic`.
  /// - Returns: the message's id (a ``Event/delivered(messageID:)`` follows).
  /// - Throws: ``MQTTError``: not connected (nothing is kept for later: publish the state again
  ///   on ``Event/connected(sessionPresent:)``), a topic the protocol refuses, too large.
  @discardableResult
  public func publish(topic: String, payload: [UInt8], qos: QoS = .atMostOnce, retain: Bool = false)
    throws(MQTTError) -> Int
  {
    guard let client, isConnected else {
      throw MQTTError(
        reason: .notConnected,
        message: "cannot publish to \(topic): not connected to the MQTT broker")
    }
    guard Self.isValid(topic, publishing: true) else {
      throw Self.settingError(
        "cannot publish to \"\(topic)\": not a topic one can publish to",
        hint: "a topic to publish to is UTF-8, not empty, and has no + or #")
    }
    var messageID: Int32 = 0
    let result = topic.withCString { name in
      payload.withUnsafeBytes {
        cmosq_publish(
          client, &messageID, name, $0.baseAddress, $0.count, Int32(qos.rawValue), retain)
      }
    }
    drain(now: nil)
    guard result == CMOSQ_ERR_SUCCESS else { throw failure(result, while: "publish to \(topic)") }
    return Int(messageID)
  }

  /// Subscribes to `filter`, now if connected and again on every connection.
  /// - Throws: ``MQTTError`` for a filter the protocol refuses.
  public func subscribe(_ filter: String, qos: QoS = .atLeastOnce) throws(MQTTError) {
    guard Self.isValid(filter, publishing: false) else {
      throw Self.settingError(
        "cannot subscribe to \"\(filter)\": not a topic filter",
        hint: "# only as the last level (a/#), + for a whole level (a/+/c)")
    }
    let subscription = Subscription(filter: filter, qos: qos)
    if let index = subscriptions.firstIndex(where: { $0.filter == filter }) {
      subscriptions[index] = subscription
    } else {
      subscriptions.append(subscription)
    }
    if isConnected { send(subscription) }
  }

  /// Ends the subscription to `filter`; it is not made again.
  public func unsubscribe(_ filter: String) {
    guard let index = subscriptions.firstIndex(where: { $0.filter == filter }) else { return }
    subscriptions.remove(at: index)
    guard let client, isConnected else { return }
    var messageID: Int32 = 0
    _ = filter.withCString { cmosq_unsubscribe(client, &messageID, $0) }
    drain(now: nil)
  }

  /// Messages dropped because the caller had not taken ``Options/maximumQueuedEvents`` events
  /// yet, and messages dropped for a payload over ``Options/maximumPayloadBytes``.
  public var droppedEvents: UInt64 { client.map { cmosq_dropped_events($0) } ?? 0 }
  public var droppedOversizeMessages: UInt64 { client.map { cmosq_dropped_oversize($0) } ?? 0 }

  /// Ends the connection cleanly and frees the client. It sends DISCONNECT, so the broker does
  /// NOT publish the last will: a clock that stops on purpose says so itself first (publish
  /// the will's "offline" before closing) if others must know.
  public func close() {
    guard let client else { return }
    if cmosq_socket(client) >= 0 {
      _ = cmosq_disconnect(client)
      // The DISCONNECT is written at once in this mode; a full send buffer keeps it queued.
      var tries = 0
      while cmosq_socket(client) >= 0 && cmosq_want_write(client) && tries < 4 {
        _ = cmosq_loop_write(client)
        tries += 1
      }
    }
    cmosq_destroy(client)
    self.client = nil
    cycle.close()
  }

  // MARK: - Events

  /// An attempt (connect or reconnect) was made: `result` is the library's answer.
  private func started(_ result: Int32, errorNumber: Int32, now: Int64) {
    guard let client else { return }
    refusalReported = false
    socketError = nil
    if (result == CMOSQ_ERR_SUCCESS || result == CMOSQ_ERR_CONN_PENDING)
      && cmosq_socket(client) >= 0
    {
      cmosq_clear_last_log(client)
      cycle.attemptStarted()
      nextHousekeeping = now + Self.housekeepingNanoseconds
      drain(now: now)
      return
    }
    // Made before the library's last log line is cleared: it holds OpenSSL's reason.
    let failure = disconnectionError(result, errorNumber: errorNumber, connected: false)
    cmosq_clear_last_log(client)
    events.append(.connectionFailed(failure))
    cycle.attemptFailed(at: now)
    pendingSubscriptions = [:]
  }

  /// Takes the shim's queued events into ``events``, following the connection's state.
  /// `now` is nil from a call that cannot end a connection (publish, unsubscribe).
  private func drain(now: Int64?) {
    guard let client else { return }
    var event = cmosq_event()
    while cmosq_next_event(client, &event) != 0 {
      defer { cmosq_event_free(&event) }
      switch event.kind {
      case Int32(CMOSQ_EVENT_CONNECT.rawValue):
        if event.code == 0 {
          cycle.accepted(at: now ?? lastNow)
          events.append(.connected(sessionPresent: event.flags & 1 != 0))
          for subscription in subscriptions { send(subscription) }
        } else {
          refusalReported = true
          events.append(.refused(refusal(Int(event.code))))
        }
      case Int32(CMOSQ_EVENT_DISCONNECT.rawValue):
        let at = now ?? lastNow
        let wasConnected = cycle.isConnected
        let cause: MQTTConnectionCycle.Cause =
          switch Int(event.code) {
          case 0: .asked
          case 0x8E: .sessionTakenOver
          case CMOSQ_ERR_CONN_LOST: .lost
          default: .other
          }
        let ending = cycle.ended(cause, at: at)
        pendingSubscriptions = [:]
        switch ending {
        case .asked?:
          events.append(.disconnected(expected: true, nil))
        case .clientIDClash?:
          events.append(.disconnected(expected: false, clashError))
        case .endedSoon(let after)?:
          events.append(
            .disconnected(
              expected: false,
              MQTTError(
                reason: .connectionLost,
                message: "\(brokerText) ended the connection \(after / 1_000_000) ms "
                  + "after accepting it",
                hint: "another client with the client id \"\(options.clientID)\" takes "
                  + "the connection over, or the broker refuses what this client sends")))
        case .other?:
          events.append(
            .disconnected(
              expected: false,
              disconnectionError(event.code, errorNumber: event.error_number, connected: true)))
        case nil:
          if !wasConnected && !refusalReported {
            events.append(
              .connectionFailed(
                disconnectionError(event.code, errorNumber: event.error_number, connected: false))
            )
          }
        }
        refusalReported = false
      case Int32(CMOSQ_EVENT_MESSAGE.rawValue):
        let topic = event.topic.map {
          String(
            decoding: UnsafeRawBufferPointer(start: $0, count: event.topic_length), as: UTF8.self)
        }
        let payload =
          event.payload.map {
            Array(UnsafeRawBufferPointer(start: $0, count: event.payload_length))
          }
          ?? []
        events.append(
          .message(
            Message(
              topic: topic ?? "", payload: payload, retained: event.retain,
              qos: QoS(rawValue: Int(event.qos)) ?? .atMostOnce)))
      case Int32(CMOSQ_EVENT_SUBSCRIBE.rawValue):
        guard let filter = pendingSubscriptions.removeValue(forKey: event.message_id) else { break }
        events.append(.subscribed(filter: filter, granted: QoS(rawValue: Int(event.qos))))
      case Int32(CMOSQ_EVENT_PUBLISH.rawValue):
        events.append(.delivered(messageID: Int(event.message_id)))
      default:
        break
      }
    }
    // A socket gone without the library's callback (it calls back on every path in 2.0.11;
    // this keeps the state right should one not).
    if let now, cmosq_socket(client) < 0 {
      switch cycle.phase {
      case .connecting, .connected:
        // A TLS handshake that failed after the connect returned (a broker's certificate
        // that does not verify, on a slower connection) ends here: OpenSSL's reason is the
        // library's last log line.
        let failure =
          lastLogIsOpenSSL
          ? disconnectionError(Int32(CMOSQ_ERR_TLS), errorNumber: 0, connected: false)
          : MQTTError(reason: .connectionLost, message: "the connection to \(brokerText) ended")
        cmosq_clear_last_log(client)
        events.append(.connectionFailed(failure))
        cycle.attemptFailed(at: now)
        pendingSubscriptions = [:]
      default: break
      }
    }
  }

  private func send(_ subscription: Subscription) {
    guard let client else { return }
    var messageID: Int32 = 0
    let result = subscription.filter.withCString {
      cmosq_subscribe(client, &messageID, $0, Int32(subscription.qos.rawValue))
    }
    if result == CMOSQ_ERR_SUCCESS { pendingSubscriptions[messageID] = subscription.filter }
  }

  // MARK: - Errors

  /// Another client connected with this client id: said once, with the fix.
  private var clashError: MQTTError {
    MQTTError(
      reason: .clientIDTaken,
      message: "another client uses the client id \"\(options.clientID)\" on \(brokerText): "
        + "the broker hands the connection to the latest of them",
      hint: "give each client its own client id; this one tries again in "
        + "\((cycle.retryWait ?? cycle.upcomingClashWait) / 1_000_000_000) s or more, "
        + "not every second")
  }

  private var brokerText: String { broker.map { "the MQTT broker at \($0)" } ?? "the MQTT broker" }

  /// Whether the library's last log line is OpenSSL's reason for a failed handshake.
  private var lastLogIsOpenSSL: Bool {
    guard let client else { return false }
    return String(cString: cmosq_last_log(client)).hasPrefix("OpenSSL Error")
  }

  private func lastLogLine(or fallback: String) -> String {
    guard let client else { return fallback }
    let line = String(cString: cmosq_last_log(client))
    guard !line.isEmpty else { return fallback }
    // "OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed": the reason
    // is after the last colon.
    if line.hasPrefix("OpenSSL Error"), let colon = line.lastIndex(of: ":") {
      return String(line[line.index(after: colon)...])
    }
    return line
  }

  /// The socket's pending error (SO_ERROR), which getsockopt also clears.
  private func pendingSocketError() -> Errno? {
    guard let client else { return nil }
    let value = clinux_socket_error(cmosq_socket(client))
    return value > 0 ? Errno(rawValue: value) : nil
  }

  /// A CONNACK refusal (MQTT v5 section 3.2.2.2; 3.1.1 section 3.2.2.3 for 1 to 5).
  private func refusal(_ code: Int) -> MQTTError {
    let reason = String(cString: cmosq_reason_string(Int32(code)))
    let said =
      "\(brokerText) refused the connection: \(reason) (reason code 0x\(String(code, radix: 16)))"
    switch code {
    case 0x86, 0x87, 4, 5:
      return MQTTError(
        reason: .credentialsRefused(code: code),
        message: "\(brokerText) refused the username or password (\(reason))",
        hint: options.username == nil
          ? "the broker wants a username and password: set `username` and a `password_file`"
          : "check the username and the password file against the broker's users (Mosquitto: "
            + "`mosquitto_passwd -b FILE USER PASSWORD`); Mosquitto says \"not authorized\" for a "
            + "wrong password too")
    case 0x85, 2:
      return MQTTError(
        reason: .refused(code: code), message: said,
        hint: "the broker refuses the client id \"\(options.clientID)\": use letters and digits, "
          + "at most 23")
    case 0x84, 1:
      return MQTTError(
        reason: .refused(code: code), message: said,
        hint: "the broker does not speak MQTT v5: Mosquitto 1.6 or later does")
    case 0x8A:
      return MQTTError(
        reason: .refused(code: code), message: said, hint: "the broker has banned this client")
    default:
      return MQTTError(
        reason: .refused(code: code), message: said, hint: "tried again with backoff")
    }
  }

  /// The end of a connection or of an attempt: the library's MOSQ_ERR_* value `code`, or a
  /// broker's DISCONNECT reason code (0x80 and up).
  private func disconnectionError(_ code: Int32, errorNumber: Int32, connected: Bool) -> MQTTError {
    let at = brokerText
    let verb = connected ? "the connection to \(at) ended" : "cannot connect to \(at)"
    if let socketError, !connected {
      return Self.systemError(socketError, verb: verb, broker: broker)
    }
    switch Int(code) {
    case CMOSQ_ERR_ERRNO:
      return Self.systemError(Errno(rawValue: errorNumber), verb: verb, broker: broker)
    case CMOSQ_ERR_CONN_LOST:
      return MQTTError(
        reason: .connectionLost,
        message: connected ? "\(at) closed the connection" : "\(at) closed the connection at once",
        hint: connected
          ? "the broker stopped or restarted; tried again with backoff"
          : "a broker that closes at once may want TLS on this port, or take no more clients")
    case CMOSQ_ERR_KEEPALIVE:
      return MQTTError(
        reason: .keepAliveTimeout,
        message: "\(at) did not answer within the keepalive (\(options.keepAliveSeconds) s)",
        hint: "the network to the broker is down or the broker hangs; tried again with backoff")
    case CMOSQ_ERR_TLS:
      return MQTTError(
        reason: .tls, message: "\(verb): TLS failed: \(lastLogLine(or: "the handshake failed"))",
        hint: "the broker's certificate must be signed by the CA file's authority and name the "
          + "address connected to, and the port must be the broker's TLS listener (8883)")
    case 0x8E:
      return MQTTError(
        reason: .brokerDisconnected(code: Int(code)),
        message: "\(at) ended the connection: another client connected with the client id "
          + "\"\(options.clientID)\"",
        hint: "give each clock its own client id")
    case 0x80...0xFF:
      return MQTTError(
        reason: .brokerDisconnected(code: Int(code)),
        message: "\(at) ended the connection: \(String(cString: cmosq_reason_string(code))) "
          + "(reason code 0x\(String(code, radix: 16)))",
        hint: "tried again with backoff")
    default:
      return MQTTError(
        reason: .library(code: Int(code)), message: "\(verb): \(Self.libraryText(code))")
    }
  }

  private static func systemError(_ errno: Errno, verb: String, broker: SocketAddress?) -> MQTTError
  {
    let hint: String? =
      switch errno {
      case .connectionRefused:
        "nothing listens on port \(broker?.port ?? 0) there: is the broker running "
          + "(`systemctl status mosquitto`), and on this port?"
      case .hostUnreachable, .networkUnreachable:
        "the network does not reach \(broker.map { "\($0.address)" } ?? "the broker"): check the "
          + "address, the cable or the Wi-Fi"
      case .timedOut:
        "the broker's machine does not answer: it is off, or a firewall drops the connection"
      default: nil
      }
    return MQTTError(reason: .connectionFailed(errno), message: "\(verb): \(errno)", hint: hint)
  }

  /// A failed publish or unsubscribe: `code` a MOSQ_ERR_* value.
  private func failure(_ code: Int32, while doing: String) -> MQTTError {
    switch Int(code) {
    case CMOSQ_ERR_NO_CONN:
      MQTTError(reason: .notConnected, message: "cannot \(doing): not connected to \(brokerText)")
    case CMOSQ_ERR_PAYLOAD_SIZE, CMOSQ_ERR_OVERSIZE_PACKET:
      Self.settingError(
        "cannot \(doing): the message is larger than the broker takes", hint: nil)
    default:
      MQTTError(
        reason: .library(code: Int(code)), message: "cannot \(doing): \(Self.libraryText(code))")
    }
  }

  private static func settingError(_ message: String, hint: String?) -> MQTTError {
    MQTTError(reason: .invalidSetting, message: message, hint: hint)
  }

  private static func libraryText(_ code: Int32) -> String {
    let text = String(cString: cmosq_error_string(code))
    return text.isEmpty ? "error \(code)" : text.prefix(1).lowercased() + text.dropFirst()
  }

  /// A topic (publishing) or a filter the protocol allows (MQTT v5 section 4.7): UTF-8 without
  /// NUL, 1 to 65535 bytes, wildcards only where they may be.
  private static func isValid(_ name: String, publishing: Bool) -> Bool {
    let bytes = name.utf8
    guard !bytes.isEmpty, bytes.count <= 65_535, !bytes.contains(0) else { return false }
    let result = name.withCString {
      publishing
        ? cmosq_check_publish_topic($0, bytes.count) : cmosq_check_subscription($0, bytes.count)
    }
    return result == CMOSQ_ERR_SUCCESS
  }

  /// What the options must be before the library is asked (MQTT v5 section 1.5.4: strings
  /// are at most 65535 bytes of UTF-8 without NUL; libmosquitto takes C strings).
  private static func check(_ options: Options) throws(MQTTError) {
    func text(_ value: String, _ what: String) throws(MQTTError) {
      guard value.utf8.count <= 65_535, !value.utf8.contains(0) else {
        throw settingError(
          "the MQTT \(what) is too long or holds a NUL character",
          hint: "at most 65535 bytes of text")
      }
    }
    guard !options.clientID.isEmpty else {
      throw settingError(
        "the MQTT client id is empty", hint: "give each clock its own, such as wodclock-hall")
    }
    try text(options.clientID, "client id")
    guard (5...65_535).contains(options.keepAliveSeconds) else {
      throw settingError(
        "the MQTT keepalive of \(options.keepAliveSeconds) s is out of range",
        hint: "5 to 65535 seconds; 30 is usual")
    }
    if let username = options.username { try text(username, "user name") }
    if let password = options.password {
      guard options.username != nil else {
        throw settingError("an MQTT password needs a user name", hint: "set `username` too")
      }
      guard password.count <= 65_535, !password.contains(0) else {
        throw settingError(
          "the MQTT password is too long or holds a NUL byte",
          hint: "libmosquitto takes the password as a C string: at most 65535 bytes, no NUL")
      }
    }
    if let will = options.will {
      guard isValid(will.topic, publishing: true) else {
        throw settingError(
          "the MQTT last will's topic \"\(will.topic)\" is not a topic one can publish to",
          hint: "a topic to publish to is UTF-8, not empty, and has no + or #")
      }
    }
  }
}
