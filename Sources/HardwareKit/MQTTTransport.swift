// SPDX-License-Identifier: MIT
// What the link between clocks needs of an MQTT client, so that it is given one rather than
// making it: on the machine `MQTTClient` (libmosquitto on a socket), in the tests an in-memory
// client of an in-memory broker, on manual time.

/// An MQTT client seen from the part that uses it: connect, watch, hand over what is ready,
/// act on the events, publish and subscribe. ``MQTTClient`` documents each member.
public protocol MQTTTransport: AnyObject {
  /// What the loop watches for the client now; nil while it has no socket, and always for a
  /// transport the loop does not poll (one a test drives, which says when it has work through
  /// ``nextWakeUp``).
  var watch: MQTTClient.Watch? { get }
  /// Whether the broker has accepted the current connection.
  var isConnected: Bool { get }
  /// When ``handleReady(readable:writable:now:)`` must be called even if nothing is ready.
  var nextWakeUp: Int64? { get }
  /// The wait chosen before the next attempt while there is no connection.
  var retryWait: Int64? { get }
  /// Connections the broker accepted since the client was made.
  var connectionsAccepted: Int { get }
  /// Connections another client with this client id took over since the client was made.
  var clientIDTakeOvers: Int { get }
  /// Whether another client uses this client id on the broker now.
  var clientIDClash: Bool { get }
  /// Events dropped because the caller had not taken enough, and messages dropped for their
  /// size.
  var droppedEvents: UInt64 { get }
  var droppedOversizeMessages: UInt64 { get }

  /// Connects to a numeric address; the connection proceeds in
  /// ``handleReady(readable:writable:now:)``.
  func connect(to address: SocketAddress, now: Int64) throws(MQTTError)
  /// Does what is ready and what is due at `now`; the events since the last call, in order.
  func handleReady(readable: Bool, writable: Bool, now: Int64) -> [MQTTClient.Event]
  @discardableResult
  func publish(topic: String, payload: [UInt8], qos: MQTTClient.QoS, retain: Bool)
    throws(MQTTError) -> Int
  func subscribe(_ filter: String, qos: MQTTClient.QoS) throws(MQTTError)
  func unsubscribe(_ filter: String)
  /// Ends the connection cleanly (no last will) and frees the client.
  func close()
}

/// Makes a client with its options (held by the caller); throws what ``MQTTClient/init``
/// throws.
public typealias MQTTTransportMaker = (MQTTClient.Options) throws(MQTTError) -> any MQTTTransport

extension MQTTClient: MQTTTransport {
  /// The machine's MQTT client: libmosquitto (an ``MQTTTransportMaker``).
  public static func make(_ options: Options) throws(MQTTError) -> any MQTTTransport {
    try MQTTClient(options: options)
  }
}
