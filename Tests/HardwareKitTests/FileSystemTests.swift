// SPDX-License-Identifier: MIT
// Files on a real file system: atomic replacement, durable appends, directories, boot id.

import Glibc
import HardwareKit
import Testing
import WodclockTestSupport

@Suite struct FileSystemTests {
  @Test func atomicWriteReadsBackAndLeavesNoTemporaryFile() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("state.json")
    try FileSystem.writeFileAtomically(path, text: "{\"round\": 1}", mode: 0o600)
    #expect(try FileSystem.readTextFile(path) == "{\"round\": 1}")
    #expect(try FileSystem.attributes(path).permissions == 0o600)
    try FileSystem.writeFileAtomically(path, Array("{\"round\": 2}".utf8))
    #expect(try FileSystem.readFile(path) == Array("{\"round\": 2}".utf8))
    #expect(try FileSystem.attributes(path).permissions == 0o644)
    #expect(try FileSystem.directoryEntries(scratch.path) == ["state.json"])
  }

  @Test func attributesOfALinkOrOfTheFileItLeadsTo() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let target = scratch.file("secret")
    try FileSystem.writeFileAtomically(target, text: "pw\n", mode: 0o600)
    let link = scratch.file("link")
    #expect(symlink(target, link) == 0)
    #expect(try FileSystem.attributes(link).kind == .symbolicLink)
    let followed = try FileSystem.attributes(link, followingLinks: true)
    #expect(followed.kind == .regularFile && followed.permissions == 0o600)
    #expect(throws: SystemError.self) {
      try FileSystem.attributes(scratch.file("missing"), followingLinks: true)
    }
  }

  @Test func leftoverTemporaryFileFromACrashIsIgnored() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("state.json")
    try FileSystem.writeFileAtomically(path, text: "old")
    // What a crash between write and rename leaves behind: a half-written temporary file.
    let leftover = scratch.file(".state.json.tmp-1-2-0")
    let fd = try FileDescriptor.open(leftover, .writeOnly, options: [.create, .exclusiveCreate])
    try fd.writeAll(Array("{\"trunc".utf8))
    try fd.close()
    #expect(try FileSystem.readTextFile(path) == "old")
    try FileSystem.writeFileAtomically(path, text: "new")
    #expect(try FileSystem.readTextFile(path) == "new")
    #expect(
      try FileSystem.directoryEntries(scratch.path).sorted()
        == [leftover.split(separator: "/").last.map(String.init)!, "state.json"].sorted())
  }

  @Test func atomicWriteIntoMissingDirectoryFails() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let error = #expect(throws: SystemError.self) {
      try FileSystem.writeFileAtomically(scratch.file("missing/state.json"), text: "x")
    }
    #expect(error?.errno == .noSuchFile)
  }

  @Test func appendLineAddsLines() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("history.jsonl")
    try FileSystem.appendLine("{\"id\":1}", to: path)
    try FileSystem.appendLine("{\"id\":2}", to: path)
    #expect(try FileSystem.readTextFile(path) == "{\"id\":1}\n{\"id\":2}\n")
  }

  @Test func anAppendAfterATornLineStartsOnALineOfItsOwn() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("history.jsonl")
    // What a power cut in the middle of an append leaves: a last line without its newline.
    try FileSystem.writeFileAtomically(path, text: "{\"id\":1}\n{\"id\":")
    try FileSystem.appendLine("{\"id\":3}", to: path)
    try FileSystem.appendLine("{\"id\":4}", to: path, ownFile: true)
    #expect(
      try FileSystem.readTextFile(path) == "{\"id\":1}\n{\"id\":\n{\"id\":3}\n{\"id\":4}\n")
  }

  @Test func ownFilesAreNotFollowedThroughASymbolicLink() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let elsewhere = scratch.file("elsewhere")
    try FileSystem.writeFileAtomically(elsewhere, text: "not yours\n")
    let link = scratch.file("history.jsonl")
    #expect(symlink(elsewhere, link) == 0)
    let append = #expect(throws: SystemError.self) {
      try FileSystem.appendLine("{}", to: link, ownFile: true)
    }
    #expect(append?.errno == .tooManySymbolicLinks)
    #expect(append?.hint?.contains("symbolic link") == true)
    let read = #expect(throws: SystemError.self) {
      try FileSystem.readFile(link, ownFile: true)
    }
    #expect(read?.errno == .tooManySymbolicLinks)
    #expect(try FileSystem.readTextFile(elsewhere) == "not yours\n")
    // Other files (a config, a font) may be links their owner made.
    #expect(try FileSystem.readTextFile(link) == "not yours\n")
  }

  @Test func onlyARegularFileIsAnOwnFile() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    // A FIFO with no writer: a plain open for reading would wait for one for ever.
    let fifo = scratch.file("state.json")
    #expect(mkfifo(fifo, 0o600) == 0)
    let error = #expect(throws: SystemError.self) { try FileSystem.readFile(fifo, ownFile: true) }
    #expect(error?.errno == .invalidArgument)
    #expect(error?.hint?.contains("not a regular file") == true)
    #expect(throws: SystemError.self) { try FileSystem.appendLine("{}", to: fifo, ownFile: true) }
    let directory = scratch.file("history.jsonl")
    try FileSystem.makeDirectories(directory)
    defer { try? FileSystem.removeDirectory(directory) }
    #expect(throws: SystemError.self) { try FileSystem.readFile(directory, ownFile: true) }
  }

  @Test func makeDirectoriesExistsAndRemove() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let nested = scratch.file("a/b/c")
    try FileSystem.makeDirectories(nested, mode: 0o750)
    try FileSystem.makeDirectories(nested)
    #expect(FileSystem.isDirectory(nested))
    #expect(try FileSystem.attributes(nested).permissions == 0o750)
    let file = nested + "/f"
    #expect(!FileSystem.fileExists(file))
    try FileSystem.appendLine("x", to: file)
    #expect(FileSystem.fileExists(file))
    #expect(try FileSystem.removeFile(file))
    #expect(try !FileSystem.removeFile(file))
    try FileSystem.removeDirectory(nested)
    try FileSystem.removeDirectory(scratch.file("a/b"))
    try FileSystem.removeDirectory(scratch.file("a"))
  }

  @Test func readMissingFileNamesThePath() {
    let error = #expect(throws: SystemError.self) {
      try FileSystem.readFile("/nonexistent/wodclock.yaml")
    }
    #expect(
      error?.description == "open /nonexistent/wodclock.yaml: No such file or directory (ENOENT)")
  }

  @Test func aReadStopsAtItsLimit() throws {
    let scratch = try ScratchDirectory()
    defer { scratch.remove() }
    let path = scratch.file("font.bdf")
    try FileSystem.writeFileAtomically(path, [UInt8](repeating: 0x41, count: 40_000))
    #expect(try FileSystem.readFile(path, maximumCount: 40_000).count == 40_000)
    let error = #expect(throws: SystemError.self) {
      try FileSystem.readFile(path, maximumCount: 39_999)
    }
    #expect(error?.errno == .fileTooLarge)
    // A device that never ends is cut off too.
    let endless = #expect(throws: SystemError.self) {
      try FileSystem.readFile("/dev/zero", maximumCount: 100_000)
    }
    #expect(endless?.errno == .fileTooLarge)
    #expect(endless?.path == "/dev/zero")
  }

  @Test func bootIDLooksLikeAUUID() throws {
    let id = try BootID.current()
    #expect(id.count == 36)
    #expect(id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    #expect(try BootID.current() == id)
  }
}
