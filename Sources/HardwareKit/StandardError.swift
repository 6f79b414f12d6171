// SPDX-License-Identifier: MIT
// Log lines straight to fd 2, unbuffered, for journald.

import Glibc

/// Unbuffered writes to standard error, the daemon's log channel.
///
/// `print` goes to stdout, which is block-buffered when it is not a terminal, so lines reach the
/// journal late or are lost in a crash. These writes go straight to fd 2.
public enum StandardError {
  /// Writes `line` plus a newline to fd 2 in a single write(2) where possible, so lines from
  /// several writers do not interleave; partial writes are completed and errors ignored (there
  /// is nowhere left to report them).
  ///
  /// The corresponding C function is `write`.
  public static func writeLine(_ line: String) {
    write(line + "\n")
  }

  /// Writes `text` as it is (no newline added) to fd 2, completing partial writes.
  ///
  /// The corresponding C function is `write`.
  public static func write(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let result = valueOrErrno("write") {
          Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
        }
        guard case .success(let count) = result, count > 0 else { return }
        offset += count
      }
    }
  }
}
