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
    // A Unix datagram socket queues only a few messages (net.unix.max_dgram_qlen, 10 by
    // default); systemd reads them as they come, so the test does too.
    func drain() throws {
      while let datagram = try socket.receive() {
        messages.append(String(decoding: datagram, as: UTF8.self))
      }
    }
    func arrived(_ wanted: (String) -> Bool) throws -> Bool {
      try eventually {
        try drain()
        return messages.contains(where: wanted)
      }
    }
    // A 200 ms watchdog: the daemon must ping every 100 ms (how often exactly is tested on
    // manual time, ShellTests). Here: the real binary, its environment and a real socket.
    try daemon.start(
      environment: ["NOTIFY_SOCKET=\(socket.path)", "WATCHDOG_USEC=200000"])
    #expect(try arrived { $0 == "WATCHDOG=1" })
    _ = try daemon.request(["cmd": "start"])
    #expect(try arrived { $0 == "STATUS=running emom 0:09 R 1/6" })
    try daemon.signal(.hangup)
    #expect(try arrived { $0.hasPrefix("RELOADING=1") })
    #expect(
      try eventually {
        try drain()
        return messages.filter { $0.hasPrefix("READY=1") }.count == 2
      })
    try daemon.signal(.terminate)
    #expect(try daemon.waitForExit() == .exited(0))
    try drain()

    #expect(messages.first?.hasPrefix("READY=1\nSTATUS=idle emom") == true)
    #expect(messages.contains { $0 == "STATUS=running emom 0:10 R 1/6" })
    #expect(messages.contains { $0 == "STATUS=running emom 0:09 R 1/6" })
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
