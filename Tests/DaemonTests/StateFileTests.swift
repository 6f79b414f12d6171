// SPDX-License-Identifier: MIT
// The state directory's files against power cuts, a full disk and files that are not what they
// seem: nothing finished is lost, nothing outside the directory is touched.

import Glibc
import HardwareKit
import JSONKit
import Testing
import WodclockTestSupport

@Suite(.serialized) struct StateFileTests {
  /// A history line as the daemon writes it, `preset` padded to make the line as long as needed.
  private static func historyLine(preset: String = "emom", activeSeconds: String = "12.5")
    -> String
  {
    "{\"preset\":\"\(preset)\",\"mode\":\"emom\",\"ended_at\":1700000000,"
      + "\"active_s\":\(activeSeconds),\"outcome\":\"stopped\",\"laps\":0}"
  }

  private func history(_ daemon: DaemonHarness) throws -> [JSONValue] {
    try daemon.request(["cmd": "history"])["history"]?.arrayValue ?? []
  }

  /// Starts and finishes the default EMOM: one history entry.
  private func finishAWorkout(_ daemon: DaemonHarness) throws {
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)
    #expect(try daemon.request(["cmd": "finish"])["ok"]?.boolValue == true)
  }

  @Test func aTornLastHistoryLineDoesNotSwallowTheNextWorkout() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try FileSystem.makeDirectories(daemon.stateDirectory)
    let path = daemon.stateDirectory + "/history.jsonl"
    // A power cut in the middle of an append: the last line lacks its end and its newline.
    let torn = String(Self.historyLine().prefix(40))
    try FileSystem.writeFileAtomically(path, text: Self.historyLine() + "\n" + torn)
    try daemon.start()
    try finishAWorkout(daemon)
    let entries = try history(daemon)
    #expect(entries.count == 2)
    #expect(entries.last?["outcome"]?.stringValue == "stopped")
    let lines = try FileSystem.readTextFile(path).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1] == torn[...])
  }

  @Test func theHistoryIsNotAppendedThroughASymbolicLink() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try FileSystem.makeDirectories(daemon.stateDirectory)
    let elsewhere = daemon.directory + "/elsewhere"
    try FileSystem.writeFileAtomically(elsewhere, text: "not the daemon's\n")
    #expect(symlink(elsewhere, daemon.stateDirectory + "/history.jsonl") == 0)
    try daemon.start()
    try finishAWorkout(daemon)
    #expect(try FileSystem.readTextFile(elsewhere) == "not the daemon's\n")
    #expect(try history(daemon).isEmpty)
    #expect(daemon.log.contains("cannot append to the history"))
    #expect(daemon.log.contains("symbolic link"))
  }

  @Test func aSymbolicLinkInPlaceOfTheStateFileIsMovedAside() throws {
    let daemon = try DaemonHarness(config: testConfig)
    // A real saved state, moved elsewhere and linked back.
    try crash(daemon, running: "emom") { _ in }
    let path = daemon.stateDirectory + "/state.json"
    let elsewhere = daemon.directory + "/elsewhere.json"
    #expect(rename(path, elsewhere) == 0)
    #expect(symlink(elsewhere, path) == 0)
    let saved = try FileSystem.readTextFile(elsewhere)
    try daemon.start()
    #expect(try daemon.status()["state"]?.stringValue == "idle")
    #expect(daemon.log.contains("moved aside, starting idle"))
    let names = try FileSystem.directoryEntries(daemon.stateDirectory)
    let moved = try #require(names.first { $0.hasPrefix("state.json.corrupt-") })
    #expect(try FileSystem.attributes(daemon.stateDirectory + "/" + moved).kind == .symbolicLink)
    #expect(try FileSystem.readTextFile(elsewhere) == saved)
  }

  @Test func historyLinesWithImpossibleNumbersAreSkipped() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try FileSystem.makeDirectories(daemon.stateDirectory)
    let lines = [
      Self.historyLine(preset: "kept"),
      Self.historyLine(preset: "huge", activeSeconds: "1e300"),
      Self.historyLine(preset: "negative", activeSeconds: "-5"),
      Self.historyLine(preset: "tension").replacingLast(
        "}", with: ",\"time_under_tension_s\":1e300}"),
      Self.historyLine(preset: "ended").replacingLast(
        "1700000000", with: String(Int64.max)),
    ]
    try FileSystem.writeFileAtomically(
      daemon.stateDirectory + "/history.jsonl", text: lines.joined(separator: "\n") + "\n")
    try daemon.start()
    let printed = try daemon.ctl(["history"])
    #expect(printed.status == 0)
    #expect(printed.output.contains("kept"))
    #expect(printed.output.split(separator: "\n").count == 1)
  }

  @Test func aFullLapTallyRefusesTheNextLap() throws {
    let daemon = try DaemonHarness(config: testConfig)
    try crash(daemon, running: "amrap") { file in
      editEngineState(&file) { $0["laps"] = .array(Array(repeating: 0, count: 999)) }
    }
    try daemon.start()
    #expect(try daemon.status()["laps"]?.intValue == 999)
    let reply = try daemon.request(["cmd": "lap"])
    #expect(reply["ok"]?.boolValue == false)
    #expect(reply["error"]?["code"]?.stringValue == "refused")
    #expect(reply["error"]?["message"]?.stringValue == "cannot lap: the tally is full at 999 laps")
    #expect(try daemon.status()["laps"]?.intValue == 999)
  }

  @Test(.enabled(if: geteuid() == 0, "mounting a small tmpfs needs root"))
  func workoutsFinishedOnAFullDiskAreWrittenOnceThereIsRoom() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let disk = try SmallTmpfs(at: daemon.stateDirectory, pages: 16)
    defer { withExtendedLifetime(daemon) { disk.unmount() } }
    let path = daemon.stateDirectory + "/history.jsonl"
    // An old entry that ends 6 bytes short of a page: the next line needs a page of its own.
    let padding = 4_090 - Self.historyLine(preset: "").utf8.count - 1
    try FileSystem.writeFileAtomically(
      path, text: Self.historyLine(preset: String(repeating: "x", count: padding)) + "\n")
    try daemon.start()
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)

    let filler = try disk.fill()
    #expect(try daemon.request(["cmd": "finish"])["ok"]?.boolValue == true)
    // The state that could not be saved took the older file with it; its page is filled too.
    let refiller = try disk.fill(name: "refiller")
    try finishAWorkout(daemon)
    #expect(try history(daemon).count == 1)
    // The failed appends left nothing behind.
    #expect(try FileSystem.attributes(path).size == 4_090)

    try FileSystem.removeFile(filler)
    try FileSystem.removeFile(refiller)
    #expect(try daemon.request(["cmd": "reset"])["ok"]?.boolValue == true)
    let entries = try history(daemon)
    #expect(entries.count == 3)
    #expect(entries.dropFirst().allSatisfy { $0["preset"]?.stringValue == "emom" })
    let lines = try FileSystem.readTextFile(path).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { (try? JSONValue.parse(String($0))) != nil })
    // One error for the outage and one line when it is over, not one for every retry.
    let log = daemon.log
    #expect(log.occurrences(of: "cannot append to the history") == 1)
    #expect(log.occurrences(of: "the history is written again") == 1)
    #expect(log.occurrences(of: "cannot save the workout state") == 1)
    #expect(log.occurrences(of: "the workout state is saved again") == 1)
  }
}

extension StateFileTests {
  @Test(.enabled(if: geteuid() == 0, "mounting a small tmpfs needs root"))
  func aStateThatCannotBeSavedLeavesNoOlderOneToRestore() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let disk = try SmallTmpfs(at: daemon.stateDirectory, pages: 16)
    defer { withExtendedLifetime(daemon) { disk.unmount() } }
    let path = daemon.stateDirectory + "/state.json"
    try daemon.start()
    #expect(try daemon.request(["cmd": "start"])["ok"]?.boolValue == true)
    #expect(try FileSystem.attributes(path).kind == .regularFile)

    let filler = try disk.fill()
    #expect(try daemon.request(["cmd": "finish"])["ok"]?.boolValue == true)
    #expect(throws: SystemError.self) { try FileSystem.attributes(path) }
    #expect(daemon.log.contains("the older one is removed"))
    try daemon.signal(.kill)
    try daemon.waitForExit()

    // Room again, and a restart: the finished workout does not come back as running.
    try FileSystem.removeFile(filler)
    try daemon.start()
    #expect(try daemon.status()["state"]?.stringValue == "idle")
  }
}

/// A tmpfs of a few pages mounted over a directory, so that a test can really fill the disk.
private struct SmallTmpfs {
  let path: String

  init(at path: String, pages: Int) throws {
    try FileSystem.makeDirectories(path)
    let mounted = try run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(pages * 4096),mode=0750", "tmpfs", path])
    guard mounted.status == 0 else { throw HarnessError("mount failed: \(mounted.error)") }
    self.path = path
  }

  /// Takes every free page with a file of its own and returns its path.
  func fill(name: String = "filler") throws -> String {
    let filler = path + "/" + name
    let fd = try FileDescriptor.open(filler, .writeOnly, options: [.create, .exclusiveCreate])
    defer { try? fd.close() }
    let page = [UInt8](repeating: 0x20, count: 4096)
    while true {
      do {
        _ = try fd.write(page)
      } catch {
        guard error.errno == .noSpace else { throw error }
        return filler
      }
    }
  }

  func unmount() {
    _ = try? run("/bin/umount", ["--lazy", path])
  }
}

extension String {
  /// This text with the last `target` replaced by `replacement`.
  fileprivate func replacingLast(_ target: String, with replacement: String) -> String {
    guard let range = ranges(of: target).last else { return self }
    var replaced = self
    replaced.replaceSubrange(range, with: replacement)
    return replaced
  }

  /// How many times `text` occurs.
  fileprivate func occurrences(of text: String) -> Int {
    ranges(of: text).count
  }
}
