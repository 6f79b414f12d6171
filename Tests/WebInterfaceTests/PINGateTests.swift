// SPDX-License-Identifier: MIT
// The PIN throttle on manual time: three free guesses, then 2, 4, 8 ... s after the last wrong
// one up to a minute, early attempts not counted, a right PIN or an hour resetting the
// client, the budget shared by clients that failed (never by a new one), IPv6 /64 grouping,
// a flood that does not lock the coach out, the bound on a guesser, and on the table.

import Testing
import WebInterface
import WodclockTestSupport

@Suite("PIN gate")
struct PINGateTests {
  static let second: Int64 = 1_000_000_000
  static let start = origin

  static func seconds(_ value: Double) -> Int64 { start + Int64(value * 1e9) }
  static func ipv4(_ third: UInt8, _ fourth: Int) -> PINClient {
    PINClient(addressBytes: [10, 0, third, UInt8(fourth)])
  }
  static let a = ipv4(0, 5)
  static let b = ipv4(0, 6)

  @Test("the right PIN is granted, a wrong one counted")
  func rightAndWrong() {
    var gate = PINGate(pin: "4821")
    #expect(gate.attempt("4821", from: Self.a, at: Self.seconds(0)) == .granted)
    #expect(gate.attempt("4822", from: Self.a, at: Self.seconds(1)) == .wrong(count: 1))
    #expect(gate.attempt("48211", from: Self.a, at: Self.seconds(2)) == .wrong(count: 2))
    #expect(gate.attempt("", from: Self.a, at: Self.seconds(3)) == .wrong(count: 3))
    #expect(PINAttempt.wrong(count: 1).error?.code == "wrong_pin")
    #expect(PINAttempt.wrong(count: 1).error?.status == 401)
  }

  @Test("three wrong PINs are free, then each attempt waits 2, 4, 8 ... s, at most 60 s")
  func backoff() {
    var gate = PINGate(pin: "4821")
    var now = Self.seconds(0)
    for count in 1...3 {
      #expect(gate.attempt("0000", from: Self.a, at: now) == .wrong(count: count))
      now += 1  // one nanosecond later: no wait yet
    }
    // After the third: 2 s, then 4, 8, 16, 32, then the cap of 60.
    var last = now - 1
    for (count, wait) in [(4, 2), (5, 4), (6, 8), (7, 16), (8, 32), (9, 60), (10, 60), (11, 60)] {
      let early = gate.attempt("0000", from: Self.a, at: last + Int64(wait) * Self.second - 1)
      #expect(early == .throttled(retryAfter: 1), "attempt \(count) just too early")
      let halfway = gate.attempt("0000", from: Self.a, at: last + Int64(wait) * Self.second / 2)
      #expect(halfway == .throttled(retryAfter: (wait + 1) / 2), "attempt \(count) halfway")
      last += Int64(wait) * Self.second
      #expect(gate.attempt("0000", from: Self.a, at: last) == .wrong(count: count))
    }
    #expect(PINAttempt.throttled(retryAfter: 7).error?.status == 429)
    #expect(
      PINAttempt.throttled(retryAfter: 7).error?.headers == [WebHeader("Retry-After", "7")])
  }

  @Test("an attempt too early does not count, even the right PIN, and never lengthens the wait")
  func earlyAttemptsDoNotCount() {
    var gate = PINGate(pin: "4821")
    for count in 1...3 {
      #expect(gate.attempt("1111", from: Self.a, at: Self.seconds(0)) == .wrong(count: count))
    }
    for tenth in 1...19 {
      #expect(
        gate.attempt(
          tenth.isMultiple(of: 2) ? "4821" : "1", from: Self.a, at: Self.seconds(Double(tenth) / 10)
        )
          == .throttled(retryAfter: tenth < 10 ? 2 : 1), "\(tenth)")
    }
    // Still the fourth attempt, still 2 s after the third wrong PIN.
    #expect(gate.attempt("1111", from: Self.a, at: Self.seconds(2)) == .wrong(count: 4))
  }

  @Test("an address's wrong PINs are forgiven an hour after the last one, not before")
  func forgiveness() {
    var gate = PINGate(pin: "4821")
    for count in 1...5 {
      let at = Self.seconds(Double(count) * 100)
      #expect(gate.attempt("0000", from: Self.a, at: at) == .wrong(count: count))
    }
    let last = Self.seconds(500)
    let hour = 3600 * Self.second
    #expect(gate.attempt("0000", from: Self.a, at: last + hour - 1) == .wrong(count: 6))
    let next = last + hour - 1
    #expect(gate.attempt("0000", from: Self.a, at: next + hour) == .wrong(count: 1))
    #expect(gate.rememberedCount == 1)
  }

  @Test("a right PIN resets the address; other addresses are counted apart")
  func resetOnSuccess() {
    var gate = PINGate(pin: "4821")
    for count in 1...4 {
      #expect(
        gate.attempt("9", from: Self.a, at: Self.seconds(Double(count * 10)))
          == .wrong(count: count))
    }
    #expect(gate.attempt("9", from: Self.b, at: Self.seconds(41)) == .wrong(count: 1))
    #expect(gate.attempt("4821", from: Self.a, at: Self.seconds(50)) == .granted)
    #expect(gate.attempt("9", from: Self.a, at: Self.seconds(50)) == .wrong(count: 1))
    #expect(gate.attempt("9", from: Self.b, at: Self.seconds(50)) == .wrong(count: 2))
    #expect(gate.rememberedCount == 2)
  }

  @Test("a client with a wrong PIN shares a budget of 10 a minute; a new one is checked at once")
  func sharedBudget() {
    var gate = PINGate(pin: "4821")
    // Ten clients fail once each: the budget of the minute is spent.
    for index in 0..<10 {
      #expect(
        gate.attempt("0", from: Self.ipv4(1, index), at: Self.seconds(Double(index)))
          == .wrong(count: 1))
    }
    // A client that failed waits for the minute of the oldest of them, even with the right PIN.
    #expect(
      gate.attempt("0", from: Self.ipv4(1, 0), at: Self.seconds(30)) == .throttled(retryAfter: 30))
    #expect(
      gate.attempt("4821", from: Self.ipv4(1, 1), at: Self.seconds(59.5))
        == .throttled(retryAfter: 1))
    // A client with nothing on record is checked at once: its wrong PIN counts, its right one
    // gets in.
    #expect(gate.attempt("0", from: Self.ipv4(2, 1), at: Self.seconds(30)) == .wrong(count: 1))
    #expect(gate.attempt("4821", from: Self.ipv4(2, 2), at: Self.seconds(30)) == .granted)
    // The wrong PIN at 30 s is now among the latest ten: the one at 1 s leaves at 61 s.
    #expect(
      gate.attempt("0", from: Self.ipv4(1, 0), at: Self.seconds(60)) == .throttled(retryAfter: 1))
    #expect(gate.attempt("4821", from: Self.ipv4(1, 1), at: Self.seconds(61)) == .granted)
  }

  @Test(
    "a flood of wrong PINs from a thousand addresses never refuses the right PIN from a new one")
  func floodDoesNotLockTheCoachOut() {
    var gate = PINGate(pin: "482193")
    var now = Self.seconds(0)
    var refusedRight = 0
    // Twenty minutes of guesses from 200 addresses, each trying again as soon as it may, with
    // the coach signing in from a fresh address every minute.
    for tick in 0..<1200 {
      for index in 0..<200 where (tick + index) % 10 == 0 {
        _ = gate.attempt(String(100_000 + tick * 200 + index), from: Self.ipv4(3, index), at: now)
      }
      if tick % 60 == 0 {
        let coach = Self.ipv4(4, tick / 60)
        if gate.attempt("482193", from: coach, at: now) != .granted { refusedRight += 1 }
      }
      now += Self.second
    }
    #expect(refusedRight == 0)
  }

  @Test("a guesser with many addresses gets the shared budget and one guess per new address")
  func bruteForceStaysBounded() {
    var gate = PINGate(pin: "482193")
    var checked = 0
    var now = Self.seconds(0)
    // An hour of 1500 addresses (more than the table holds), each guessing every 10 s.
    for _ in 0..<360 {
      for index in 0..<1500 {
        let client = Self.ipv4(UInt8(index / 250), index % 250)
        if case .wrong = gate.attempt("000000", from: client, at: now) { checked += 1 }
      }
      now += 10 * Self.second
    }
    // 10 a minute shared, plus one free check for each client while the table had room.
    #expect(checked <= 60 * PINGate.wrongPerMinute + PINGate.rememberedClients + 10)
    #expect(gate.rememberedCount <= PINGate.rememberedClients)
  }

  @Test("IPv6 clients are counted per /64, IPv4 ones per address, a mapped IPv4 as IPv4")
  func grouping() {
    var gate = PINGate(pin: "4821")
    let network: [UInt8] = [0xFD, 0, 0, 0, 0, 0, 0, 1]
    for count in 1...3 {
      // A new interface identifier for every guess: still the same client.
      let address = network + [0, 0, 0, 0, 0, 0, 0, UInt8(count)]
      #expect(
        gate.attempt("0", from: PINClient(addressBytes: address), at: Self.seconds(Double(count)))
          == .wrong(count: count))
    }
    let other = network + [0xAB, 0, 0, 0, 0, 0, 0, 9]
    #expect(
      gate.attempt("0", from: PINClient(addressBytes: other), at: Self.seconds(3.5))
        == .throttled(retryAfter: 2))
    #expect(PINClient(addressBytes: other).description == "fd00:0:0:1::/64")
    let mapped = PINClient(addressBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 0, 0, 5])
    #expect(mapped == PINClient(addressBytes: [10, 0, 0, 5]))
    #expect(mapped.description == "10.0.0.5")
    #expect(Self.ipv4(0, 5) != Self.ipv4(0, 6))
    #expect(PINClient(addressBytes: []).description == "unknown")
  }

  @Test("the table keeps at most 1024 clients: the one whose last wrong PIN is oldest goes")
  func boundedMemory() {
    var gate = PINGate(pin: "4821")
    // Each new client is checked once: the budget is spent by the first ten, the rest are new.
    for index in 0..<PINGate.rememberedClients {
      let client = Self.ipv4(UInt8(10 + index / 250), index % 250)
      #expect(gate.attempt("0", from: client, at: Self.seconds(Double(index))) == .wrong(count: 1))
    }
    #expect(gate.rememberedCount == PINGate.rememberedClients)
    // Full: a client it does not know shares the budget (spent: one wrong PIN a second).
    let late = Self.seconds(Double(PINGate.rememberedClients))
    #expect(gate.attempt("0", from: Self.ipv4(99, 1), at: late) == .throttled(retryAfter: 50))
    // Once the budget has room, its wrong PIN takes the place of the oldest client.
    #expect(
      gate.attempt("0", from: Self.ipv4(99, 1), at: late + 60 * Self.second) == .wrong(count: 1))
    #expect(gate.rememberedCount == PINGate.rememberedClients)
    #expect(
      gate.attempt("0", from: Self.ipv4(10, 0), at: late + 120 * Self.second) == .wrong(count: 1),
      "the oldest was forgotten")
  }

  @Test("the PIN is compared byte for byte, whatever the lengths")
  func comparison() {
    var gate = PINGate(pin: "000123")
    for (index, candidate) in ["123", "0001230", "000124", "000123 ", "００0123", "100123"]
      .enumerated()
    {
      #expect(
        gate.attempt(candidate, from: Self.ipv4(5, index), at: Self.seconds(Double(index) * 5))
          == .wrong(count: 1), "\(candidate)")
    }
    #expect(gate.attempt("000123", from: Self.ipv4(6, 1), at: Self.seconds(100)) == .granted)
  }
}
