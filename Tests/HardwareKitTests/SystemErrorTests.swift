// SPDX-License-Identifier: MIT
// Error values: errno names and messages, and the exact text users read.

import HardwareKit
import Testing

@Suite struct SystemErrorTests {
  @Test func errnoNamesAndMessages() {
    #expect(Errno.noSuchDevice.name == "ENODEV")
    #expect(Errno.noSuchDevice.message == "No such device")
    #expect(Errno.wouldBlock.name == "EAGAIN")
    #expect(Errno.interrupted.name == "EINTR")
    #expect(Errno.noSuchFile.name == "ENOENT")
    #expect(Errno(rawValue: 9999).name == "E9999")
  }

  @Test func descriptionWithPath() {
    let error = SystemError(operation: "open", path: "/dev/ttyUSB0", errno: .noSuchDevice)
    #expect(error.description == "open /dev/ttyUSB0: No such device (ENODEV)")
  }

  @Test func descriptionWithoutPathWithHint() {
    let error = SystemError(
      operation: "tcsetattr", errno: .ioError, hint: "the adapter was unplugged")
    #expect(
      error.description
        == "tcsetattr: Input/output error (EIO); hint: the adapter was unplugged")
  }

  @Test func openMissingFileThrowsWithPath() throws {
    let error = #expect(throws: SystemError.self) {
      try FileDescriptor.open("/nonexistent/wodclock-test", .readOnly)
    }
    #expect(error?.errno == .noSuchFile)
    #expect(
      error?.description
        == "open /nonexistent/wodclock-test: No such file or directory (ENOENT)")
  }
}
