// SPDX-License-Identifier: MIT
// The sd_notify conversation, received on a real datagram socket as systemd would.

import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct SystemdNotifyTests {
  @Test func readyStatusWatchdogReloadAndStoppingArriveInOrder() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let socket = try DatagramSocket(boundTo: daemon.directory + "/notify.sock")
    defer { socket.close() }
    var messages: [String] = []
    func drain() throws {
      while let datagram = try socket.receive() {
        messages.append(String(decoding: datagram, as: UTF8.self))
      }
    }
    // A 200 ms watchdog: the daemon must ping every 100 ms.
    try daemon.start(
      environment: ["NOTIFY_SOCKET=\(socket.path)", "WATCHDOG_USEC=200000"])
    _ = try daemon.request(["cmd": "start"])
    pause(milliseconds: 700)
    try daemon.signal(.hangup)
    #expect(
      try eventually {
        try drain()
        return messages.contains { $0.hasPrefix("RELOADING=1") }
      })
    pause(milliseconds: 100)
    try daemon.signal(.terminate)
    #expect(try daemon.waitForExit() == .exited(0))
    try drain()

    #expect(messages.first?.hasPrefix("READY=1\nSTATUS=idle emom") == true)
    let watchdogs = messages.filter { $0 == "WATCHDOG=1" }.count
    #expect(watchdogs >= 5, "expected a ping every 100 ms, got \(watchdogs) in about 0.8 s")
    #expect(messages.contains { $0.hasPrefix("STATUS=running emom 0:0") })
    let reloading = messages.firstIndex { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }
    let readyAgain = messages.lastIndex { $0.hasPrefix("READY=1") }
    let stopping = messages.firstIndex { $0 == "STOPPING=1" }
    #expect(reloading != nil && readyAgain != nil && stopping != nil)
    if let reloading, let readyAgain, let stopping {
      #expect(reloading < readyAgain)
      #expect(readyAgain < stopping)
      #expect(
        stopping == messages.count - 1
          || !messages[(stopping + 1)...].contains { $0.hasPrefix("READY") })
    }
  }
}
