// SPDX-License-Identifier: MIT
// FileDescriptor over real pipes: partial reads, would-block, end of file, hang-ups, descriptor
// flags.

import HardwareKit
import Testing

@Suite struct FileDescriptorTests {
  @Test func pipeRoundTripAndEndOfFile() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    try writeEnd.writeAll(Array("hello".utf8))
    try writeEnd.close()
    var bytes: [UInt8] = []
    #expect(try readEnd.read(appendingTo: &bytes) == .bytes(5))
    #expect(String(decoding: bytes, as: UTF8.self) == "hello")
    #expect(try readEnd.read(appendingTo: &bytes) == .endOfFile)
    #expect(bytes.count == 5)
    try readEnd.close()
  }

  @Test func nonBlockingReadReportsWouldBlock() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    var bytes: [UInt8] = []
    #expect(try readEnd.read(appendingTo: &bytes) == .wouldBlock)
    #expect(bytes.isEmpty)
  }

  @Test func nonBlockingWriteFillsUpThenWouldBlock() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    let chunk = [UInt8](repeating: 0x55, count: 65_536)
    var total = 0
    var sawWouldBlock = false
    // A pipe holds 64 KiB by default (pipe(7)); a few rounds must hit EAGAIN.
    for _ in 0..<16 {
      switch try writeEnd.write(chunk) {
      case .written(let count): total += count
      case .wouldBlock: sawWouldBlock = true
      }
      if sawWouldBlock { break }
    }
    #expect(sawWouldBlock)
    #expect(total > 0)
  }

  @Test func aPipeWhoseOtherEndIsClosedIsHungUp() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe(nonBlocking: true)
    defer { try? readEnd.close() }
    #expect(!readEnd.isHungUp())
    #expect(!writeEnd.isHungUp())
    try writeEnd.writeAll([1])
    #expect(!readEnd.isHungUp(), "readable is not hung up")
    try writeEnd.close()
    #expect(readEnd.isHungUp())
    let (otherRead, otherWrite) = try FileDescriptor.pipe(nonBlocking: true)
    defer { try? otherWrite.close() }
    try otherRead.close()
    #expect(otherWrite.isHungUp(), "a write end without readers: POLLERR")
  }

  @Test func aTerminalWhoseOtherSideIsClosedIsHungUp() throws {
    // As a serial adapter that is unplugged: the device side of the line hangs up.
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.secondary.close() }
    #expect(!terminal.secondary.isHungUp())
    try terminal.primary.close()
    #expect(terminal.secondary.isHungUp())
  }

  @Test func descriptorFlags() throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    #expect(try readEnd.isCloseOnExec())
    #expect(try !readEnd.isNonBlocking())
    try readEnd.setNonBlocking()
    #expect(try readEnd.isNonBlocking())
    try readEnd.setNonBlocking(false)
    #expect(try !readEnd.isNonBlocking())
    try readEnd.setCloseOnExec(false)
    #expect(try !readEnd.isCloseOnExec())
    try readEnd.setCloseOnExec()
    #expect(try readEnd.isCloseOnExec())
  }
}
