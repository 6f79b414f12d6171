// SPDX-License-Identifier: MIT
// Shared helpers for the HardwareKit tests: a scratch directory that cleans up after itself.

import HardwareKit

/// A fresh private directory; `remove()` deletes it with the files directly inside it.
struct ScratchDirectory {
  let path: String

  init() throws {
    // An explicit parent keeps this from reading TMPDIR while the environment tests change
    // variables on another thread.
    path = try FileSystem.makeTemporaryDirectory(in: "/tmp", prefix: "hardwarekit-test-")
  }

  func file(_ name: String) -> String { "\(path)/\(name)" }

  func remove() {
    for name in (try? FileSystem.directoryEntries(path)) ?? [] {
      _ = try? FileSystem.removeFile(file(name))
    }
    try? FileSystem.removeDirectory(path)
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
