// SPDX-License-Identifier: MIT
// Files for tests: a private directory that goes away with everything in it, the directory of
// a test's own sources (its fixtures are beside it), and the sorted names of fixture files.

public import HardwareKit

/// A fresh private (0700) directory; `remove()` deletes it with everything inside it.
public struct ScratchDirectory: Sendable {
  /// Where it is.
  public let path: String

  /// Creates `<parent>/<prefix>XXXXXX`.
  /// - Parameters:
  ///   - prefix: names the directory after its user, so one left behind is recognised.
  ///   - parent: `nil` means `$TMPDIR`, or `/tmp` when unset. Give one explicitly where another
  ///     thread may be changing the environment (the environment tests do).
  public init(prefix: String, in parent: String? = nil) throws(SystemError) {
    path = try FileSystem.makeTemporaryDirectory(in: parent, prefix: prefix)
  }

  /// The path of `name` inside it.
  public func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Removes the directory and everything in it. Symbolic links are removed, never followed,
  /// so a link a test made to a device or to another directory leaves its target alone.
  public func remove() {
    Self.removeTree(path)
  }

  private static func removeTree(_ path: String) {
    for name in (try? FileSystem.directoryEntries(path)) ?? [] {
      let entry = "\(path)/\(name)"
      if (try? FileSystem.attributes(entry))?.kind == .directory {
        removeTree(entry)
      } else {
        _ = try? FileSystem.removeFile(entry)
      }
    }
    try? FileSystem.removeDirectory(path)
  }
}

/// The directory holding the calling source file, found from its path so the tests run from
/// any clone: a test target's fixtures and scripts are beside its sources.
public func sourceDirectory(of filePath: String = #filePath) -> String {
  guard let slash = filePath.lastIndex(of: "/") else { return "." }
  return String(filePath[..<slash])
}

/// The names of the files in `directory` that end in `suffix`, sorted: fixtures in a stable
/// order.
public func fileNames(in directory: String, endingWith suffix: String) throws(SystemError)
  -> [String]
{
  try FileSystem.directoryEntries(directory).filter { $0.hasSuffix(suffix) }.sorted()
}

/// Writes `bytes` to `path`, created or truncated. Scratch files need neither the atomic
/// replacement nor the syncs of `FileSystem.writeFileAtomically`, and a test that writes a
/// thousand of them would wait on a thousand syncs.
public func writeFile(_ path: String, _ bytes: some Collection<UInt8>) throws(SystemError) {
  let file = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate])
  defer { try? file.close() }
  try file.writeAll(bytes)
}

/// Writes `text` as UTF-8 to `path`, created or truncated; see `writeFile(_:_:)`.
public func writeFile(_ path: String, text: String) throws(SystemError) {
  try writeFile(path, Array(text.utf8))
}
