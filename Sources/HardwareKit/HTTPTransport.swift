// SPDX-License-Identifier: MIT
// What the web front needs of an HTTP server, so that it is given one rather than making it:
// on the machine `HTTPServer` (libmicrohttpd on a socket), in the tests an in-memory transport
// whose requests the test makes on manual time.

/// An HTTP server seen from the part that answers its requests: it calls its
/// ``HTTPRequestHandler`` inside ``run()`` and takes the bytes of event streams.
public protocol HTTPTransport: AnyObject {
  /// The address clients reach it at.
  var boundAddress: SocketAddress { get }
  /// What the loop watches for readable before calling ``run()``; nil for a transport the
  /// loop does not poll (one a test drives).
  var readinessDescriptor: FileDescriptor? { get }
  /// The connections open now, event streams among them (for `stats`).
  var connectionCount: Int { get }
  /// Handles what is ready at monotonic `now`; the handler is called from inside.
  func run(at now: Int64)
  /// When ``run()`` must be called even if nothing is ready; nil when only readiness matters.
  func nextWakeUp(after now: Int64) -> Int64?
  /// Appends `bytes` to an event stream; false when the stream is gone or was closed by it.
  @discardableResult func send(_ bytes: [UInt8], to stream: HTTPServer.StreamID) -> Bool
  /// Closes every connection; every open stream ends with `.serverStopped`.
  func stop()
}

/// What a web server is started with: `HTTPServer.init`'s arguments but the handler.
public struct HTTPTransportSettings {
  public var listen: SocketAddress
  public var limits: HTTPServer.Limits
  /// Headers added to every response.
  public var commonHeaders: [HTTPServer.Field]
  /// Where the library's own error lines go.
  public var log: ((String) -> Void)?

  public init(
    listen: SocketAddress, limits: HTTPServer.Limits, commonHeaders: [HTTPServer.Field],
    log: ((String) -> Void)?
  ) {
    self.listen = listen
    self.limits = limits
    self.commonHeaders = commonHeaders
    self.log = log
  }
}

/// Starts a web server for a handler (held weakly); throws when it cannot listen.
public typealias HTTPTransportMaker =
  (HTTPTransportSettings, any HTTPRequestHandler) throws(HTTPServerError) -> any HTTPTransport

extension HTTPServer: HTTPTransport {
  public var readinessDescriptor: FileDescriptor? { pollDescriptor }

  /// The machine's web server: libmicrohttpd on a listening socket (an ``HTTPTransportMaker``).
  public static func start(_ settings: HTTPTransportSettings, for handler: any HTTPRequestHandler)
    throws(HTTPServerError) -> any HTTPTransport
  {
    try HTTPServer(
      listeningOn: settings.listen, limits: settings.limits,
      commonHeaders: settings.commonHeaders, handler: handler, log: settings.log)
  }
}
