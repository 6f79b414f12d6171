// SPDX-License-Identifier: MIT
// PWMChannel against a temporary directory tree laid out like /sys/class/pwm (the test
// support's FakePWMTree): what is written, in which order, and when not.

import HardwareKit
import Testing
import WodclockTestSupport

/// The writes a channel made, as `attribute=value`.
final class WriteLog {
  var entries: [String] = []
  func record(_ attribute: String, _ value: String) { entries.append("\(attribute)=\(value)") }
  func take() -> [String] {
    defer { entries = [] }
    return entries
  }
}

@Suite struct PWMChannelTests {
  @Test func exportsThenPeriodDutyAndEnableLastWritingOnlyChanges() throws {
    let tree = try FakePWMTree()
    defer { tree.remove() }
    let log = WriteLog()
    var waits = 0
    // The "kernel" creates pwm0/ when the channel waits for it after the export.
    let pwm = PWMChannel(
      chip: 0, channel: 0, root: tree.root,
      wait: { _ in
        waits += 1
        if waits == 1 { try? tree.addChannel(0) }
      }, trace: log.record)
    try pwm.open()
    #expect(log.take() == ["export=0"])
    #expect(try tree.read("export") == "0\n")
    #expect(waits == 1)

    try pwm.set(periodNanoseconds: 1_000_000, dutyNanoseconds: 250_000)
    #expect(log.take() == ["pwm0/period=1000000", "pwm0/duty_cycle=250000", "pwm0/enable=1"])
    #expect(try tree.read("pwm0/period") == "1000000\n")
    #expect(try tree.read("pwm0/duty_cycle") == "250000\n")
    #expect(try tree.read("pwm0/enable") == "1\n")

    try pwm.set(periodNanoseconds: 1_000_000, dutyNanoseconds: 250_000)
    #expect(log.take().isEmpty)
    try pwm.set(periodNanoseconds: 1_000_000, dutyNanoseconds: 2_000_000)
    #expect(log.take() == ["pwm0/duty_cycle=1000000"])  // clamped to the period

    // A shorter period than the duty cycle: the kernel would refuse it, so the duty goes first.
    try pwm.set(periodNanoseconds: 500_000, dutyNanoseconds: 100_000)
    #expect(log.take() == ["pwm0/duty_cycle=0", "pwm0/period=500000", "pwm0/duty_cycle=100000"])

    pwm.close()
    #expect(log.take() == ["pwm0/enable=0", "unexport=0"])
    #expect(try tree.read("pwm0/enable") == "0\n")
    #expect(try tree.read("unexport") == "0\n")
    pwm.close()
    #expect(log.take().isEmpty)
  }

  @Test func aChannelLeftExportedIsTakenOverAndSetToNormalPolarity() throws {
    let tree = try FakePWMTree()
    defer { tree.remove() }
    // Left running, inversed, by something else (or a crashed run).
    try tree.addChannel(1, polarity: "inversed", enabled: true)
    let log = WriteLog()
    let pwm = PWMChannel(
      chip: 0, channel: 1, root: tree.root, wait: { _ in Issue.record("no wait needed") },
      trace: log.record)
    try pwm.open()
    #expect(log.take() == ["pwm1/enable=0", "pwm1/polarity=normal"])
    // The period file already holds 0 and enable 0 was just written: the first set writes the
    // period, the duty cycle only if it differs from the file's 0, and enable.
    try pwm.set(periodNanoseconds: 1_000_000, dutyNanoseconds: 0)
    #expect(log.take() == ["pwm1/period=1000000", "pwm1/enable=1"])
    pwm.close()
    #expect(log.take() == ["pwm1/enable=0", "unexport=1"])
  }

  @Test func aMissingControllerNamesTheOverlay() throws {
    let tree = try FakePWMTree()
    defer { tree.remove() }
    let pwm = PWMChannel(chip: 3, channel: 0, root: tree.root, wait: { _ in })
    #expect {
      try pwm.open()
    } throws: { error in
      let text = (error as? SystemError)?.description ?? ""
      return text.contains("pwmchip3") && text.contains("No such file")
        && text.contains("hint: no such PWM controller") && text.contains("dtoverlay=pwm-2chan")
    }
  }

  @Test func aChannelBeyondTheControllerIsRefusedBeforeExporting() throws {
    let tree = try FakePWMTree(channels: 2)
    defer { tree.remove() }
    let log = WriteLog()
    let pwm = PWMChannel(chip: 0, channel: 2, root: tree.root, wait: { _ in }, trace: log.record)
    #expect {
      try pwm.open()
    } throws: { error in
      (error as? SystemError)?.hint == "pwmchip0 has 2 channels, 0 to 1"
    }
    #expect(log.entries.isEmpty)
  }

  @Test func aFailedWriteNamesTheFileAndTheRemedy() throws {
    let tree = try FakePWMTree()
    defer { tree.remove() }
    // No export file: what the kernel's EACCES would look like is covered by the hint table;
    // here the file is missing, which reads as a vanished channel.
    _ = try FileSystem.removeFile(tree.chip + "/export")
    let pwm = PWMChannel(chip: 0, channel: 0, root: tree.root, wait: { _ in })
    #expect {
      try pwm.open()
    } throws: { error in
      let text = (error as? SystemError)?.description ?? ""
      return text.hasPrefix("write 0 to \(tree.chip)/export: ")
    }
  }
}
