// SPDX-License-Identifier: MIT
// The control socket is fair: a pipelined batch, a table full of idle clients or a long
// wake-up costs the other clients their answers and `stats` its figures nothing.

import Glibc
import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct ControlFairnessTests {
  @Test func statsCountAWakeUpThatCameLate() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    _ = try daemon.request(["cmd": "start"])
    func stats() throws -> JSONValue { try daemon.request(["cmd": "stats"]) }
    // The running workout wakes the loop every second, and those wake-ups are counted.
    #expect(try eventually { (try stats()["wake_lateness_us"]?["count"]?.intValue ?? 0) >= 1 })
    // Held for two seconds, as a long wake-up in a flood holds the loop, the daemon gets to a
    // deadline a second or more late: that wake-up must be counted, at its lateness.
    try daemon.signal(Signal(rawValue: SIGSTOP))
    pause(milliseconds: 2_000)
    try daemon.signal(Signal(rawValue: SIGCONT))
    let late = try stats()["wake_lateness_us"]
    #expect((late?["max"]?.doubleValue ?? 0) >= 500_000, "\(String(describing: late))")
  }
}
