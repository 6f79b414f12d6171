// SPDX-License-Identifier: MIT
// Knowing whether stderr goes to journald, so that `<N>` priority prefixes are worth writing.

/// Detects whether standard error is connected to the systemd journal.
public enum JournalStream {
  /// Whether fd 2 is the journal stream named in `JOURNAL_STREAM`, so that `<N>` priority
  /// prefixes on each line will be understood (systemd.exec(5), `$JOURNAL_STREAM`).
  ///
  /// systemd sets the variable to `<device>:<inode>` of the stream it connected; comparing with
  /// fstat(2) of fd 2 tells a still-connected stderr from one the user redirected.
  ///
  /// The corresponding C functions are `getenv` and `fstat`.
  public static func isStderrJournal() -> Bool {
    guard let value = Environment.get("JOURNAL_STREAM"),
      let identity = try? FileDescriptor.standardError.identity()
    else { return false }
    return matches(value, device: identity.device, inode: identity.inode)
  }

  /// Whether a `JOURNAL_STREAM` value `"<device>:<inode>"` (decimal) names the given file.
  public static func matches(_ value: String, device: UInt64, inode: UInt64) -> Bool {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let expectedDevice = UInt64(parts[0]),
      let expectedInode = UInt64(parts[1])
    else { return false }
    return expectedDevice == device && expectedInode == inode
  }
}
