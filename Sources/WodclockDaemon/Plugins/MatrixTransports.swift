// SPDX-License-Identifier: MIT
// How LED-matrix frames reach their controller: a serial line (TPM2, Adalight, raw) or UDP
// (DDP). Both are non-blocking: the daemon's one loop never waits on a controller, nor on a
// name server. A frame longer than the tty's buffer is finished as the port becomes writable.

import HardwareKit
import MatrixKit

/// A way to an LED controller.
protocol MatrixTransport: AnyObject {
  /// Opens the device or socket at monotonic instant `now`, without waiting: a network
  /// controller named by a host name is looked up in the background (its answer comes on one
  /// of ``watchedDescriptors``), and frames wait until its address is known (``isReady``).
  func open(at now: Int64) throws
  /// Whether frames can be sent: open, and a network controller's address known.
  var isReady: Bool { get }
  /// Starts sending a frame of channel bytes (3 per LED, wiring order). A frame still on its
  /// way is finished first; a newer frame replaces one that has not started.
  func send(_ channels: [UInt8]) throws
  /// Writes more of a frame on its way; true when nothing is left to write.
  func flush() throws -> Bool
  /// A frame is still on its way: part of it is not written yet.
  var isBusy: Bool { get }
  /// What the transport waits for: a serial port's writability while a frame is on its way
  /// (only then: a tty is writable almost always), a name lookup's answer.
  var watchedDescriptors: [WatchedDescriptor] { get }
  /// Goes on with what `descriptor` is ready for: the rest of a frame, the lookup's answer.
  /// Throws ``DeviceGoneError`` for a device that went away, ``ControllerNotFoundError`` for
  /// a name without an address.
  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws
  /// When the transport must be called back (``handleWakeUp(at:)``): a lookup's deadline.
  func nextWakeUp(after now: Int64) -> Int64?
  /// Called at ``nextWakeUp(after:)``: gives up a lookup that took too long (throws
  /// ``ControllerNotFoundError``).
  func handleWakeUp(at now: Int64) throws
  /// Closes what the transport finished with in an earlier call (a lookup's descriptors): the
  /// loop watched them until it re-read ``watchedDescriptors`` after that call.
  func closeRetired()
  /// Nanoseconds the wire takes for `byteCount` bytes (0 for a network).
  func wireNanoseconds(byteCount: Int) -> Int64
  /// Bytes one frame of `ledCount` LEDs takes on the wire.
  func frameLength(ledCount: Int) -> Int
  /// Releases the device; never throws.
  func close()
}

extension MatrixTransport {
  func nextWakeUp(after now: Int64) -> Int64? { nil }
  func handleWakeUp(at now: Int64) throws {}
  func closeRetired() {}
}

/// A network controller's name has no address (now): reported, then looked up again.
struct ControllerNotFoundError: Error, CustomStringConvertible {
  var resolution: ResolutionError
  var description: String { resolution.description }
  /// What a person can do about it.
  var hint: String? {
    switch resolution.reason {
    case .unknownHost: "check the name, or give the controller's IP address as host"
    case .temporaryFailure, .timedOut: "is the network up, and does the name server answer?"
    case .failed: nil
    }
  }
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

  func open(at now: Int64) throws {
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

  var isReady: Bool { descriptor != nil }

  var isBusy: Bool { written < inFlight.count || queued != nil }

  var watchedDescriptors: [WatchedDescriptor] {
    guard isBusy, let descriptor else { return [] }
    return [WatchedDescriptor(descriptor, for: .writable)]
  }

  /// The port took bytes again (or hung up, which the write then reports): the frame goes on.
  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws {
    guard descriptor == self.descriptor else { return }
    _ = try flush()
  }

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
///
/// `host` is an IPv4 or IPv6 address, used as it is, or a name, looked up in the background
/// (``AddressResolver``): the loop never waits for a name server or for mDNS.
final class DDPMatrixTransport: MatrixTransport {
  let host: String
  let port: Int
  let resolver: AddressResolver
  private var socket: UDPSocket?
  /// Where the frames go, once known.
  private(set) var address: SocketAddress?
  /// The lookup of `host` on its way.
  private var lookup: AddressLookup?
  /// A lookup that has answered, closed at the next call (see ``closeRetired()``).
  private var answeredLookup: AddressLookup?
  private var sequence: UInt8 = 0

  init(host: String, port: Int, resolver: AddressResolver = .wodclockd) {
    self.host = host
    self.port = port
    self.resolver = resolver
  }

  func open(at now: Int64) throws {
    close()
    guard let port = UInt16(exactly: port), port > 0 else {
      throw PluginError("port \(port) is not a UDP port (1 to 65535)")
    }
    if let literal = IPAddress(host) {
      try connect(SocketAddress(literal, port: port))
    } else {
      lookup = try resolver.lookUp(host, at: now)
    }
  }

  var isReady: Bool { socket != nil }

  var isBusy: Bool { false }

  var watchedDescriptors: [WatchedDescriptor] {
    lookup.map { [WatchedDescriptor($0.fileDescriptor)] } ?? []
  }

  func handleReady(_ descriptor: FileDescriptor, _ readiness: Readiness, at now: Int64) throws {
    guard let lookup, descriptor == lookup.fileDescriptor else { return }
    try finish(lookup, at: now)
  }

  func nextWakeUp(after now: Int64) -> Int64? { lookup?.deadline }

  func handleWakeUp(at now: Int64) throws {
    guard let lookup, now >= lookup.deadline else { return }
    try finish(lookup, at: now)
  }

  /// Takes the lookup's answer if it is in: connects to the address, or throws why there is
  /// none.
  private func finish(_ lookup: AddressLookup, at now: Int64) throws {
    guard let result = lookup.result(at: now) else { return }
    self.lookup = nil
    answeredLookup = lookup
    switch result {
    case .success(let addresses):
      // DDP controllers (WLED and other ESP32 boards) listen on IPv4: an IPv6 address only
      // when the name has no IPv4 one. UDP cannot tell a silent address from a wrong one.
      let chosen = addresses.first { $0.family == .ipv4 } ?? addresses[0]
      try connect(SocketAddress(chosen, port: UInt16(truncatingIfNeeded: port)))
    case .failure(let error):
      throw ControllerNotFoundError(resolution: error)
    }
  }

  private func connect(_ address: SocketAddress) throws {
    socket = try UDPSocket.connect(to: address)
    self.address = address
  }

  func closeRetired() {
    answeredLookup?.cancel()
    answeredLookup = nil
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
    address = nil
    lookup?.cancel()
    lookup = nil
    closeRetired()
  }
}

extension AddressResolver {
  /// The daemon's resolver: `wodclockd --resolve HOST`, run from the wodclockd beside the
  /// running program, which is the daemon itself, or for `wodclock-bench` and the tests the one
  /// in their build directory.
  static let wodclockd: AddressResolver = {
    let program =
      Environment.executablePath.flatMap { path in
        path.lastIndex(of: "/").map { String(path[...$0]) + "wodclockd" }
      } ?? "wodclockd"
    return AddressResolver(command: [program, DaemonOptions.resolveFlag])
  }()
}
