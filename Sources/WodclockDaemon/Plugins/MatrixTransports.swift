// SPDX-License-Identifier: MIT
// How LED-matrix frames reach their controller: a serial line (TPM2, Adalight, raw) or UDP
// (DDP). Both are non-blocking: the daemon's one loop never waits on a controller.

import HardwareKit
import MatrixKit

/// A way to an LED controller.
protocol MatrixTransport: AnyObject {
  /// Opens the device or socket.
  func open() throws
  /// Starts sending a frame of channel bytes (3 per LED, wiring order). A frame still on its
  /// way is finished first; a newer frame replaces one that has not started.
  func send(_ channels: [UInt8]) throws
  /// Writes more of a frame on its way; true when nothing is left to write.
  func flush() throws -> Bool
  /// Nanoseconds the wire takes for `byteCount` bytes (0 for a network).
  func wireNanoseconds(byteCount: Int) -> Int64
  /// Bytes one frame of `ledCount` LEDs takes on the wire.
  func frameLength(ledCount: Int) -> Int
  /// Releases the device; never throws.
  func close()
}

/// The controller went away (unplugged, powered off): reported once, then the output reopens.
struct DeviceGoneError: Error, CustomStringConvertible {
  var path: String
  var reason: String
  var description: String { "\(path) is gone (\(reason))" }
}

/// A USB or UART serial line: raw 8N1 at any rate, claimed exclusively.
final class SerialMatrixTransport: MatrixTransport {
  let path: () throws -> String
  let baud: Int
  let framing: SerialFraming
  private(set) var descriptor: FileDescriptor?
  private var openedPath = ""
  /// The frame on its way and how much of it is written.
  private var inFlight: [UInt8] = []
  private var written = 0
  /// The newest frame waiting for the one on its way.
  private var queued: [UInt8]?

  /// `path` is asked on every open, so a device found by USB id can move between opens.
  init(path: @escaping () throws -> String, baud: Int, framing: SerialFraming) {
    self.path = path
    self.baud = baud
    self.framing = framing
  }

  func open() throws {
    close()
    let path = try self.path()
    openedPath = path
    descriptor = try SerialPort.openExclusive(path, baud: baud)
  }

  func send(_ channels: [UInt8]) throws {
    let frame = framing.frame(channels)
    if written < inFlight.count {
      queued = frame
    } else {
      inFlight = frame
      written = 0
    }
    _ = try flush()
  }

  func flush() throws -> Bool {
    guard let descriptor else { return true }
    try drainInput(descriptor)
    while true {
      if written >= inFlight.count {
        guard let next = queued else { return true }
        inFlight = next
        written = 0
        queued = nil
      }
      let result: FileDescriptor.WriteResult
      do {
        result = try inFlight.withUnsafeBytes { raw in
          try descriptor.write(UnsafeRawBufferPointer(rebasing: raw[written...]))
        }
      } catch let error as SystemError {
        throw gone(error)
      }
      switch result {
      case .written(let count): written += count
      case .wouldBlock: return false
      }
    }
  }

  /// Reads and discards what the controller says (WLED's and Adalight's `Ada` beacon): an
  /// unread input buffer would fill up. A hang-up shows as `isHungUp()`, or as EIO.
  private func drainInput(_ descriptor: FileDescriptor) throws {
    if descriptor.isHungUp() {
      throw DeviceGoneError(path: openedPath, reason: "hang-up")
    }
    var scratch: [UInt8] = []
    for _ in 0..<16 {
      scratch.removeAll(keepingCapacity: true)
      let result: FileDescriptor.ReadResult
      do {
        result = try descriptor.read(appendingTo: &scratch, maximumCount: 1024)
      } catch {
        throw gone(error)
      }
      switch result {
      case .bytes: continue
      // A raw tty with VMIN 0 returns 0 when nothing is waiting, and a hung-up tty returns 0
      // forever (termios(3), tty_io.c hung_up_tty_read): never loop on it; poll said which.
      case .wouldBlock, .endOfFile: return
      }
    }
  }

  private func gone(_ error: SystemError) -> any Error {
    switch error.errno {
    case .ioError, .noSuchDeviceOrAddress, .noSuchDevice, .brokenPipe, .badFileDescriptor:
      return DeviceGoneError(path: openedPath, reason: error.description)
    default:
      return error
    }
  }

  var isBusy: Bool { written < inFlight.count || queued != nil }

  func wireNanoseconds(byteCount: Int) -> Int64 {
    // 8N1: a start bit, 8 data bits and a stop bit per byte.
    Int64(byteCount) * 10 * 1_000_000_000 / Int64(max(1, baud))
  }

  func frameLength(ledCount: Int) -> Int { framing.frameLength(ledCount: ledCount) }

  func close() {
    try? descriptor?.close()
    descriptor = nil
    inFlight = []
    written = 0
    queued = nil
  }
}

/// DDP over UDP to WLED, xLights, Falcon and other network controllers.
final class DDPMatrixTransport: MatrixTransport {
  let host: String
  let port: Int
  private var socket: UDPSocket?
  private var sequence: UInt8 = 0

  init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  func open() throws {
    close()
    socket = try UDPSocket.connect(host: host, port: port)
  }

  func send(_ channels: [UInt8]) throws {
    guard let socket else { return }
    // The sequence number runs 1…15; 0 would mean "not used".
    sequence = sequence % 15 + 1
    for packet in DDP.packets(channels, sequence: sequence) { try socket.send(packet) }
  }

  func flush() throws -> Bool { true }

  func wireNanoseconds(byteCount: Int) -> Int64 { 0 }

  func frameLength(ledCount: Int) -> Int { ledCount * 3 }

  func close() {
    socket?.close()
    socket = nil
  }
}
