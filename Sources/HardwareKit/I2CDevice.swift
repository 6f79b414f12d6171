// SPDX-License-Identifier: MIT
// One device on an I2C bus, through Linux i2c-dev (`/dev/i2c-N`) and its SMBus ioctls.

import CLinux
import Glibc

/// The I2C transfers a display driver needs. `I2CDevice` is the real one; tests give a fake.
public protocol I2CTransport: AnyObject {
  /// SMBus "send byte": START, address+W, `value`, STOP (a one-byte command).
  func sendByte(_ value: UInt8) throws(SystemError)
  /// SMBus "write I2C block data": START, address+W, `register`, `data` (1–32 bytes), STOP.
  func writeBlock(register: UInt8, _ data: [UInt8]) throws(SystemError)
  /// Closes the bus; safe to call twice.
  func close()
}

/// A device at a 7-bit address on an i2c-dev bus.
///
/// Every call is one complete transfer, blocking for its duration (about 0.1 ms per byte at the
/// usual 100 kHz). A device that does not answer fails with ENXIO (the kernel's "no ACK on the
/// address", Documentation/i2c/fault-codes.rst) or EREMOTEIO (the Pi's i2c-bcm2835).
public final class I2CDevice: I2CTransport {
  /// The bus device, such as `/dev/i2c-1`.
  public let path: String
  /// The 7-bit address, such as 0x70.
  public let address: Int
  private var descriptor: FileDescriptor?

  /// Opens `path` and addresses `address` on it.
  ///
  /// The corresponding C calls are `open` and `ioctl(I2C_SLAVE)`, then `ioctl(I2C_FUNCS)` to
  /// check that the adapter can do the SMBus transfers used here.
  public init(path: String, address: Int) throws(SystemError) {
    self.path = path
    self.address = address
    let fd = try FileDescriptor.open(path, .readWrite)
    do throws(SystemError) {
      try check(
        "ioctl(I2C_SLAVE)", path: path,
        hint: "EBUSY means a kernel driver owns address \(Self.hex(address)) on this bus"
      ) { clinux_i2c_set_address(fd.rawValue, Int32(address)) }
      let functions = try check("ioctl(I2C_FUNCS)", path: path) {
        clinux_i2c_functions(fd.rawValue)
      }
      guard clinux_i2c_can_write_blocks(functions) == 1 else {
        throw SystemError(
          operation: "ioctl(I2C_FUNCS)", path: path, errno: Errno(rawValue: EOPNOTSUPP),
          hint: "the adapter cannot do SMBus send byte and I2C block writes")
      }
    } catch {
      try? fd.close()
      throw error
    }
    descriptor = fd
  }

  deinit { close() }

  public func sendByte(_ value: UInt8) throws(SystemError) {
    let fd = try open()
    try check("ioctl(I2C_SMBUS send byte)", path: path, hint: absentHint) {
      clinux_i2c_smbus_send_byte(fd.rawValue, value)
    }
  }

  public func writeBlock(register: UInt8, _ data: [UInt8]) throws(SystemError) {
    let fd = try open()
    try check("ioctl(I2C_SMBUS block write)", path: path, hint: absentHint) {
      data.withUnsafeBufferPointer { buffer in
        clinux_i2c_smbus_write_block(fd.rawValue, register, buffer.baseAddress, Int32(buffer.count))
      }
    }
  }

  /// SMBus "read I2C block data": `count` (1–32) bytes from `register`.
  public func readBlock(register: UInt8, count: Int) throws(SystemError) -> [UInt8] {
    let fd = try open()
    var data = [UInt8](repeating: 0, count: max(count, 1))
    let read = try check("ioctl(I2C_SMBUS block read)", path: path, hint: absentHint) {
      data.withUnsafeMutableBufferPointer { buffer in
        clinux_i2c_smbus_read_block(fd.rawValue, register, buffer.baseAddress, Int32(count))
      }
    }
    return Array(data.prefix(Int(read)))
  }

  public func close() {
    guard let fd = descriptor else { return }
    descriptor = nil
    try? fd.close()
  }

  private func open() throws(SystemError) -> FileDescriptor {
    guard let descriptor else {
      throw SystemError(operation: "i2c transfer", path: path, errno: Errno(rawValue: EBADF))
    }
    return descriptor
  }

  private var absentHint: String {
    "ENXIO or EREMOTEIO: nothing answers at \(Self.hex(address)); check wiring, power and the address jumpers"
  }

  static func hex(_ value: Int) -> String {
    let digits = String(value, radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
  }
}
