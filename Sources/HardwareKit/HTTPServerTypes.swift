// SPDX-License-Identifier: MIT
// What HTTPServer hands its handler and takes back: requests, responses, event streams, limits
// and the errors of starting a server.

import Glibc

extension HTTPServer {
  /// The bounds of what clients may cost. Connections, memory and the idle timeout are
  /// libmicrohttpd's own options; the body, the streams and their backlogs are kept here.
  public struct Limits: Hashable, Sendable {
    /// Connections served at once, from all clients. A connection past it is still accepted
    /// (libmicrohttpd's MHD_OPTION_CONNECTION_LIMIT is this plus ``reserveConnections``) and its
    /// request answered at once: 503 `server_busy` with `Retry-After`, unless the handler gives
    /// it the reserve (``HTTPRequestHandler/mayUseReserve(_:)``, a signed-in remote).
    public var maximumConnections: Int
    /// Connections served at once from one client address; past it, the same 503. The library
    /// takes ``reserveConnectionsPerAddress`` more (MHD_OPTION_PER_IP_CONNECTION_LIMIT) and
    /// closes any further one at once.
    public var maximumConnectionsPerAddress: Int
    /// Memory of one connection (MHD_OPTION_CONNECTION_MEMORY_LIMIT): it holds the request line
    /// and the headers, so it bounds them; a request whose headers do not fit is refused by the
    /// library with a 4xx status.
    public var connectionMemoryBytes: Int
    /// A connection silent this long is closed (MHD_OPTION_CONNECTION_TIMEOUT). An event stream
    /// waiting for news is not: it is suspended, and suspended connections do not time out.
    public var idleTimeoutSeconds: Int
    /// A request's header and body must be in this long (nanoseconds) after its connection
    /// opened, or after the previous request on it was answered; else the connection is closed.
    /// The library's own timeout is an idle one, which a client sending a byte a second resets
    /// for ever.
    public var requestTimeout: Int64
    /// The largest request body; a larger one is answered 413 `too_large`: before it is read
    /// when its `Content-Length` says so, after it is read and dropped when it is chunked.
    public var maximumBodyBytes: Int
    /// Event streams open at once; a handler's stream past it is answered 503
    /// `too_many_streams` with `Retry-After`.
    public var maximumStreams: Int
    /// Event streams open at once from one client address; past it, the same 503.
    public var maximumStreamsPerAddress: Int
    /// Bytes sent to a stream and not yet taken by its connection; past it the stream is
    /// closed (a client that does not read).
    public var maximumStreamBacklogBytes: Int

    /// The defaults are the web interface's: 128 connections, 8 per address, 16 KiB a
    /// connection, 15 s idle, 10 s for a request, 16 KiB bodies, 64 streams, 3 per address,
    /// with 256 KiB of backlog each.
    public init(
      maximumConnections: Int = 128, maximumConnectionsPerAddress: Int = 8,
      connectionMemoryBytes: Int = 16 * 1024, idleTimeoutSeconds: Int = 15,
      requestTimeout: Int64 = 10_000_000_000, maximumBodyBytes: Int = 16 * 1024,
      maximumStreams: Int = 64, maximumStreamsPerAddress: Int = 3,
      maximumStreamBacklogBytes: Int = 256 * 1024
    ) {
      self.maximumConnections = maximumConnections
      self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
      self.connectionMemoryBytes = connectionMemoryBytes
      self.idleTimeoutSeconds = idleTimeoutSeconds
      self.requestTimeout = requestTimeout
      self.maximumBodyBytes = maximumBodyBytes
      self.maximumStreams = maximumStreams
      self.maximumStreamsPerAddress = maximumStreamsPerAddress
      self.maximumStreamBacklogBytes = maximumStreamBacklogBytes
    }

    /// Connections taken past ``maximumConnections`` to be answered 503 (or served, for the
    /// handler's reserve) rather than left waiting in the kernel's queue: an eighth, at least 8.
    public var reserveConnections: Int { max(8, max(maximumConnections, 0) / 8) }

    /// Connections taken from one address past ``maximumConnectionsPerAddress``, for the same.
    public var reserveConnectionsPerAddress: Int { 2 }
  }

  /// A header of a request or a response, or a query argument.
  public struct Field: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// A query argument: `value` is nil for a name without `=` (`?debug`).
  public struct QueryItem: Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String?) {
      self.name = name
      self.value = value
    }
  }

  /// A complete request: the headers and the whole body.
  public struct Request: Hashable, Sendable {
    /// `GET`, `POST` … as the client sent it.
    public var method: String
    /// The path without the query, percent-decoded (`/api/explain`).
    public var path: String
    /// The query's arguments in order, percent-decoded (`+` read as a space).
    public var query: [QueryItem]
    /// The headers in order, names in lowercase.
    public var headers: [Field]
    public var body: [UInt8]
    /// Where the request came from (an IPv4 client of a dual-stack `[::]` listener shows as
    /// `::ffff:a.b.c.d`); nil if the library does not say.
    public var peer: SocketAddress?

    public init(
      method: String, path: String, query: [QueryItem] = [], headers: [Field] = [],
      body: [UInt8] = [], peer: SocketAddress? = nil
    ) {
      self.method = method
      self.path = path
      self.query = query
      self.headers = headers
      self.body = body
      self.peer = peer
    }

    /// The first header named `name` (any case), or nil.
    public func header(_ name: String) -> String? {
      let lowercased = name.lowercased()
      return headers.first { $0.name == lowercased }?.value
    }

    /// The first query argument named `name` (its value, "" for a name without `=`), or nil.
    public func queryValue(_ name: String) -> String? {
      query.first { $0.name == name }.map { $0.value ?? "" }
    }
  }

  /// A complete answer. The library adds `Content-Length` and `Date`.
  public struct Response: Sendable {
    /// The bytes of a body.
    public enum Body: @unchecked Sendable {
      /// Bytes of this response (copied once into the library).
      case bytes([UInt8])
      /// Bytes that live as long as the program, such as a file compiled into it: sent from
      /// where they are, never copied (MHD_RESPMEM_PERSISTENT).
      case permanent(UnsafeRawBufferPointer)
      /// `length` bytes of an open file from `offset`, sent from its descriptor as the client
      /// takes them, never read into memory. The response owns the descriptor: the server
      /// closes it once the bytes are sent or the response is dropped.
      case file(FileDescriptor, offset: Int64, length: Int64)
    }

    public var status: Int
    public var headers: [Field]
    public var body: Body

    public init(status: Int, headers: [Field] = [], body: Body = .bytes([])) {
      self.status = status
      self.headers = headers
      self.body = body
    }

    /// A response whose body is `bytes`.
    public init(status: Int, headers: [Field] = [], bytes: [UInt8]) {
      self.init(status: status, headers: headers, body: .bytes(bytes))
    }
  }

  /// What a handler does with a request.
  public enum Answer: Sendable {
    /// Answers with a complete response.
    case response(Response)
    /// Opens an event stream: status 200, these headers, a chunked body of what is sent to the
    /// stream later (``HTTPServer/send(_:to:)``). The handler learns the stream's id from
    /// ``HTTPRequestHandler/eventStreamOpened(_:for:)``.
    case eventStream(headers: [Field])
  }

  /// An event stream's number, unique for the server's lifetime.
  public struct StreamID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "stream \(rawValue)" }
  }

  /// Why an event stream ended.
  public enum StreamEnd: Hashable, Sendable {
    /// The client closed the connection, or it failed.
    case clientLeft
    /// Its backlog passed ``Limits/maximumStreamBacklogBytes``: a client that does not read.
    case backlogOverflow
    /// ``HTTPServer/finish(_:)`` ended it after its last bytes.
    case finished
    /// The connection was silent past the idle timeout while bytes waited to be sent.
    case timedOut
    /// ``HTTPServer/stop()``.
    case serverStopped
  }
}

/// The object that answers an ``HTTPServer``'s requests, called synchronously inside
/// ``HTTPServer/run()``.
public protocol HTTPRequestHandler: AnyObject {
  /// Answers a complete request (headers and body read).
  func answer(_ request: HTTPServer.Request) -> HTTPServer.Answer
  /// Whether a request that came while every connection slot was taken is served anyway (its
  /// headers are in, the body not yet): what must never be turned away, such as a signed-in
  /// remote. Any other is answered 503 `server_busy`.
  func mayUseReserve(_ request: HTTPServer.Request) -> Bool
  /// An event stream this handler asked for is open; bytes may be sent to it now (the first
  /// ones, such as `retry:` and a first event, are best sent from here).
  func eventStreamOpened(_ stream: HTTPServer.StreamID, for request: HTTPServer.Request)
  /// An event stream has ended; sending to it does nothing from now on.
  func eventStreamEnded(_ stream: HTTPServer.StreamID, because reason: HTTPServer.StreamEnd)
}

/// Why a web server could not start, in words for the person who configured it.
public struct HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// libmicrohttpd.so.12 could not be loaded (or lacks a function).
    case libraryMissing
    /// Another socket listens on the port (EADDRINUSE).
    case addressInUse
    /// Not allowed: a port below 1024 without the capability (EACCES).
    case notPermitted
    /// The address is not one of this machine's (EADDRNOTAVAIL).
    case addressNotAvailable
    /// Another failure of the socket calls.
    case system(Errno)
    /// The library refused to start the server.
    case startFailed
  }

  public var reason: Reason
  /// The listening address asked for.
  public var address: SocketAddress?
  /// What happened, in a sentence.
  public var message: String
  /// What to do about it.
  public var hint: String?

  public init(reason: Reason, address: SocketAddress?, message: String, hint: String?) {
    self.reason = reason
    self.address = address
    self.message = message
    self.hint = hint
  }

  /// The error a failed bind or listen of `address` is.
  init(listening address: SocketAddress, error: SystemError) {
    let port = address.port
    let at = "cannot listen on \(address)"
    switch error.errno {
    case .addressInUse:
      self.init(
        reason: .addressInUse, address: address,
        message: "\(at): the port is in use (EADDRINUSE)",
        hint: "another program listens on port \(port) (`ss -ltnp 'sport = :\(port)'` names it); "
          + "stop it or choose another port")
    case .permissionDenied, .notPermitted:
      self.init(
        reason: .notPermitted, address: address,
        message: "\(at): not allowed (\(error.errno.name))",
        hint: port < 1024
          ? "ports below 1024 need the CAP_NET_BIND_SERVICE capability "
            + "(AmbientCapabilities= in the service unit); or choose a port from 1024 up, such as 8080"
          : "a security policy forbids this socket")
    case Errno(rawValue: EADDRNOTAVAIL):
      self.init(
        reason: .addressNotAvailable, address: address,
        message: "\(at): \(address.address) is not an address of this machine (EADDRNOTAVAIL)",
        hint: "`ip -brief address` lists this machine's addresses; 0.0.0.0 or [::] listens on all")
    default:
      self.init(
        reason: .system(error.errno), address: address,
        message: "\(at): \(error.errno.description)", hint: nil)
    }
  }

  /// `cannot listen on 0.0.0.0:8080: the port is in use (EADDRINUSE); hint: …`.
  public var description: String {
    guard let hint else { return message }
    return "\(message); hint: \(hint)"
  }
}

extension HTTPRequestHandler {
  /// No request is given the reserve unless the handler says so.
  public func mayUseReserve(_ request: HTTPServer.Request) -> Bool { false }
}
