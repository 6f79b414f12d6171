// SPDX-License-Identifier: MIT
// LED-matrix frames on the wire: a pseudo-terminal plays the serial controller and decodes
// TPM2 and Adalight with decoders written from the protocol descriptions; a loopback UDP
// socket plays the DDP controller. Pixels are checked against the renderer's framebuffer.

import DisplayKit
import Glibc
import HardwareKit
import MatrixKit
import Testing
import WorkoutCore

@testable import WodclockDaemon

/// A rendered 32×16 EMOM frame and its channel bytes in progressive order at full brightness,
/// gamma 1: the bytes equal the framebuffer's.
func sampleMatrixFrame(width: Int = 32, height: Int = 16) throws -> (Framebuffer, [UInt8]) {
  var engine = try WorkoutEngine(
    plan: WorkoutPlan(name: "EMOM", mode: .emom(EMOMParameters(interval: .seconds(60), rounds: 5))))
  let start = EngineInstant(nanoseconds: 1_000_000_000)
  _ = try engine.apply(.start, at: start)
  let now = EngineInstant(nanoseconds: 1_000_000_000 + 75_000_000_000)
  _ = engine.advance(to: now)
  let buffer = MatrixRenderer(width: width, height: height).render(
    engine.snapshot(at: now), timeOfDay: TimeOfDay(hour: 9, minute: 0), milliseconds: 0)
  let wiring = try WiringMap(width: width, height: height)
  let channels = OutputPipeline(gamma: 1).bytes(buffer, wiring: wiring, brightnessPercent: 100)
  return (buffer, channels)
}

/// Reads what the transport writes until `count` bytes arrived, flushing between reads.
func readFromPeer(
  _ terminal: PseudoTerminal, count: Int, flushing transport: any MatrixTransport
) throws -> [UInt8] {
  var bytes: [UInt8] = []
  var idle = 0
  while bytes.count < count && idle < 2000 {
    _ = try transport.flush()
    var progressed = false
    while case .bytes(let n) = try terminal.primary.read(appendingTo: &bytes), n > 0 {
      progressed = true
    }
    if !progressed {
      idle += 1
      usleep(500)
    }
  }
  return bytes
}

/// TPM2.serial: C9 DA size-hi size-lo payload 36.
func decodeTPM2(_ bytes: [UInt8]) -> [UInt8]? {
  guard bytes.count >= 5, bytes[0] == 0xC9, bytes[1] == 0xDA else { return nil }
  let size = Int(bytes[2]) << 8 | Int(bytes[3])
  guard bytes.count == size + 5, bytes[size + 4] == 0x36 else { return nil }
  return Array(bytes[4..<(4 + size)])
}

/// Adalight: "Ada" hi lo (hi ^ lo ^ 0x55), LEDs − 1 in hi/lo, then 3 bytes per LED.
func decodeAdalight(_ bytes: [UInt8]) -> [UInt8]? {
  guard bytes.count >= 6, Array(bytes[0..<3]) == Array("Ada".utf8),
    bytes[5] == bytes[3] ^ bytes[4] ^ 0x55
  else { return nil }
  let leds = (Int(bytes[3]) << 8 | Int(bytes[4])) + 1
  guard bytes.count == 6 + leds * 3 else { return nil }
  return Array(bytes[6...])
}

@Suite(.serialized) struct MatrixTransportTests {
  @Test(arguments: [SerialFraming.tpm2, .adalight, .raw])
  func aSerialFrameArrivesWhole(framing: SerialFraming) throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    let (buffer, channels) = try sampleMatrixFrame()
    let path = terminal.secondaryPath
    let transport = SerialMatrixTransport(path: { path }, baud: 1_000_000, framing: framing)
    try transport.open(at: 0)
    defer { transport.close() }
    try transport.send(channels)
    let length = framing.frameLength(ledCount: 32 * 16)
    let received = try readFromPeer(terminal, count: length, flushing: transport)
    let payload: [UInt8]?
    switch framing {
    case .tpm2: payload = decodeTPM2(received)
    case .adalight: payload = decodeAdalight(received)
    case .raw: payload = received
    }
    #expect(payload == buffer.rgbBytes)
  }

  @Test func nonStandardRatesUseTermios2() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    for baud in [250_000, 1_000_000, 1_500_000, 2_000_000] {
      let port = try SerialPort.openExclusive(terminal.secondaryPath, baud: baud)
      #expect(try SerialPort.baudRate(of: port) == baud)
      #expect(try SerialPort.isRaw(port))
      try port.close()
    }
  }

  // TIOCEXCL does not stop a process with CAP_SYS_ADMIN (tty_ioctl(4)): this runs as a normal
  // user; as root, MatrixHotplugTests opens the claimed port a second time as user nobody.
  @Test(.enabled(if: geteuid() != 0, "root is not stopped by TIOCEXCL"))
  func aSecondOpenOfAClaimedPortFails() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    let first = try SerialPort.openExclusive(terminal.secondaryPath, baud: 115_200)
    defer { try? first.close() }
    #expect(throws: SystemError.self) {
      try SerialPort.open(terminal.secondaryPath, baud: 115_200)
    }
  }

  @Test func aNewerFrameWaitsForTheOneOnItsWay() throws {
    let terminal = try PseudoTerminal.open()
    defer { try? terminal.close() }
    try terminal.primary.setNonBlocking()
    // 128×64 frames are larger than the pty buffer: the first is written in parts.
    let (_, first) = try sampleMatrixFrame(width: 128, height: 64)
    let second = [UInt8](repeating: 7, count: first.count)
    let third = [UInt8](repeating: 9, count: first.count)
    let path = terminal.secondaryPath
    let transport = SerialMatrixTransport(path: { path }, baud: 1_000_000, framing: .adalight)
    try transport.open(at: 0)
    defer { transport.close() }
    try transport.send(first)
    try transport.send(second)  // replaced by the third before it starts
    try transport.send(third)
    let length = SerialFraming.adalight.frameLength(ledCount: 128 * 64)
    let received = try readFromPeer(terminal, count: 2 * length, flushing: transport)
    #expect(received.count == 2 * length)
    #expect(decodeAdalight(Array(received.prefix(length))) == first)
    #expect(decodeAdalight(Array(received.suffix(length))) == third)
  }

  @Test func ddpPacketsReachALoopbackController() throws {
    let receiver = try UDPSocket.bindLoopback()
    defer { receiver.close() }
    let (buffer, channels) = try sampleMatrixFrame(width: 128, height: 64)
    let transport = DDPMatrixTransport(host: "127.0.0.1", port: receiver.port)
    try transport.open(at: 0)
    defer { transport.close() }
    try transport.send(channels)
    var packets: [[UInt8]] = []
    var tries = 0
    while packets.count < 18 && tries < 1000 {
      if let packet = try receiver.receive() {
        packets.append(packet)
      } else {
        tries += 1
        usleep(200)
      }
    }
    // 24 576 bytes in packets of at most 1440: 18 packets, push only on the last.
    #expect(packets.count == 18)
    var image = [UInt8](repeating: 0, count: channels.count)
    for (index, packet) in packets.enumerated() {
      #expect(packet[0] == (index == packets.count - 1 ? 0x41 : 0x40))
      #expect(packet[1] == 1)  // the first frame's sequence number
      #expect(packet[2] == 0x0B)
      #expect(packet[3] == 0x01)
      let offset = packet[4..<8].reduce(0) { $0 << 8 | Int($1) }
      let length = Int(packet[8]) << 8 | Int(packet[9])
      #expect(length == packet.count - 10 && length <= 1440)
      image.replaceSubrange(offset..<(offset + length), with: packet[10...])
    }
    #expect(image == buffer.rgbBytes)
  }

  @Test func wledsTPM2LengthQuirkIsKnown() {
    #expect(SerialFraming.tpm2ReadRightByWLED(ledCount: 85))
    #expect(!SerialFraming.tpm2ReadRightByWLED(ledCount: 86))
    #expect(!SerialFraming.tpm2ReadRightByWLED(ledCount: 255))
    #expect(SerialFraming.tpm2ReadRightByWLED(ledCount: 256))  // 768 bytes: hi = 3
    #expect(SerialFraming.tpm2ReadRightByWLED(ledCount: 512))  // 1536 bytes: hi = 6
    #expect(!SerialFraming.tpm2ReadRightByWLED(ledCount: 400))  // 1200 bytes: hi = 4
  }
}
