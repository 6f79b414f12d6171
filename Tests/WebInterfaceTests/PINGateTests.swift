// SPDX-License-Identifier: MIT
// The PIN throttle on manual time: three free guesses, then 2, 4, 8 ... s after the last wrong
// one up to a minute, early attempts not counted, a right PIN or an hour resetting the
// address, the cap across all addresses, and the bound on the addresses remembered.

import Testing
import WebInterface
import WodclockTestSupport

@Suite("PIN gate")
struct PINGateTests {
  static let second: Int64 = 1_000_000_000
  static let start = origin

  static func seconds(_ value: Double) -> Int64 { start + Int64(value * 1e9) }

  @Test("the right PIN is granted, a wrong one counted")
  func rightAndWrong() {
    var gate = PINGate(pin: "4821")
    #expect(gate.attempt("4821", from: "10.0.0.5", at: Self.seconds(0)) == .granted)
    #expect(gate.attempt("4822", from: "10.0.0.5", at: Self.seconds(1)) == .wrong(count: 1))
    #expect(gate.attempt("48211", from: "10.0.0.5", at: Self.seconds(2)) == .wrong(count: 2))
    #expect(gate.attempt("", from: "10.0.0.5", at: Self.seconds(3)) == .wrong(count: 3))
    #expect(PINAttempt.wrong(count: 1).error?.code == "wrong_pin")
    #expect(PINAttempt.wrong(count: 1).error?.status == 401)
  }

  @Test("three wrong PINs are free, then each attempt waits 2, 4, 8 ... s, at most 60 s")
  func backoff() {
    var gate = PINGate(pin: "4821")
    var now = Self.seconds(0)
    for count in 1...3 {
      #expect(gate.attempt("0000", from: "10.0.0.5", at: now) == .wrong(count: count))
      now += 1  // one nanosecond later: no wait yet
    }
    // After the third: 2 s, then 4, 8, 16, 32, then the cap of 60.
    var last = now - 1
    for (count, wait) in [(4, 2), (5, 4), (6, 8), (7, 16), (8, 32), (9, 60), (10, 60), (11, 60)] {
      let early = gate.attempt("0000", from: "10.0.0.5", at: last + Int64(wait) * Self.second - 1)
      #expect(early == .throttled(retryAfter: 1), "attempt \(count) just too early")
      let halfway = gate.attempt("0000", from: "10.0.0.5", at: last + Int64(wait) * Self.second / 2)
      #expect(halfway == .throttled(retryAfter: (wait + 1) / 2), "attempt \(count) halfway")
      last += Int64(wait) * Self.second
      #expect(gate.attempt("0000", from: "10.0.0.5", at: last) == .wrong(count: count))
    }
    #expect(PINAttempt.throttled(retryAfter: 7).error?.status == 429)
    #expect(
      PINAttempt.throttled(retryAfter: 7).error?.headers == [WebHeader("Retry-After", "7")])
  }

  @Test("an attempt too early does not count, even the right PIN, and never lengthens the wait")
  func earlyAttemptsDoNotCount() {
    var gate = PINGate(pin: "4821")
    for count in 1...3 {
      #expect(gate.attempt("1111", from: "a", at: Self.seconds(0)) == .wrong(count: count))
    }
    for tenth in 1...19 {
      #expect(
        gate.attempt(
          tenth.isMultiple(of: 2) ? "4821" : "1", from: "a", at: Self.seconds(Double(tenth) / 10))
          == .throttled(retryAfter: tenth < 10 ? 2 : 1), "\(tenth)")
    }
    // Still the fourth attempt, still 2 s after the third wrong PIN.
    #expect(gate.attempt("1111", from: "a", at: Self.seconds(2)) == .wrong(count: 4))
  }

  @Test("an address's wrong PINs are forgiven an hour after the last one, not before")
  func forgiveness() {
    var gate = PINGate(pin: "4821")
    for count in 1...5 {
      let at = Self.seconds(Double(count) * 100)
      #expect(gate.attempt("0000", from: "10.0.0.5", at: at) == .wrong(count: count))
    }
    let last = Self.seconds(500)
    let hour = 3600 * Self.second
    #expect(gate.attempt("0000", from: "10.0.0.5", at: last + hour - 1) == .wrong(count: 6))
    let next = last + hour - 1
    #expect(gate.attempt("0000", from: "10.0.0.5", at: next + hour) == .wrong(count: 1))
    #expect(gate.rememberedCount == 1)
  }

  @Test("a right PIN resets the address; other addresses are counted apart")
  func resetOnSuccess() {
    var gate = PINGate(pin: "4821")
    for count in 1...4 {
      #expect(
        gate.attempt("9", from: "a", at: Self.seconds(Double(count * 10))) == .wrong(count: count))
    }
    #expect(gate.attempt("9", from: "b", at: Self.seconds(41)) == .wrong(count: 1))
    #expect(gate.attempt("4821", from: "a", at: Self.seconds(50)) == .granted)
    #expect(gate.attempt("9", from: "a", at: Self.seconds(50)) == .wrong(count: 1))
    #expect(gate.attempt("9", from: "b", at: Self.seconds(50)) == .wrong(count: 2))
    #expect(gate.rememberedCount == 2)
  }

  @Test("at most 20 wrong PINs a minute across all addresses; a right one waits too")
  func globalCap() {
    var gate = PINGate(pin: "4821")
    for index in 0..<20 {
      #expect(
        gate.attempt("0", from: "10.0.1.\(index)", at: Self.seconds(Double(index)))
          == .wrong(count: 1))
    }
    // The first of the twenty was at 0 s: nothing more until 60 s, from anyone.
    #expect(gate.attempt("0", from: "10.0.2.1", at: Self.seconds(30)) == .throttled(retryAfter: 30))
    #expect(
      gate.attempt("4821", from: "10.0.2.2", at: Self.seconds(59.5)) == .throttled(retryAfter: 1))
    #expect(gate.attempt("0", from: "10.0.2.1", at: Self.seconds(60)) == .wrong(count: 1))
    // Now the oldest of the last twenty is the one at 1 s.
    #expect(
      gate.attempt("0", from: "10.0.2.3", at: Self.seconds(60.5)) == .throttled(retryAfter: 1))
    #expect(gate.attempt("4821", from: "10.0.2.2", at: Self.seconds(61)) == .granted)
  }

  @Test("at most 256 addresses are remembered: the one whose last wrong PIN is oldest goes")
  func boundedMemory() {
    var gate = PINGate(pin: "4821")
    // Spaced more than 3 s apart, so the global cap does not get in the way.
    func time(_ index: Int) -> Int64 { Self.seconds(100 + Double(index) * 3.2) }
    for count in 1...3 { _ = gate.attempt("0", from: "first", at: Self.seconds(Double(count))) }
    for index in 1...300 {
      #expect(gate.attempt("0", from: "host-\(index)", at: time(index)) == .wrong(count: 1))
      #expect(gate.rememberedCount <= PINGate.rememberedAddresses)
    }
    #expect(gate.rememberedCount == 256)
    // "first" was forgotten: its three wrong PINs no longer count.
    #expect(gate.attempt("0", from: "first", at: time(301)) == .wrong(count: 1))
    // The most recent ones are still known.
    #expect(gate.attempt("0", from: "host-300", at: time(302)) == .wrong(count: 2))
  }

  @Test("the PIN is compared byte for byte, whatever the lengths")
  func comparison() {
    var gate = PINGate(pin: "000123")
    for (index, candidate) in ["123", "0001230", "000124", "000123 ", "００0123", "100123"]
      .enumerated()
    {
      #expect(
        gate.attempt(candidate, from: "\(index)", at: Self.seconds(Double(index) * 5))
          == .wrong(count: 1), "\(candidate)")
    }
    #expect(gate.attempt("000123", from: "z", at: Self.seconds(100)) == .granted)
  }
}
