// SPDX-License-Identifier: MIT
// A UART opened raw at a fixed baud rate: what a serial display is attached to.

import CLinux
import Glibc

/// A serial port in raw 8N1 mode.
public enum SerialPort {
  /// Opens `path` for writing and reading, non-blocking, without making it the controlling
  /// terminal, and configures it raw (no echo, no line editing, no output processing), 8 data
  /// bits, no parity, one stop bit, modem lines ignored, at `baud` bits per second.
  ///
  /// The corresponding C functions are `open`, `tcgetattr`, `cfmakeraw`, `cfsetspeed` and
  /// `tcsetattr`.
  public static func open(_ path: String, baud: Int) throws(SystemError) -> FileDescriptor {
    let descriptor = try FileDescriptor.open(
      path, .readWrite, options: [.nonBlocking, .noControllingTerminal])
    do throws(SystemError) {
      try configure(descriptor, baud: baud, path: path)
    } catch {
      try? descriptor.close()
      throw error
    }
    return descriptor
  }

  /// Configures an open tty as `open(_:baud:)` does.
  public static func configure(
    _ descriptor: FileDescriptor, baud: Int, path: String? = nil
  ) throws(SystemError) {
    guard baud > 0, baud <= Int(UInt32.max) else {
      throw SystemError(operation: "tcsetattr", path: path, errno: Errno(rawValue: EINVAL))
    }
    try check(
      "tcsetattr", path: path,
      hint: "the serial port does not take \(baud) baud"
    ) { clinux_serial_configure(descriptor.rawValue, UInt32(baud)) }
  }

  /// Opens `path` as `open(_:baud:)` does and claims it for this process alone (TIOCEXCL: a
  /// second open fails with EBUSY), with HUPCL cleared so closing never pulses DTR/RTS — the
  /// reset line of ESP and Arduino LED controllers.
  ///
  /// The corresponding C functions are `open`, `tcsetattr` and `ioctl(TIOCEXCL)`.
  public static func openExclusive(_ path: String, baud: Int) throws(SystemError) -> FileDescriptor
  {
    let descriptor = try open(path, baud: baud)
    do throws(SystemError) {
      try check("ioctl(TIOCEXCL)", path: path) { clinux_serial_claim(descriptor.rawValue) }
    } catch {
      try? descriptor.close()
      throw error
    }
    return descriptor
  }

  /// The output baud rate a tty is set to.
  ///
  /// The corresponding C functions are `tcgetattr` and `cfgetospeed`.
  public static func baudRate(of descriptor: FileDescriptor) throws(SystemError) -> Int {
    Int(try check("tcgetattr") { clinux_serial_speed(descriptor.rawValue) })
  }

  /// Whether a tty is in the raw 8-bit mode `configure` sets.
  public static func isRaw(_ descriptor: FileDescriptor) throws(SystemError) -> Bool {
    try check("tcgetattr") { clinux_serial_is_raw(descriptor.rawValue) } == 1
  }
}
