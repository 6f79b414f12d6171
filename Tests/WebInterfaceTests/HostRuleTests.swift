// SPDX-License-Identifier: MIT
// The Host rule: any IP literal with or without a port, the clock's names in any case and with
// a final dot, and nothing else (a page that rebinds its own DNS name to the clock).

import Testing
import WebInterface

@Suite("Host rule")
struct HostRuleTests {
  static let rule = WebHostRule(names: ["gym-pi", "gym-pi.local", "Clock.Gym.LAN."])

  @Test(
    "taken: IP literals, the names, localhost",
    arguments: [
      "127.0.0.1", "127.0.0.1:8080", "192.168.1.20:80", "[::1]", "[::1]:8080",
      "[fd00::20]:8080", "[::ffff:192.168.1.20]:8080", "gym-pi", "GYM-PI:8080", "gym-pi.local.",
      "clock.gym.lan:8080", "localhost:8080", " gym-pi ",
    ])
  func taken(host: String) {
    #expect(Self.rule.accepts(host))
  }

  @Test(
    "refused: other names, names that look like literals, malformed ports",
    arguments: [
      "evil.example", "evil.example:8080", "gym-pi.evil.example", "127.0.0.1.nip.io",
      "1.2.3", "1.2.3.4.5", "256.1.1.1", "[evil.example]", "[::1]x", "[::1]:", "gym-pi:",
      "gym-pi:80:80", "gym-pi:123456", "", ":8080", "[]",
    ])
  func refused(host: String) {
    #expect(!Self.rule.accepts(host))
  }

  @Test("no Host at all is not a browser: taken")
  func absent() {
    #expect(Self.rule.accepts(nil))
    #expect(WebHostRule(names: []).accepts("localhost"))
    #expect(!WebHostRule(names: []).accepts("gym-pi"))
  }

  @Test("the 421 says which name, and what to do")
  func error() {
    let error = WebError.wrongHost("evil.example")
    #expect(error.status == 421)
    #expect(error.code == "wrong_host")
    #expect(error.message.contains("'evil.example'"))
    #expect(error.hint?.contains("hosts:") == true)
  }
}
