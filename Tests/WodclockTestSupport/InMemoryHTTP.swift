// SPDX-License-Identifier: MIT
// An HTTP transport in memory, for the web front on manual time: a test makes a request from
// an address of its choosing and gets the handler's answer back at once, or opens an event
// stream and reads what was sent to it. No socket, no library, no real time: the routes and
// replies, sessions, the PIN throttle, the Host rule and the streams' events and heartbeats are
// tested exactly. What only the real server does (connection slots and their 503, header
// deadlines, 413 on a chunked body, the streams' bounds and backlogs) is tested against
// libmicrohttpd itself (HTTPServerTests, Tests/web); here a test only says that it happened
// (``full``, ``overflow(_:)``) to see what the web front does about it.

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
  /// Every connection slot is taken, as the real server counts them: a request is handed to the
  /// handler only when it gives it the reserve (``HTTPRequestHandler/mayUseReserve(_:)``), and
  /// any other is answered 503 here, as the server would.
  public var full = false
  /// The requests handed to the handler, streams among them.
  public private(set) var handled = 0
  /// The responses sent from a file's descriptor (the media), each read and closed here.
  public private(set) var filesSent = 0
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
    /// A stream opened with these headers (the common ones added, as the server adds them).
    case stream(HTTPServer.StreamID, headers: [HTTPServer.Field])

    /// The response's status, 200 for a stream.
    public var status: Int {
      switch self {
      case .response(let response): response.status
      case .stream: 200
      }
    }

    /// The stream that opened, nil for a response.
    public var stream: HTTPServer.StreamID? {
      guard case .stream(let stream, _) = self else { return nil }
      return stream
    }

    /// A header of the response or the stream's head (names as the handler wrote them,
    /// compared without case).
    public func header(_ name: String) -> String? {
      let headers: [HTTPServer.Field]
      switch self {
      case .response(let response): headers = response.headers
      case .stream(_, let streamHeaders): headers = streamHeaders
      }
      return headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A response's body, from the handler's bytes or from static memory (empty for a stream).
    public var bytes: [UInt8] {
      guard case .response(let response) = self else { return [] }
      switch response.body {
      case .bytes(let bytes): return bytes
      case .permanent(let buffer): return Array(buffer)
      // Never left so by ``request(_:_:headers:bytes:from:)``, which reads the file.
      case .file: return []
      }
    }

    /// A response's body as text (empty for a stream).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// A request from `peer` (a device on the LAN) as the server would hand it over: header
  /// names lower case, the query split off the path, both percent-decoded.
  public func request(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "",
    from peer: SocketAddress
  ) -> Outcome {
    request(method, target, headers: headers, bytes: Array(body.utf8), from: peer)
  }

  /// The same with a body of any bytes.
  public func request(
    _ method: String, _ target: String, headers: [(String, String)] = [], bytes body: [UInt8],
    from peer: SocketAddress
  ) -> Outcome {
    let (path, query) = Self.split(target)
    let request = HTTPServer.Request(
      method: method, path: path, query: query,
      headers: headers.map { HTTPServer.Field($0.0.lowercased(), $0.1) }, body: body, peer: peer)
    guard let handler, !stopped else {
      return .response(HTTPServer.Response(status: 503))
    }
    if full && !handler.mayUseReserve(request) {
      return .response(
        HTTPServer.Response(
          status: 503, headers: [HTTPServer.Field("Retry-After", "5")] + settings.commonHeaders))
    }
    handled += 1
    switch handler.answer(request) {
    case .response(var response):
      response.headers += settings.commonHeaders
      if case .file(let descriptor, let offset, let length) = response.body {
        // What the server would send from the descriptor, read here once; the descriptor is
        // closed as the server closes it.
        filesSent += 1
        response.body = .bytes(Self.read(descriptor, offset: offset, length: length))
      }
      return .response(response)
    case .eventStream(let headers):
      let stream = HTTPServer.StreamID(rawValue: nextStream)
      nextStream += 1
      streams[stream] = []
      handler.eventStreamOpened(stream, for: request)
      return .stream(stream, headers: headers + settings.commonHeaders)
    }
  }

  private static func read(_ descriptor: FileDescriptor, offset: Int64, length: Int64) -> [UInt8] {
    defer { try? descriptor.close() }
    var bytes: [UInt8] = []
    while true {
      guard let result = try? descriptor.read(appendingTo: &bytes, maximumCount: 65_536),
        case .bytes = result
      else { break }
    }
    let start = Int(clamping: max(0, offset))
    guard start < bytes.count else { return [] }
    return Array(bytes[start..<min(bytes.count, start + Int(clamping: max(0, length)))])
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

  /// The server closed `stream` because its client does not read: what it sent piled up past
  /// ``HTTPServer/Limits/maximumStreamBacklogBytes``.
  public func overflow(_ stream: HTTPServer.StreamID) {
    guard streams.removeValue(forKey: stream) != nil else { return }
    handler?.eventStreamEnded(stream, because: .backlogOverflow)
  }

  private static func split(_ target: String) -> (String, [HTTPServer.QueryItem]) {
    guard let mark = target.firstIndex(of: "?") else { return (decoded(target[...]), []) }
    let items = target[target.index(after: mark)...].split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1)
      return HTTPServer.QueryItem(
        decoded(parts[0], plusIsSpace: true),
        parts.count > 1 ? decoded(parts[1], plusIsSpace: true) : nil)
    }
    return (decoded(target[..<mark]), items)
  }

  /// `%XX` as the byte it stands for, and in a query `+` as a space, as the server decodes them.
  private static func decoded(_ text: Substring, plusIsSpace: Bool = false) -> String {
    var bytes: [UInt8] = []
    var rest = Array(text.utf8)[...]
    while let byte = rest.popFirst() {
      if byte == UInt8(ascii: "%"), rest.count >= 2,
        let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        rest = rest.dropFirst(2)
      } else {
        bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
