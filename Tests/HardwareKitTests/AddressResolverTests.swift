// SPDX-License-Identifier: MIT
// Name lookups in a child process: the child's half (getaddrinfo, then a line per address)
// run here, and the parent's half against stand-in children that answer, fail, say nonsense or
// never answer, so that the timeout is seen on manual time without waiting for it.

import Glibc
import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct AddressResolverTests {
  static let second: Int64 = 1_000_000_000

  /// A resolver whose child is `script` run by the shell, with the name as `$1`.
  func standIn(_ script: String, timeout: Int64 = AddressResolver.defaultTimeout)
    -> AddressResolver
  {
    AddressResolver(command: ["/bin/sh", "-c", script, "resolver"], timeout: timeout)
  }

  /// Waits (at most 30 s: a name server that does not answer) until `lookup` has its answer.
  func waitForAnswer(_ lookup: AddressLookup) throws {
    let poller = try EventPoller()
    defer { try? poller.close() }
    try poller.register(lookup.fileDescriptor, token: 1)
    _ = try poller.wait(timeoutMilliseconds: 30_000)
    try poller.unregister(lookup.fileDescriptor)
  }

  /// What the child's half writes for `host`.
  func answer(_ host: String) throws -> String {
    let pipe = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      try? pipe.readEnd.close()
      try? pipe.writeEnd.close()
    }
    #expect(AddressResolver.answer(host, to: pipe.writeEnd) == 0)
    return try pipe.readEnd.readAvailableText()
  }

  @Test func theChildsHalfAnswersWithAnAddressALine() throws {
    // /etc/hosts has localhost: no network needed.
    let lines = try answer("localhost").split(separator: "\n")
    #expect(lines.contains("address 127.0.0.1"), "\(lines)")
    #expect(lines.allSatisfy { $0.hasPrefix("address ") })
  }

  @Test func theChildsHalfSaysWhyANameHasNoAddress() throws {
    // RFC 6761 section 6.4: no .invalid name ever resolves. Without a name server the answer
    // is EAI_AGAIN or EAI_NONAME rather than an address, so only the form is certain.
    let text = try answer("wled.invalid")
    #expect(text.hasPrefix("error EAI_"), "\(text)")
    #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
    #expect(
      try answer("two words")
        == "error EAI_NONAME a host name has no spaces or control characters\n")
  }

  @Test func anAnswerIsReadWhenTheChildIsDone() throws {
    let resolver = standIn("printf 'address 192.0.2.7\\naddress 2001:db8::7\\n'")
    let lookup = try resolver.lookUp("wled.local", at: 10 * Self.second)
    defer { lookup.cancel() }
    #expect(lookup.deadline == 15 * Self.second)
    try waitForAnswer(lookup)
    let addresses = try #require(try lookup.result(at: 10 * Self.second)?.get())
    #expect(addresses == [IPAddress("192.0.2.7")!, IPAddress("2001:db8::7")!])
    #expect(!lookup.isRunning, "the child is reaped")
  }

  @Test func theChildsWordsForAFailureAreKept() throws {
    let cases: [(String, ResolutionError.Reason, String)] = [
      ("error EAI_NONAME Name or service not known", .unknownHost, "Name or service not known"),
      (
        "error EAI_AGAIN Temporary failure in name resolution", .temporaryFailure,
        "Temporary failure in name resolution"
      ),
      (
        "error EAI_FAIL Non-recoverable failure in name resolution", .failed,
        "Non-recoverable failure in name resolution"
      ),
    ]
    for (line, reason, message) in cases {
      let lookup = try standIn("printf '\(line)\\n'").lookUp("wled.local", at: 0)
      defer { lookup.cancel() }
      try waitForAnswer(lookup)
      let expected = ResolutionError(host: "wled.local", reason: reason, message: message)
      #expect(lookup.result(at: 0) == .failure(expected))
      #expect(expected.description == "cannot look up 'wled.local': \(message)")
    }
  }

  @Test func aChildThatSaysNonsenseOrDiesIsAFailure() throws {
    let cases: [(String, ResolutionError.Reason, String)] = [
      ("echo hello", .failed, "the resolver's answer cannot be read"),
      ("echo 'address 999.1.1.1'", .failed, "the resolver's answer cannot be read"),
      ("exit 0", .unknownHost, "no address for the name"),
      ("exit 3", .failed, "the resolver exited with code 3"),
      ("kill -SEGV $$", .failed, "the resolver was killed by SIGSEGV"),
      ("head -c 5000 /dev/zero | tr '\\0' x", .failed, "the resolver's answer is too long"),
    ]
    for (script, reason, message) in cases {
      let lookup = try standIn(script).lookUp("wled.local", at: 0)
      defer { lookup.cancel() }
      try waitForAnswer(lookup)
      #expect(
        lookup.result(at: 0)
          == .failure(ResolutionError(host: "wled.local", reason: reason, message: message)),
        "\(script)")
    }
  }

  @Test func aLookupThatTakesTooLongIsEndedAtItsDeadline() throws {
    let resolver = standIn("exec sleep 30", timeout: 2 * Self.second)
    let start = 50 * Self.second
    let lookup = try resolver.lookUp("slow.example", at: start)
    defer { lookup.cancel() }
    let child = try #require(lookup.processID)
    #expect(lookup.result(at: start) == nil)
    #expect(lookup.result(at: lookup.deadline - 1) == nil)
    #expect(lookup.isRunning)
    let outcome = lookup.result(at: lookup.deadline)
    #expect(
      outcome
        == .failure(
          ResolutionError(host: "slow.example", reason: .timedOut, message: "no answer within 2 s"))
    )
    // Killed and reaped: no zombie is left.
    #expect(!lookup.isRunning)
    #expect(!FileSystem.fileExists("/proc/\(child)"))
    // The answer stays what it was.
    #expect(lookup.result(at: lookup.deadline + Self.second) == outcome)
  }

  @Test func aCancelledLookupEndsItsChild() throws {
    let lookup = try standIn("exec sleep 30").lookUp("slow.example", at: 0)
    let child = try #require(lookup.processID)
    lookup.cancel()
    #expect(!lookup.isRunning)
    #expect(!FileSystem.fileExists("/proc/\(child)"))
    #expect(lookup.result(at: 0) == nil)
  }

  @Test func aNameThatCannotBeOneFailsWithoutAChild() throws {
    let resolver = standIn("echo 'address 192.0.2.1'")
    for (host, message) in [
      ("", "no name given"),
      ("wled\nlocal", "a host name has no spaces or control characters"),
      (String(repeating: "a", count: 254), "a host name has at most 253 characters"),
    ] {
      let lookup = try resolver.lookUp(host, at: 0)
      defer { lookup.cancel() }
      #expect(lookup.processID == nil)
      // Its descriptor is readable at once, like any finished lookup's.
      try waitForAnswer(lookup)
      #expect(
        lookup.result(at: 0)
          == .failure(ResolutionError(host: host, reason: .unknownHost, message: message)))
    }
  }

  @Test func aProgramThatIsNotThereCannotStartALookup() throws {
    let resolver = AddressResolver(command: ["/nonexistent/wodclockd", "--resolve"])
    let error = #expect(throws: SystemError.self) { try resolver.lookUp("wled.local", at: 0) }
    #expect(error?.errno == .noSuchFile)
  }
}
