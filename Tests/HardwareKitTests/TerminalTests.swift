// SPDX-License-Identifier: MIT
// Terminals through a real pseudo-terminal pair.

import HardwareKit
import Testing

@Suite struct TerminalTests {
  @Test func pseudoTerminalRoundTrip() throws {
    let pty = try PseudoTerminal.open()
    defer { try? pty.close() }
    #expect(pty.secondaryPath.hasPrefix("/dev/pts/"))
    #expect(try pty.primary.isCloseOnExec() && pty.secondary.isCloseOnExec())
    try pty.secondary.setNonBlocking()
    try pty.primary.setNonBlocking()
    let poller = try EventPoller()
    defer { try? poller.close() }

    // Device side to program side (canonical mode delivers whole lines).
    try poller.register(pty.secondary, token: 1)
    try pty.primary.writeAll(Array("ping\n".utf8))
    _ = try poller.wait(timeoutMilliseconds: 1000)
    #expect(try pty.secondary.readAvailableText() == "ping\n")

    // Program side to device side; output post-processing turns "\n" into "\r\n".
    try poller.register(pty.primary, token: 2)
    try pty.secondary.writeAll(Array("pong".utf8))
    var text = ""
    while !text.hasSuffix("pong") {
      _ = try poller.wait(timeoutMilliseconds: 1000)
      text += try pty.primary.readAvailableText()
    }
    #expect(text.hasSuffix("pong"))
  }

  @Test func ttyDetectionAndWindowSize() throws {
    let pty = try PseudoTerminal.open()
    defer { try? pty.close() }
    #expect(Terminal.isTTY(pty.secondary))
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    #expect(!Terminal.isTTY(readEnd))
    #expect(Terminal.windowSize(readEnd) == nil)
    // openpty without a size leaves 0 x 0, which means "unknown".
    #expect(Terminal.windowSize(pty.secondary) == nil)
  }

  @Test func rawModeIsEnteredAndRestored() throws {
    let pty = try PseudoTerminal.open()
    defer { try? pty.close() }
    #expect(try Terminal.modes(pty.secondary) == .init(isCanonical: true, isEchoing: true))
    let raw = try RawTerminalMode(pty.secondary)
    #expect(try Terminal.modes(pty.secondary) == .init(isCanonical: false, isEchoing: false))
    raw.restore()
    #expect(try Terminal.modes(pty.secondary) == .init(isCanonical: true, isEchoing: true))
    _ = try RawTerminalMode(pty.secondary)
    RawTerminalMode.restoreSavedMode()
    #expect(try Terminal.modes(pty.secondary) == .init(isCanonical: true, isEchoing: true))
  }

  @Test func rawModeOnAPipeIsNotATerminal() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let error = #expect(throws: SystemError.self) { try RawTerminalMode(readEnd) }
    #expect(error?.errno == .notATerminal)
  }
}
