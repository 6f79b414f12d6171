// SPDX-License-Identifier: MIT
// Shared helpers for the HardwareKit tests.

import HardwareKit
import WodclockTestSupport

extension ScratchDirectory {
  /// A scratch directory in /tmp: an explicit parent keeps this from reading TMPDIR while the
  /// environment tests change variables on another thread.
  init() throws(SystemError) {
    try self.init(prefix: "hardwarekit-test-", in: "/tmp")
  }
}

extension FileDescriptor {
  /// Reads whatever is available now (non-blocking descriptors) as text.
  func readAvailableText() throws -> String {
    var bytes: [UInt8] = []
    while case .bytes = try read(appendingTo: &bytes) {}
    return String(decoding: bytes, as: UTF8.self)
  }
}
