// SPDX-License-Identifier: MIT
// The version the binaries report (`--version`, the control socket's `version` command).

import WodclockVersionInfo

/// The version of wodclockd and wodclockctl: the VERSION file of the source tree, compiled in.
public enum WodclockVersion {
  public static let current: String = {
    let bytes = UnsafeBufferPointer(
      start: wodclock_version_bytes(), count: wodclock_version_length())
    // The file's first line, without its line break (and a CR an editor may have added).
    let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    return String(decoding: line, as: UTF8.self)
  }()
}
