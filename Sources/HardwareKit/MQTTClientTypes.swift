// SPDX-License-Identifier: MIT
// What MQTTClient is made with and hands back: its options, the last will, messages, events,
// and the errors a user can cause (a broker that refuses, is not there, or fails TLS).

import RetryKit

extension MQTTClient {
  /// The quality of service of a message or a subscription (MQTT v5 section 4.3).
  public enum QoS: Int, Hashable, Sendable, CaseIterable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2
  }

  /// The message the broker publishes for this client when its connection drops without a
  /// DISCONNECT (MQTT v5 section 3.1.2.5): a crash, a pulled cable, a keepalive that ran out.
  /// A clean ``MQTTClient/close()`` sends DISCONNECT, so the broker then does not publish it.
  public struct Will: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: QoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: QoS = .atLeastOnce, retain: Bool = true) {
      self.topic = topic
      self.payload = payload
      self.qos = qos
      self.retain = retain
    }
  }

  /// How the client presents itself to the broker.
  public struct Options: Hashable, Sendable {
    /// The client identifier (UTF-8, 1 to 23 bytes is what every broker must accept; MQTT v5
    /// section 3.1.3.1). A second client with the same id takes the session over.
    public var clientID: String
    /// Seconds between the client's pings while nothing else is sent; the broker drops the
    /// connection (and publishes the will) after 1.5 times this without a word (section
    /// 3.1.2.10). 5 to 65535.
    public var keepAliveSeconds: Int
    /// The user name (UTF-8) and password (bytes) the broker checks; nil for none.
    public var username: String?
    public var password: [UInt8]?
    /// TLS with the broker's certificate checked against this CA file (PEM); nil: plain TCP.
    public var certificateAuthorityFile: String?
    public var will: Will?
    /// A message with a larger payload is dropped (and counted), never queued.
    public var maximumPayloadBytes: Int
    /// Events waiting for the caller at most; past it they are dropped (and counted).
    public var maximumQueuedEvents: Int
    /// The waits between connection attempts while the broker cannot be reached.
    public var reconnectBackoff: RetryBackoff

    public init(
      clientID: String, keepAliveSeconds: Int = 30, username: String? = nil,
      password: [UInt8]? = nil, certificateAuthorityFile: String? = nil, will: Will? = nil,
      maximumPayloadBytes: Int = 256 * 1024, maximumQueuedEvents: Int = 1024,
      reconnectBackoff: RetryBackoff = RetryBackoff()
    ) {
      self.clientID = clientID
      self.keepAliveSeconds = keepAliveSeconds
      self.username = username
      self.password = password
      self.certificateAuthorityFile = certificateAuthorityFile
      self.will = will
      self.maximumPayloadBytes = maximumPayloadBytes
      self.maximumQueuedEvents = maximumQueuedEvents
      self.reconnectBackoff = reconnectBackoff
    }
  }

  /// A message from the broker.
  public struct Message: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    /// Sent from the broker's store because a subscription was just made (MQTT v5 section
    /// 3.3.1.3), not published while the client was subscribed.
    public var retained: Bool
    public var qos: QoS

    public init(topic: String, payload: [UInt8], retained: Bool, qos: QoS) {
      self.topic = topic
      self.payload = payload
      self.retained = retained
      self.qos = qos
    }
  }

  /// What happened, in order.
  public enum Event: Hashable, Sendable {
    /// The broker accepted the connection; the subscriptions are being made again.
    case connected(sessionPresent: Bool)
    /// The broker answered the connection with a refusal (its CONNACK reason): the user name
    /// or password, the client id, the protocol. Retried with backoff.
    case refused(MQTTError)
    /// No connection came about: nothing listens (ECONNREFUSED), the host is unreachable, TLS
    /// failed. Retried with backoff.
    case connectionFailed(MQTTError)
    /// A connection that was up ended; `expected` when this side asked for it. Retried with
    /// backoff.
    case disconnected(expected: Bool, MQTTError?)
    case message(Message)
    /// The broker answered a subscription: the QoS it granted, nil when it refused (an ACL).
    case subscribed(filter: String, granted: QoS?)
    /// A message of ours went as far as its QoS takes it (sent, acknowledged or completed).
    case delivered(messageID: Int)
  }

  /// What the loop watches for the client: its socket, readable always, writable while the
  /// library has bytes to send. `connection` counts the sockets the client has had: a new one
  /// may reuse the old one's number, and epoll forgot the old one when it closed, so a changed
  /// value means register again even when the number is the same.
  public struct Watch: Hashable, Sendable {
    public var descriptor: FileDescriptor
    public var writable: Bool
    public var connection: Int
  }

  /// A subscription kept for every connection.
  public struct Subscription: Hashable, Sendable {
    public var filter: String
    public var qos: QoS
  }
}

/// Why the MQTT client cannot do what it was asked, or why the broker is not reachable: a
/// sentence and what to do about it.
public struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Reason: Hashable, Sendable {
    /// libmosquitto.so.1 could not be loaded (or lacks a function).
    case libraryMissing
    /// A setting the protocol or the library refuses: a client id, a topic, a filter, a
    /// user name, a keepalive.
    case invalidSetting
    /// A host name where a numeric address is needed: names are looked up off the loop.
    case notNumericAddress
    /// The CA file is missing, unreadable, or holds no certificate.
    case certificateAuthorityFile
    /// A system call failed: ECONNREFUSED (nothing listens), EHOSTUNREACH, ETIMEDOUT ...
    case connectionFailed(Errno)
    /// The broker closed the connection.
    case connectionLost
    /// The broker did not answer a ping within the keepalive.
    case keepAliveTimeout
    /// The broker refused the user name or password (CONNACK 0x86 "bad user name or
    /// password", 0x87 "not authorized"; 4 and 5 in MQTT 3.1.1).
    case credentialsRefused(code: Int)
    /// The broker refused the connection for another reason (its CONNACK reason code).
    case refused(code: Int)
    /// The broker ended the connection with a DISCONNECT reason code (0x80 and up).
    case brokerDisconnected(code: Int)
    /// Another client connected with the same client id and took the connection over
    /// (``MQTTClient/clientIDClash``).
    case clientIDTaken
    /// The TLS handshake failed (an untrusted certificate, a name mismatch, no TLS there).
    case tls
    /// Nothing can be sent: the client is not connected.
    case notConnected
    /// Another failure of the library (its MOSQ_ERR_* value).
    case library(code: Int)
  }

  public var reason: Reason
  /// What happened, in a sentence.
  public var message: String
  /// What to do about it.
  public var hint: String?

  public init(reason: Reason, message: String, hint: String? = nil) {
    self.reason = reason
    self.message = message
    self.hint = hint
  }

  /// `message`, then `hint: ...` on a line of its own, as the daemon's diagnostics read.
  public var description: String {
    guard let hint else { return message }
    return "\(message)\nhint: \(hint)"
  }
}
