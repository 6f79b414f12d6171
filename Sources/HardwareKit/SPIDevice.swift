// SPDX-License-Identifier: MIT
// A Linux spidev device (`/dev/spidevB.C`): the kernel's SPI controller instead of bit-banging.

import CLinux
import Glibc

/// An SPI device through spidev. Each `transfer` is one transaction: chip select is asserted
/// for all of its bytes and released at the end (spidev's `write`, Documentation/spi/spidev).
public final class SPIDevice {
  /// The device, such as `/dev/spidev0.0`.
  public let path: String
  private var descriptor: FileDescriptor?

  /// Opens `path` and sets SPI mode `mode`, MSB first, 8-bit words, `speed` Hz.
  ///
  /// The corresponding C calls are `open` and `ioctl(SPI_IOC_WR_MODE, SPI_IOC_WR_LSB_FIRST,
  /// SPI_IOC_WR_BITS_PER_WORD, SPI_IOC_WR_MAX_SPEED_HZ)`.
  public init(path: String, mode: Int = 0, speed: Int) throws(SystemError) {
    self.path = path
    let fd = try FileDescriptor.open(path, .readWrite)
    do throws(SystemError) {
      try check("ioctl(SPI_IOC_WR_MODE)", path: path) {
        clinux_spi_configure(fd.rawValue, Int32(mode), UInt32(clamping: speed))
      }
    } catch {
      try? fd.close()
      throw error
    }
    descriptor = fd
  }

  deinit { close() }

  /// Sends `bytes` in one transaction (chip select held low throughout).
  public func transfer(_ bytes: [UInt8]) throws(SystemError) {
    guard let descriptor else {
      throw SystemError(operation: "write", path: path, errno: Errno(rawValue: EBADF))
    }
    let result = try descriptor.write(bytes)
    if case .written(let count) = result, count == bytes.count { return }
    throw SystemError(
      operation: "write", path: path, errno: Errno(rawValue: EIO),
      hint: "spidev took only part of a transfer")
  }

  /// Closes the device; safe to call twice.
  public func close() {
    guard let fd = descriptor else { return }
    descriptor = nil
    try? fd.close()
  }
}
