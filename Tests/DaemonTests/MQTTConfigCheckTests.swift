// SPDX-License-Identifier: MIT
// The mqtt section's files with the real binary: `wodclockd --check-config` reads the password
// and CA files beside the config file, as the daemon will, and says what is wrong with them at
// their keys (exit 78 for errors; a password others can read is a warning, exit 0).

import Glibc
import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct MQTTConfigCheckTests {
  static let config =
    testConfig + """

      mqtt:
        broker: localhost
        username: front-clock
        password_file: mqtt-password
        tls: {ca_file: certs/gym-ca.pem}

      """
  static let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

  func check(_ daemon: DaemonHarness) throws -> (status: Int32, output: String, error: String) {
    try run(binaryDirectory + "/wodclockd", ["--check-config", daemon.configPath])
  }

  @Test func theCheckReadsThePasswordAndCAFilesBesideTheConfigFile() throws {
    let daemon = try DaemonHarness(config: Self.config)
    let passwordPath = daemon.directory + "/mqtt-password"
    let caPath = daemon.directory + "/certs/gym-ca.pem"
    let missing = try check(daemon)
    #expect(missing.status == 78)
    #expect(
      missing.error.contains(
        "wodclock.yaml:17:18: error: cannot read the password file '\(passwordPath)': no such "
          + "file or directory (ENOENT)"), "\(missing.error)")
    #expect(
      missing.error.contains(
        "wodclock.yaml:18:18: error: cannot read the CA file '\(caPath)': no such file or "
          + "directory (ENOENT)"), "\(missing.error)")
    #expect(
      missing.error.contains("hint: a relative path is read from the config file's directory"))

    // Readable by others: ssh's rule, a warning; the clock still starts.
    try FileSystem.writeFileAtomically(passwordPath, text: "s3cret\n", mode: 0o644)
    try FileSystem.makeDirectories(daemon.directory + "/certs")
    try FileSystem.writeFileAtomically(caPath, text: Self.certificate)
    let open = try check(daemon)
    #expect(open.status == 0, "\(open.error)")
    #expect(open.output.hasPrefix("ok: "))
    #expect(
      open.error.contains(
        "wodclock.yaml:17:18: warning: the password file '\(passwordPath)' can be read by others "
          + "(mode 0644)"), "\(open.error)")

    // Through a link, the mode is the file's, not the link's 0777.
    let target = daemon.directory + "/password-0600"
    try FileSystem.writeFileAtomically(target, text: "s3cret\n", mode: 0o600)
    _ = try FileSystem.removeFile(passwordPath)
    #expect(symlink(target, passwordPath) == 0)
    let linked = try check(daemon)
    #expect(linked.status == 0 && linked.error.isEmpty, "\(linked.error)")

    try FileSystem.writeFileAtomically(target, text: "", mode: 0o600)
    let empty = try check(daemon)
    #expect(empty.status == 78)
    #expect(
      empty.error.contains(
        "wodclock.yaml:17:18: error: the password file '\(passwordPath)' is empty"),
      "\(empty.error)")
  }
}
