// SPDX-License-Identifier: MIT
// openpty(3) pairs: a stand-in for serial ports in tests.

import CLinux

/// A pseudo-terminal pair: the primary side acts as the device, the secondary side is the tty a
/// program opens. Tests use it in place of a serial port (termios and hang-up behave alike).
public struct PseudoTerminal: Hashable, Sendable {
  /// The controlling (primary, "master") side.
  public let primary: FileDescriptor
  /// The terminal (secondary, "slave") side.
  public let secondary: FileDescriptor
  /// The path of the secondary side, such as `/dev/pts/3`.
  public let secondaryPath: String

  /// Opens a new pair; both descriptors are close-on-exec.
  ///
  /// The corresponding C functions are `openpty` and `ttyname_r`.
  public static func open() throws(SystemError) -> PseudoTerminal {
    var primary: Int32 = -1
    var secondary: Int32 = -1
    var name = [CChar](repeating: 0, count: 128)
    try check("openpty") { clinux_open_pty(&primary, &secondary, &name, name.count) }
    let path = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return PseudoTerminal(
      primary: FileDescriptor(rawValue: primary), secondary: FileDescriptor(rawValue: secondary),
      secondaryPath: path)
  }

  private init(primary: FileDescriptor, secondary: FileDescriptor, secondaryPath: String) {
    self.primary = primary
    self.secondary = secondary
    self.secondaryPath = secondaryPath
  }

  /// Closes both sides.
  ///
  /// The corresponding C function is `close`.
  public func close() throws(SystemError) {
    try secondary.close()
    try primary.close()
  }
}
