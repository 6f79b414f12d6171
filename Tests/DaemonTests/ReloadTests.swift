// SPDX-License-Identifier: MIT
// SIGHUP to the real binary: a bad file changes nothing. A good reload with a running workout
// is tested on manual time (ShellTests).

import HardwareKit
import JSONKit
import Testing

@Suite(.serialized) struct ReloadTests {
  @Test func aBrokenConfigKeepsTheOldOneRunning() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try daemon.start()
    _ = try daemon.request(["cmd": "start"])
    try daemon.writeConfig(testConfig.replacingFirst("rounds: 6", with: "rouds: 6"))
    try daemon.signal(.hangup)
    #expect(eventually { daemon.log.contains("reload failed") || daemon.log.contains("error: ") })
    #expect(daemon.log.contains("unknown key 'rouds'"))
    #expect(daemon.log.contains("did you mean 'rounds'?"))
    let status = try daemon.status()
    #expect(status["state"]?.stringValue == "running")
    #expect(status["rounds"]?.intValue == 6)
    // The control command reports the same failure.
    let reply = try daemon.request(["cmd": "reload"])
    #expect(reply["ok"] == false)
    #expect(reply["error"]?["code"]?.stringValue == "config_invalid")
  }
}

extension String {
  /// The text with the first occurrence of `target` replaced (no Foundation in this project).
  func replacingFirst(_ target: String, with replacement: String) -> String {
    let text = Array(utf8)
    let pattern = Array(target.utf8)
    guard !pattern.isEmpty, text.count >= pattern.count else { return self }
    for start in 0...(text.count - pattern.count)
    where Array(text[start..<start + pattern.count]) == pattern {
      let result =
        Array(text[..<start]) + Array(replacement.utf8) + Array(text[(start + pattern.count)...])
      return String(decoding: result, as: UTF8.self)
    }
    return self
  }
}
