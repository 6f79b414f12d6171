// SPDX-License-Identifier: MIT
// An HTTP/1.1 server inside the daemon's one loop: libmicrohttpd in its external-epoll mode,
// loaded on demand (CMicroHTTPD), with no thread of its own. Requests reach a handler object
// synchronously inside run(); event streams are parked (suspended) while they have nothing to
// send, so an idle server never wakes the loop.

import CLinux
import CMicroHTTPD
import Glibc

/// An HTTP server driven by the caller's event loop.
///
/// Watch ``pollDescriptor`` for `.readable` and call ``run()`` when it is; bound the loop's wait
/// by ``nextWakeUp(after:)``. Every callback of the handler happens inside ``run()`` (and
/// ``stop()``), on the caller's thread. Not thread-safe: one loop owns it.
///
/// The server binds its listening socket itself, so a port in use, a port not allowed or an
/// address not of this machine are readable errors (``HTTPServerError``), and hands it to the
/// library (MHD_OPTION_LISTEN_SOCKET). No TLS; the library's error log goes to `log` or nowhere.
public final class HTTPServer {
  /// Where the server listens, with the port the kernel chose for port 0.
  public let boundAddress: SocketAddress
  /// The library's epoll descriptor: readable when ``run()`` has work. The library owns it:
  /// never close it; unwatch it before ``stop()``.
  public private(set) var pollDescriptor: FileDescriptor
  public let limits: Limits
  /// Headers added to every response the server sends, the handler's and its own refusals
  /// (413, 503), ahead of the response's own headers.
  public let commonHeaders: [Field]
  /// Who answers; a request that arrives while it is nil is answered 503.
  public weak var handler: (any HTTPRequestHandler)?

  private var server: OpaquePointer?
  private let log: ((String) -> Void)?
  private(set) var streams: [StreamID: EventStream] = [:]
  private var nextStream: UInt64 = 1
  /// Every open connection, from the library's accept to its close.
  private var connections: [OpaquePointer: Connection] = [:]
  /// Open connections per client address (its bytes).
  private var connectionsPerAddress: [[UInt8]: Int] = [:]
  /// The library must run again, and nothing else would say so: a connection was resumed, or
  /// a request ended (its connection is closed by the next run). In 0.9.75's external-epoll
  /// mode a resume leaves no trace in the library's epoll set (no inter-thread channel is in
  /// it: it holds the listening socket alone while a stream is parked, as /proc/self/fdinfo
  /// shows) and MHD_get_timeout counts neither.
  private var mustRunAgain = false
  /// The instant of the run in progress (callbacks only happen inside ``run(at:)``).
  private var runInstant: Int64 = 0

  /// One open connection: who it is from, and since when it waits for a complete request.
  final class Connection {
    let address: [UInt8]
    /// When the request now coming began to be waited for: the accept, or the answer to the
    /// previous request on the connection (keep-alive). Nil while a request is answered or
    /// streamed: then only the library's idle timeout applies.
    var awaitingSince: Int64?
    /// Accepted past a limit: its request is answered 503, unless the handler gives it the
    /// reserve.
    let overLimit: Bool

    init(address: [UInt8], awaitingSince: Int64, overLimit: Bool) {
      self.address = address
      self.awaitingSince = awaitingSince
      self.overLimit = overLimit
    }
  }

  /// One open event stream: what waits to be sent, and whether its connection is parked.
  final class EventStream {
    let connection: OpaquePointer
    /// The client's address, for the per-address bound.
    var address: [UInt8] = []
    var backlog: [UInt8] = []
    /// Bytes of `backlog` already given to the library.
    var sent = 0
    var suspended = false
    /// Set once the stream is being ended; nothing more is accepted.
    var ending: StreamEnd?

    init(connection: OpaquePointer) { self.connection = connection }

    var pending: Int { backlog.count - sent }
  }

  /// One request in progress (MHD's per-request context): the request so far, and whether it
  /// has been answered already.
  final class PendingRequest {
    var request: Request
    var answered = false
    /// The body passed the limit: the rest is read and dropped, then 413 is answered (a
    /// response queued while a body is still coming would reach no client that sends first
    /// and reads after).
    var tooLarge = false
    var stream: StreamID?

    init(request: Request) { self.request = request }
  }

  /// The chunk size the library asks a stream's reader for at most.
  static let streamBlockBytes = 4096

  /// Binds `address` (port 0: a free port, then in ``boundAddress``; `[::]` listens on IPv4
  /// too, the system's default) and starts the server.
  /// - Parameters:
  ///   - limits: the bounds of what clients may cost.
  ///   - commonHeaders: added to every response (security headers, for example).
  ///   - handler: who answers (held weakly).
  ///   - log: receives the library's error log, one line a call; nil: nothing is logged.
  /// - Throws: ``HTTPServerError``: the library is missing, the port is in use, not allowed, the
  ///   address not of this machine, or the library refused to start.
  public init(
    listeningOn address: SocketAddress, limits: Limits = Limits(), commonHeaders: [Field] = [],
    handler: any HTTPRequestHandler, log: ((String) -> Void)? = nil
  ) throws(HTTPServerError) {
    var message = [CChar](repeating: 0, count: 512)
    guard cmhd_load(&message, message.count) == 0 else {
      let reason = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw HTTPServerError(
        reason: .libraryMissing, address: address,
        message: "the web interface needs libmicrohttpd (Debian package libmicrohttpd12): "
          + reason,
        hint: "apt install libmicrohttpd12")
    }
    let listener: TCPListener
    do {
      listener = try TCPListener(address, backlog: Int32(clamping: limits.maximumConnections))
    } catch {
      throw HTTPServerError(listening: address, error: error)
    }
    boundAddress = listener.address
    self.limits = limits
    self.commonHeaders = commonHeaders
    self.handler = handler
    self.log = log
    pollDescriptor = FileDescriptor(rawValue: -1)
    var settings = cmhd_settings()
    settings.listen_socket = listener.fileDescriptor.rawValue
    settings.connection_limit = UInt32(
      clamping: max(limits.maximumConnections, 1) + limits.reserveConnections)
    settings.per_address_limit = UInt32(
      clamping: max(limits.maximumConnectionsPerAddress, 1) + limits.reserveConnectionsPerAddress)
    settings.connection_memory_limit = Int(clamping: max(limits.connectionMemoryBytes, 0))
    settings.connection_timeout_seconds = UInt32(clamping: limits.idleTimeoutSeconds)
    settings.context = Unmanaged.passUnretained(self).toOpaque()
    settings.request = { context, connection, path, method, upload, uploadSize, requestContext in
      guard let context, let connection, let uploadSize, let requestContext else { return 0 }
      return HTTPServer.from(context).handle(
        connection, path: path, method: method, upload: upload, uploadSize: uploadSize,
        requestContext: requestContext) ? 1 : 0
    }
    settings.completed = { context, connection, requestContext, termination in
      guard let context, let requestContext else { return }
      HTTPServer.from(context).completed(connection, requestContext, termination: termination)
    }
    settings.connection = { context, connection, closed in
      guard let context, let connection else { return }
      HTTPServer.from(context).connection(connection, closed: closed != 0)
    }
    settings.stream_read = { context, stream, buffer, maximum in
      guard let context, let buffer else { return CMHD_END_WITH_ERROR }
      return HTTPServer.from(context).read(StreamID(rawValue: stream), into: buffer, max: maximum)
    }
    if log != nil {
      settings.log = { context, line in
        guard let context, let line else { return }
        HTTPServer.from(context).log?(String(cString: line))
      }
    }
    guard let started = cmhd_start(&settings) else {
      try? listener.close()
      throw HTTPServerError(
        reason: .startFailed, address: address,
        message: "cannot start the web server on \(boundAddress): libmicrohttpd refused",
        hint: nil)
    }
    server = started
    pollDescriptor = FileDescriptor(rawValue: cmhd_epoll_descriptor(started))
  }

  deinit { stop() }

  private static func from(_ context: UnsafeMutableRawPointer) -> HTTPServer {
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  }

  /// Handles what is ready: accepts, reads, answers, writes, closes; the handler is called from
  /// here. Call it when ``pollDescriptor`` is readable or ``nextWakeUp(after:)`` has come;
  /// `now` (monotonic) is the instant the loop woke at, which the connections accepted or
  /// answered in this run are stamped with.
  public func run(at now: Int64) {
    guard let server else { return }
    // A stream woken from inside this run (a request's handler sends to it) sets it again.
    mustRunAgain = false
    runInstant = now
    closeLateRequests(at: now)
    if cmhd_run(server) != 0 { log?("the web server's run failed") }
  }

  /// Shuts down every connection whose request is not complete ``Limits/requestTimeout`` after
  /// it began to be waited for; the library then sees the connection end and closes it (there
  /// is no answer to give: the request is not there to answer).
  private func closeLateRequests(at now: Int64) {
    var closed = 0
    for (pointer, connection) in connections {
      guard let since = connection.awaitingSince, now - since >= limits.requestTimeout else {
        continue
      }
      connection.awaitingSince = nil
      let socket = cmhd_connection_socket(pointer)
      if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
      closed += 1
    }
    if closed > 0 {
      mustRunAgain = true
      log?("closed \(closed) connection(s) whose request was not complete in time")
    }
  }

  /// When the earliest waited-for request passes ``Limits/requestTimeout``, or nil.
  private var nextLateRequest: Int64? {
    let earliest = connections.values.compactMap(\.awaitingSince).min()
    return earliest.map { $0 &+ limits.requestTimeout }
  }

  /// When ``run()`` must be called even if ``pollDescriptor`` stays quiet (an idle connection's
  /// timeout), in `CLOCK_MONOTONIC` nanoseconds; nil when only the descriptor matters. `now`
  /// when work is waiting (a stream was sent bytes, a request ended since the last run).
  public func nextWakeUp(after now: Int64) -> Int64? {
    guard let server else { return nil }
    if mustRunAgain { return now }
    let late = nextLateRequest
    var milliseconds: UInt64 = 0
    guard cmhd_timeout(server, &milliseconds) != 0 else { return late }
    guard milliseconds < UInt64(Int64.max / 1_000_000) else { return late ?? Int64.max }
    let (deadline, overflow) = now.addingReportingOverflow(Int64(milliseconds) * 1_000_000)
    return min(overflow ? Int64.max : deadline, late ?? Int64.max)
  }

  /// The event streams open now.
  public var openStreams: [StreamID] { streams.keys.sorted() }

  /// The connections open now, event streams among them (for `stats`).
  public var connectionCount: Int {
    guard let server else { return 0 }
    return Int(cmhd_connection_count(server))
  }

  /// Appends `bytes` to the stream's backlog and wakes its connection. A backlog that passes
  /// ``Limits/maximumStreamBacklogBytes`` closes the stream (the handler hears
  /// `.backlogOverflow`).
  /// - Returns: false when the stream is gone, ending, or was closed by this call.
  @discardableResult
  public func send(_ bytes: [UInt8], to id: StreamID) -> Bool {
    guard let stream = streams[id], stream.ending == nil else { return false }
    guard stream.pending + bytes.count <= limits.maximumStreamBacklogBytes else {
      end(stream, .backlogOverflow)
      return false
    }
    if stream.sent > 0 && stream.sent >= stream.backlog.count / 2 {
      stream.backlog.removeFirst(stream.sent)
      stream.sent = 0
    }
    stream.backlog.append(contentsOf: bytes)
    wake(stream)
    return true
  }

  /// Ends the stream after what is waiting has been sent (the chunked body's last chunk).
  public func finish(_ id: StreamID) {
    guard let stream = streams[id], stream.ending == nil else { return }
    stream.ending = .finished
    wake(stream)
  }

  /// Closes every connection, the listening socket and the library's descriptor. Every open
  /// stream ends with `.serverStopped`. Safe to call twice; not from inside the handler (the
  /// library is running then).
  public func stop() {
    guard let server else { return }
    // The library must not be stopped with a connection suspended (microhttpd.h,
    // MHD_suspend_connection): they are all woken, to be closed.
    for stream in streams.values {
      if stream.ending == nil { stream.ending = .serverStopped }
      wake(stream)
    }
    cmhd_stop(server)
    self.server = nil
    streams.removeAll()
  }

  // MARK: - Requests

  private func handle(
    _ connection: OpaquePointer, path: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
    upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) -> Bool {
    guard let context = requestContext.pointee else {
      // The first call: the headers are in.
      let pending = PendingRequest(
        request: request(connection, path: path, method: method))
      requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
      if connections[connection]?.overLimit == true,
        !(handler?.mayUseReserve(pending.request) ?? false)
      {
        // RFC 9110 §15.6.4: 503 with Retry-After (§10.2.3); `Connection: close` (RFC 9112
        // §9.6) gives the slot back as soon as the answer is out.
        pending.answered = true
        var busy = refusal(
          503, code: "server_busy",
          message: "the clock serves as many connections as it can",
          hint: "this page tries again by itself")
        busy.headers += [Field("Retry-After", "5"), Field("Connection", "close")]
        return queue(busy, on: connection)
      }
      if let length = pending.request.header("content-length").flatMap({ UInt64($0) }),
        length > UInt64(max(limits.maximumBodyBytes, 0))
      {
        // Refused before a byte of the body is read (and before `100 Continue`).
        pending.answered = true
        return queue(tooLarge(), on: connection)
      }
      return true
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(context).takeUnretainedValue()
    let size = uploadSize.pointee
    if size > 0 {
      if pending.answered || pending.tooLarge {
        // Answered already, or too large: the rest of the body is dropped.
        uploadSize.pointee = 0
        return true
      }
      guard let upload, size <= limits.maximumBodyBytes - pending.request.body.count else {
        pending.tooLarge = true
        pending.request.body = []
        uploadSize.pointee = 0
        return true
      }
      upload.withMemoryRebound(to: UInt8.self, capacity: size) {
        pending.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
      }
      uploadSize.pointee = 0
      return true
    }
    guard !pending.answered else { return true }
    pending.answered = true
    if pending.tooLarge { return queue(tooLarge(), on: connection) }
    guard let handler else {
      return queue(
        refusal(503, code: "unavailable", message: "the web server is shutting down", hint: nil),
        on: connection)
    }
    switch handler.answer(pending.request) {
    case .response(let response):
      return queue(response, on: connection)
    case .eventStream(let headers):
      let address = connections[connection]?.address ?? []
      let fromAddress = streams.values.count(where: { $0.address == address })
      guard streams.count < limits.maximumStreams,
        fromAddress < limits.maximumStreamsPerAddress
      else {
        let message =
          streams.count >= limits.maximumStreams
          ? "too many event streams are open (\(limits.maximumStreams))"
          : "this address has \(limits.maximumStreamsPerAddress) event streams open already"
        var refused = refusal(
          503, code: "too_many_streams", message: message,
          hint: "close a display page; this one tries again by itself")
        refused.headers += [Field("Retry-After", "5"), Field("Connection", "close")]
        return queue(refused, on: connection)
      }
      return openStream(
        headers: headers, pending: pending, on: connection, handler: handler, address: address)
    }
  }

  /// The request's method, path, query, headers and peer.
  private func request(
    _ connection: OpaquePointer, path: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?
  ) -> Request {
    var request = Request(
      method: method.map { String(cString: $0) } ?? "", path: path.map { String(cString: $0) } ?? ""
    )
    withUnsafeMutablePointer(to: &request.headers) { headers in
      cmhd_values(
        connection, Int32(CMHD_HEADER),
        { context, name, nameLength, value, valueLength in
          guard let context else { return }
          let fields = context.assumingMemoryBound(to: [Field].self)
          fields.pointee.append(
            Field(
              HTTPServer.text(name, nameLength).lowercased(), HTTPServer.text(value, valueLength)))
        }, headers)
    }
    withUnsafeMutablePointer(to: &request.query) { query in
      cmhd_values(
        connection, Int32(CMHD_QUERY),
        { context, name, nameLength, value, valueLength in
          guard let context else { return }
          let items = context.assumingMemoryBound(to: [QueryItem].self)
          items.pointee.append(
            QueryItem(
              HTTPServer.text(name, nameLength),
              value.map { HTTPServer.text($0, valueLength) }))
        }, query)
    }
    var family: Int32 = 0
    var bytes = [UInt8](repeating: 0, count: 16)
    var scope: UInt32 = 0
    var port: Int32 = 0
    if cmhd_client_address(connection, &family, &bytes, &scope, &port) == 0 {
      request.peer = SocketAddress(cFamily: family, paddedBytes: bytes, scopeID: scope, port: port)
    }
    return request
  }

  /// Text of `length` bytes at `pointer` (not NUL-terminated: a decoded `%00` stays in);
  /// ill-formed UTF-8 is repaired, never a trap.
  private static func text(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
    guard let pointer, length > 0 else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  /// RFC 9110 §15.5.14; the connection is closed after it (what else of the body comes is not
  /// read).
  private func tooLarge() -> Response {
    var response = refusal(
      413, code: "too_large",
      message: "the request body is larger than \(limits.maximumBodyBytes) bytes",
      hint: "send at most \(limits.maximumBodyBytes) bytes")
    response.headers.append(Field("Connection", "close"))
    return response
  }

  /// A refusal of the server's own, as a JSON error body like every error of the web interface:
  /// `{"ok":false,"error":{"code":…,"message":…,"hint":…}}` (the texts are ASCII without
  /// quotes or backslashes, so they need no escaping).
  private func refusal(_ status: Int, code: String, message: String, hint: String?) -> Response {
    var json = "{\"ok\":false,\"error\":{\"code\":\"\(code)\",\"message\":\"\(message)\""
    if let hint { json += ",\"hint\":\"\(hint)\"" }
    json += "}}"
    return Response(
      status: status,
      headers: [Field("Content-Type", "application/json"), Field("Cache-Control", "no-store")],
      bytes: Array(json.utf8))
  }

  /// Queues `response` on the connection; false (the connection is closed) when the library
  /// cannot take it.
  private func queue(_ response: Response, on connection: OpaquePointer) -> Bool {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      made = bytes.withUnsafeBytes { cmhd_response_from_bytes($0.baseAddress, $0.count, 0) }
    case .permanent(let bytes):
      made = cmhd_response_from_bytes(bytes.baseAddress, bytes.count, 1)
    case .file(let descriptor, let offset, let length):
      guard let start = UInt64(exactly: offset), let count = UInt64(exactly: length) else {
        try? descriptor.close()
        return false
      }
      made = cmhd_response_from_file(descriptor.rawValue, start, count)
      // Refused, the descriptor is still this side's.
      if made == nil { try? descriptor.close() }
    }
    guard let made else { return false }
    defer { cmhd_destroy_response(made) }
    connections[connection]?.awaitingSince = nil
    addHeaders(response.headers, to: made)
    guard let status = UInt32(exactly: response.status), (100...999).contains(status) else {
      log?("a response with status \(response.status) was turned into 500")
      return cmhd_queue_response(connection, 500, made) == 0
    }
    return cmhd_queue_response(connection, status, made) == 0
  }

  private func addHeaders(_ headers: [Field], to response: OpaquePointer) {
    for field in commonHeaders + headers {
      let added = field.name.withCString { name in
        field.value.withCString { value in cmhd_add_header(response, name, value) }
      }
      if added != 0 { log?("the response header \(field.name) was refused (a CR, LF or tab?)") }
    }
  }

  // MARK: - Event streams

  private func openStream(
    headers: [Field], pending: PendingRequest, on connection: OpaquePointer,
    handler: any HTTPRequestHandler, address: [UInt8]
  ) -> Bool {
    guard let server else { return false }
    let id = StreamID(rawValue: nextStream)
    guard let response = cmhd_stream_response(server, id.rawValue, Self.streamBlockBytes) else {
      return false
    }
    defer { cmhd_destroy_response(response) }
    addHeaders(headers, to: response)
    guard cmhd_queue_response(connection, 200, response) == 0 else { return false }
    connections[connection]?.awaitingSince = nil
    nextStream += 1
    let stream = EventStream(connection: connection)
    stream.address = address
    streams[id] = stream
    pending.stream = id
    handler.eventStreamOpened(id, for: pending.request)
    return true
  }

  /// The library asks for a stream's next bytes. With nothing to send the connection is
  /// suspended and 0 returned: the library then leaves it alone (no busy loop, no timeout)
  /// until ``send(_:to:)`` resumes it (microhttpd.h, MHD_ContentReaderCallback).
  private func read(
    _ id: StreamID, into buffer: UnsafeMutablePointer<CChar>, max: Int
  ) -> Int {
    guard let stream = streams[id] else { return CMHD_END_WITH_ERROR }
    switch stream.ending {
    case .backlogOverflow, .serverStopped, .clientLeft, .timedOut: return CMHD_END_WITH_ERROR
    case .finished where stream.pending == 0: return CMHD_END_OF_STREAM
    case .finished, nil: break
    }
    let count = min(stream.pending, max)
    if count > 0 {
      stream.backlog.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(
          from: bytes.baseAddress! + stream.sent, byteCount: count)
      }
      stream.sent += count
      if stream.sent == stream.backlog.count {
        stream.backlog.removeAll(keepingCapacity: true)
        stream.sent = 0
      }
      return count
    }
    cmhd_suspend(stream.connection)
    stream.suspended = true
    return 0
  }

  /// Ends a stream now: its connection is shut down (the library then closes it and reports
  /// the request complete), and woken if it was parked.
  private func end(_ stream: EventStream, _ reason: StreamEnd) {
    stream.ending = reason
    stream.backlog = []
    stream.sent = 0
    let socket = cmhd_connection_socket(stream.connection)
    if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
    wake(stream)
  }

  private func wake(_ stream: EventStream) {
    guard stream.suspended else { return }
    stream.suspended = false
    mustRunAgain = true
    cmhd_resume(stream.connection)
  }

  /// The library accepted a connection, or closed one: the per-address count, and whether it
  /// is past a limit.
  private func connection(_ pointer: OpaquePointer, closed: Bool) {
    if closed {
      guard let connection = connections.removeValue(forKey: pointer) else { return }
      let left = (connectionsPerAddress[connection.address] ?? 1) - 1
      connectionsPerAddress[connection.address] = left > 0 ? left : nil
      return
    }
    var family: Int32 = 0
    var bytes = [UInt8](repeating: 0, count: 16)
    var scope: UInt32 = 0
    var port: Int32 = 0
    let address =
      cmhd_client_address(pointer, &family, &bytes, &scope, &port) == 0
      ? Array(bytes.prefix(family == AF_INET ? 4 : 16)) : []
    let fromAddress = connectionsPerAddress[address] ?? 0
    let overLimit =
      connections.count >= limits.maximumConnections
      || fromAddress >= limits.maximumConnectionsPerAddress
    connections[pointer] = Connection(
      address: address, awaitingSince: runInstant, overLimit: overLimit)
    connectionsPerAddress[address] = fromAddress + 1
  }

  /// A request is over: its context is released, and a stream's handler told.
  private func completed(
    _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>, termination: Int32
  ) {
    mustRunAgain = true
    // The next request on a kept-alive connection is waited for from now.
    if let connection { connections[connection]?.awaitingSince = runInstant }
    guard let context = requestContext.pointee else { return }
    requestContext.pointee = nil
    let pending = Unmanaged<PendingRequest>.fromOpaque(context).takeRetainedValue()
    guard let id = pending.stream, let stream = streams.removeValue(forKey: id) else { return }
    let reason: StreamEnd
    if let ending = stream.ending {
      reason = ending
    } else {
      switch termination {
      case Int32(CMHD_TERMINATED_TIMEOUT_REACHED): reason = .timedOut
      case Int32(CMHD_TERMINATED_DAEMON_SHUTDOWN): reason = .serverStopped
      default: reason = .clientLeft
      }
    }
    handler?.eventStreamEnded(id, because: reason)
  }
}
