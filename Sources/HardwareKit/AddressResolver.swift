// SPDX-License-Identifier: MIT
// Host names looked up off the event loop. getaddrinfo(3) waits for as long as the name
// server, /etc/hosts on a slow card or an mDNS query (WLED's `wled-abc.local`) takes: seconds,
// while the daemon's one thread may not wait at all. So each lookup runs getaddrinfo in a
// short-lived child process (a ChildJob) and writes its answer to a pipe; the loop watches a
// descriptor, reads the answer when the child is done, and ends a child that takes too long.
// No thread of our own: glibc's getaddrinfo_a(3) would run the lookup on a helper thread.

import CLinux
import Glibc

/// Looks host names up without making its caller wait.
///
/// A lookup starts a child process, `command` followed by the name, which answers on its
/// standard output in the form ``answer(_:to:)`` writes and exits. Numeric addresses need no
/// lookup: parse them with ``IPAddress/init(_:)`` first.
public struct AddressResolver: Sendable {
  /// The program and the arguments before the name, such as `["/usr/bin/wodclockd",
  /// "--resolve"]`.
  public var command: [String]
  /// How long a lookup may take, in nanoseconds, before it is abandoned and reported.
  public var timeout: Int64

  /// A few seconds: glibc's own timeout per name server (resolv.conf(5), `timeout:5`) and
  /// nss-mdns's for a `.local` name.
  public static let defaultTimeout: Int64 = 5_000_000_000
  /// The most addresses an answer carries; getaddrinfo's further ones are left out.
  public static let maximumAddresses = 16
  /// The longest answer read from a child: 16 IPv6 addresses with zones fit many times over.
  static let maximumAnswerBytes = 4096

  public init(command: [String], timeout: Int64 = defaultTimeout) {
    self.command = command
    self.timeout = timeout
  }

  /// Starts looking `host` up, at monotonic instant `now`; the lookup is abandoned at `now` +
  /// ``timeout``.
  /// - Throws: `SystemError` when the child cannot be started (no such program, no processes
  ///   left); a name that cannot be one (empty, too long, with spaces or control characters)
  ///   is not started either, and its lookup fails at once with the reason.
  public func lookUp(_ host: String, at now: Int64) throws(SystemError) -> AddressLookup {
    let deadline = now > Int64.max - timeout ? Int64.max : now + max(0, timeout)
    if let problem = Self.problem(withName: host) {
      return AddressLookup(host: host, deadline: deadline, failure: problem)
    }
    guard let program = command.first else {
      throw SystemError(operation: "posix_spawn", errno: .invalidArgument, hint: "no resolver")
    }
    let child = try ChildJob(
      program: program, arguments: Array(command.dropFirst()) + [host], input: nil,
      keepsErrors: false, waitsForOutputEnd: false, deadline: deadline)
    return AddressLookup(host: host, timeout: timeout, child: child)
  }

  /// Why `host` cannot be looked up, or nil when it can be. A name has 1 to 253 bytes
  /// (RFC 1035 section 2.3.4, in text form) and no spaces or control characters.
  static func problem(withName host: String) -> ResolutionError? {
    func refuse(_ why: String) -> ResolutionError {
      ResolutionError(host: host, reason: .unknownHost, message: why)
    }
    if host.isEmpty { return refuse("no name given") }
    if host.utf8.count > 253 { return refuse("a host name has at most 253 characters") }
    if host.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
      return refuse("a host name has no spaces or control characters")
    }
    return nil
  }

  // MARK: - The child's side

  /// The child's half: looks `host` up here and now, waiting as long as getaddrinfo takes, and
  /// writes the answer to `output`: a line `address <numeric address>` for each address, in the
  /// order getaddrinfo gave them (RFC 6724's), or one line `error <EAI name> <message>`. For a
  /// process of its own (`wodclockd --resolve HOST`), never for the event loop.
  /// - Returns: the exit status: 0 when it answered, 74 (EX_IOERR) when the answer could not
  ///   be written.
  public static func answer(_ host: String, to output: FileDescriptor = .standardOutput)
    -> Int32
  {
    // A name server that takes seconds must not hold a real-time priority meanwhile (the unit
    // resets it on fork; a daemon started otherwise might not).
    try? SchedulingPolicy.normal.apply()
    var lines = ""
    switch lookUpWaiting(host) {
    case .success(let addresses):
      for address in addresses { lines += "address \(address)\n" }
    case .failure(let error):
      lines = "error \(error.code) \(error.message)\n"
    }
    do {
      try output.writeAll(Array(lines.utf8))
    } catch {
      return 74
    }
    return 0
  }

  /// getaddrinfo's failure: its EAI name and its words.
  private struct LookupFailure: Error {
    var code: String
    var message: String
  }

  /// getaddrinfo(3) of `host`, waiting for its answer.
  private static func lookUpWaiting(_ host: String) -> Result<[IPAddress], LookupFailure> {
    if let problem = problem(withName: host) {
      return .failure(LookupFailure(code: "EAI_NONAME", message: problem.message))
    }
    let capacity = maximumAddresses
    var families = [Int32](repeating: 0, count: capacity)
    var bytes = [UInt8](repeating: 0, count: 16 * capacity)
    var scopes = [UInt32](repeating: 0, count: capacity)
    var count: Int32 = 0
    let status = clinux_resolve(host, &families, &bytes, &scopes, Int32(capacity), &count)
    guard status == 0 else {
      let code = clinux_resolve_error_name(status).map { String(cString: $0) } ?? "EAI_\(status)"
      // EAI_SYSTEM: the reason is in errno (getaddrinfo(3), RETURN VALUE).
      let message =
        code == "EAI_SYSTEM"
        ? Errno.current.description : String(cString: clinux_resolve_error_message(status))
      return .failure(LookupFailure(code: code, message: message))
    }
    var addresses: [IPAddress] = []
    for index in 0..<min(Int(count), capacity) {
      let padded = Array(bytes[(16 * index)..<(16 * index + 16)])
      if let address = IPAddress(
        cFamily: families[index], paddedBytes: padded, scopeID: scopes[index])
      {
        addresses.append(address)
      }
    }
    return .success(addresses)
  }
}

/// Why a name could not be looked up.
public struct ResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Reason: Hashable, Sendable {
    /// No such name, or no address for it (EAI_NONAME, EAI_NODATA), or no name at all.
    case unknownHost
    /// The name server did not answer or said to try again (EAI_AGAIN): no network yet, say.
    case temporaryFailure
    /// No answer within the resolver's timeout; the lookup was ended.
    case timedOut
    /// Anything else: the child could not answer, or its answer could not be read.
    case failed
  }

  /// The name that was looked up.
  public var host: String
  public var reason: Reason
  /// What went wrong, in getaddrinfo's words ("Name or service not known") or the resolver's.
  public var message: String

  public init(host: String, reason: Reason, message: String) {
    self.host = host
    self.reason = reason
    self.message = message
  }

  /// `cannot look up 'wled.invalid': Name or service not known`.
  public var description: String { "cannot look up '\(host)': \(message)" }
}

/// One name lookup on its way in a child process.
///
/// Watch ``fileDescriptor`` for readability and ask ``result(at:)`` when it is readable, and
/// again at ``deadline``. The descriptors stay open until ``cancel()`` or until the lookup is
/// released, so that a loop still watching ``fileDescriptor`` can let go of it first (epoll(7)
/// tracks the open file, not the number).
public final class AddressLookup {
  /// The name being looked up.
  public let host: String
  /// When the lookup is abandoned (monotonic nanoseconds).
  public let deadline: Int64
  /// Readable once the answer is in: a pidfd, which turns readable when the child has ended
  /// (pidfd_open(2), Linux 5.3), or where there is none the pipe of the answer.
  public let fileDescriptor: FileDescriptor

  private let timeout: Int64
  private let child: ChildJob?
  /// The pipe already at its end of a lookup that failed before it started.
  private let endedPipe: FileDescriptor?
  private var received: [UInt8] = []
  private var tooLong = false
  private var outcome: Result<[IPAddress], ResolutionError>?
  private var released = false

  init(host: String, timeout: Int64, child: ChildJob) {
    self.host = host
    self.timeout = timeout
    deadline = child.deadline
    self.child = child
    endedPipe = nil
    // Without a pidfd the pipe says when the child is done: it ends when the child exits.
    fileDescriptor = child.exitNotice ?? child.output ?? .standardInput
  }

  /// A lookup that failed before it started (a name that cannot be one). Its descriptor is
  /// a pipe already at its end, so a loop that watches it sees it at once.
  init(host: String, deadline: Int64, failure: ResolutionError) {
    self.host = host
    timeout = 0
    self.deadline = deadline
    child = nil
    let pipe = try? FileDescriptor.pipe(nonBlocking: true)
    try? pipe?.writeEnd.close()
    endedPipe = pipe?.readEnd
    fileDescriptor = endedPipe ?? .standardInput
    outcome = .failure(failure)
  }

  deinit { cancel() }

  /// Whether the child still runs (tests).
  public var isRunning: Bool { child?.isRunning ?? false }

  /// The child's process id (tests).
  public var processID: Int32? { child?.processID }

  /// The answer once it is in, nil while the child is still looking. Reads what the child has
  /// written; never waits for the network. At or after ``deadline`` without an answer the
  /// child is ended and the lookup fails with `.timedOut`.
  /// - Returns: the addresses in the order to try them (never empty), or why there are none.
  public func result(at now: Int64) -> Result<[IPAddress], ResolutionError>? {
    if let outcome { return outcome }
    guard let child else { return nil }
    let progress = child.step(at: now) { bytes in
      // Kept up to the longest answer; the rest is read and dropped.
      if received.count + bytes.count > AddressResolver.maximumAnswerBytes {
        tooLong = true
      } else {
        received += bytes
      }
      return true
    }
    switch progress {
    case .running, .cancelled, .refused:
      break
    case .exited(let status):
      // Reaped elsewhere (SIGCHLD ignored): its answer is what it wrote.
      outcome = interpret(status ?? .exited(child.outputEnded ? 0 : -1))
    case .timedOut:
      outcome = .failure(
        ResolutionError(
          host: host, reason: .timedOut,
          message: "no answer within \(Self.seconds(timeout)) s"))
    }
    return outcome
  }

  /// Ends the child if it still runs, and closes the lookup's descriptors. The lookup has no
  /// result afterwards unless it had one before.
  public func cancel() {
    child?.cancel()
    guard !released else { return }
    released = true
    try? endedPipe?.close()
  }

  /// The lookup's outcome from the child's exit and answer.
  private func interpret(_ status: Subprocess.ExitStatus) -> Result<[IPAddress], ResolutionError> {
    func failure(_ reason: ResolutionError.Reason, _ message: String) -> Result<
      [IPAddress], ResolutionError
    > {
      .failure(ResolutionError(host: host, reason: reason, message: message))
    }
    switch status {
    case .exited(0): break
    case .exited(let code): return failure(.failed, "the resolver exited with code \(code)")
    case .signaled(let signal): return failure(.failed, "the resolver was killed by \(signal)")
    }
    if tooLong { return failure(.failed, "the resolver's answer is too long") }
    var addresses: [IPAddress] = []
    for line in received.split(separator: UInt8(ascii: "\n")) {
      let text = String(decoding: line, as: UTF8.self)
      if text.hasPrefix("address "), let address = IPAddress(String(text.dropFirst(8))) {
        if addresses.count < AddressResolver.maximumAddresses { addresses.append(address) }
      } else if text.hasPrefix("error ") {
        let words = text.dropFirst(6).split(separator: " ", maxSplits: 1)
        let code = words.first.map(String.init) ?? ""
        let message = words.count > 1 ? String(words[1]) : code
        switch code {
        case "EAI_NONAME", "EAI_NODATA", "EAI_ADDRFAMILY": return failure(.unknownHost, message)
        case "EAI_AGAIN": return failure(.temporaryFailure, message)
        default: return failure(.failed, message)
        }
      } else {
        return failure(.failed, "the resolver's answer cannot be read")
      }
    }
    guard !addresses.isEmpty else { return failure(.unknownHost, "no address for the name") }
    return .success(addresses)
  }

  private static func seconds(_ nanoseconds: Int64) -> String {
    let tenths = nanoseconds / 100_000_000
    return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
  }
}
