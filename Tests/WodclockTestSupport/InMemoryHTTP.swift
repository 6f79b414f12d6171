// SPDX-License-Identifier: MIT
// An HTTP transport in memory, for the web front on manual time: a test makes a request from
// an address of its choosing and gets the handler's answer back at once, or opens an event
// stream and reads what was sent to it. No socket, no library, no real time: sessions, the PIN
// throttle, the Host rule and the streams' heartbeats are tested exactly. What only the real
// server does (connection slots, header deadlines, 413 on a chunked body) is tested against
// libmicrohttpd itself (HTTPServerTests, Tests/web).

public import HardwareKit

/// The transport the daemon's web front is given in the tests, and the test's side of it.
public final class InMemoryHTTP: HTTPTransport {
  public private(set) var boundAddress: SocketAddress
  public var readinessDescriptor: FileDescriptor? { nil }
  public var connectionCount: Int { streams.count }
  /// Who answers; held weakly, as the real server holds it.
  public private(set) weak var handler: (any HTTPRequestHandler)?
  /// The settings the web front started it with.
  public private(set) var settings: HTTPTransportSettings
  /// Whether ``stop()`` was called.
  public private(set) var stopped = false
  /// The bytes each open stream was sent, in order.
  private var streams: [HTTPServer.StreamID: [UInt8]] = [:]
  private var nextStream: UInt64 = 1

  private init(settings: HTTPTransportSettings, handler: any HTTPRequestHandler) {
    self.settings = settings
    boundAddress = settings.listen
    self.handler = handler
  }

  /// An ``HTTPTransportMaker`` that records every transport it makes, the latest last.
  public final class Maker: @unchecked Sendable {
    public private(set) var made: [InMemoryHTTP] = []
    public init() {}

    /// The transport the web front is using now.
    public var current: InMemoryHTTP? { made.last { !$0.stopped } }

    public func make(_ settings: HTTPTransportSettings, _ handler: any HTTPRequestHandler)
      throws(HTTPServerError) -> any HTTPTransport
    {
      let transport = InMemoryHTTP(settings: settings, handler: handler)
      made.append(transport)
      return transport
    }
  }

  // MARK: - What the web front calls

  public func run(at now: Int64) {}
  public func nextWakeUp(after now: Int64) -> Int64? { nil }

  @discardableResult
  public func send(_ bytes: [UInt8], to stream: HTTPServer.StreamID) -> Bool {
    guard !stopped, streams[stream] != nil else { return false }
    streams[stream, default: []] += bytes
    return true
  }

  public func stop() {
    stopped = true
    for stream in streams.keys.sorted() {
      handler?.eventStreamEnded(stream, because: .serverStopped)
    }
    streams.removeAll()
  }

  // MARK: - What the test does

  /// What came back: a response, or a stream that opened.
  public enum Outcome {
    case response(HTTPServer.Response)
    case stream(HTTPServer.StreamID)

    /// The response's status, 200 for a stream.
    public var status: Int {
      switch self {
      case .response(let response): response.status
      case .stream: 200
      }
    }

    /// A response's header (names as the handler wrote them, compared without case).
    public func header(_ name: String) -> String? {
      guard case .response(let response) = self else { return nil }
      return response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A response's body as text (empty for a stream or a body in static memory).
    public var text: String {
      guard case .response(let response) = self, case .bytes(let bytes) = response.body else {
        return ""
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// A request from `peer` (a device on the LAN) as the server would hand it over: header
  /// names lower case, the query split off the path.
  public func request(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
    from peer: SocketAddress
  ) -> Outcome {
    let (path, query) = Self.split(target)
    let request = HTTPServer.Request(
      method: method, path: path, query: query,
      headers: headers.map { HTTPServer.Field($0.0.lowercased(), $0.1) }, body: Array(body.utf8),
      peer: peer)
    guard let handler, !stopped else {
      return .response(HTTPServer.Response(status: 503))
    }
    switch handler.answer(request) {
    case .response(var response):
      response.headers += settings.commonHeaders
      return .response(response)
    case .eventStream:
      let stream = HTTPServer.StreamID(rawValue: nextStream)
      nextStream += 1
      streams[stream] = []
      handler.eventStreamOpened(stream, for: request)
      return .stream(stream)
    }
  }

  /// What `stream` was sent since the last call, as text; nil when the stream is gone.
  public func take(_ stream: HTTPServer.StreamID) -> String? {
    guard let bytes = streams[stream] else { return nil }
    streams[stream] = []
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The client of `stream` went away.
  public func close(_ stream: HTTPServer.StreamID) {
    guard streams.removeValue(forKey: stream) != nil else { return }
    handler?.eventStreamEnded(stream, because: .clientLeft)
  }

  private static func split(_ target: String) -> (String, [HTTPServer.QueryItem]) {
    guard let mark = target.firstIndex(of: "?") else { return (target, []) }
    let items = target[target.index(after: mark)...].split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1)
      return HTTPServer.QueryItem(String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
    }
    return (String(target[..<mark]), items)
  }
}
