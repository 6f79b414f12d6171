// SPDX-License-Identifier: MIT
// `media:`: the directory of pictures and videos the TV shows beside the clock, a path beside
// the config file as every file setting is:
//
//   media: media          # /etc/wodclock/media beside /etc/wodclock/wodclock.yaml
//
// The web interface serves its JPEG, PNG, GIF, WebM and MP4 files at /media/NAME; a workout, a
// step or a whiteboard line names one. `--check-config` says when the directory is missing or
// cannot be read.

import ConfigFormat

extension SystemLookup {
  /// What looking at a directory the configuration names found.
  public enum DirectoryRead: Sendable, Equatable {
    /// It is a directory whose entries can be listed.
    case readable
    /// Something else is there (a file).
    case notADirectory
    /// It cannot be listed: the system's words and the errno name (`ENOENT`, `EACCES`).
    case failed(reason: String, errnoName: String)
  }
}

extension Loader {
  /// The `media:` setting: the directory, resolved beside the config file. On the machine
  /// (`--check-config`), a directory that is not there or cannot be listed is an error at the
  /// setting's line: the TV would show none of its files.
  mutating func readMedia(_ node: ConfigNode?) -> ConfigFileReference? {
    guard let node, let text = checker.text(node, key: "media") else { return nil }
    guard !text.isEmpty else {
      checker.error(
        "the media directory is empty", at: node.range,
        hint: "name the directory of the pictures and videos, such as 'media: media', or "
          + "remove the key")
      return nil
    }
    let reference = ConfigFileReference(
      setting: text, path: ConfigFilePath.resolve(text, besideConfig: file))
    guard let look = system?.directory else { return reference }
    switch look(reference.path) {
    case .readable:
      break
    case .notADirectory:
      checker.error(
        "the media directory '\(reference.path)' is not a directory", at: node.range,
        hint: "name the directory that holds the pictures and videos, not one of them")
    case .failed(let reason, let errnoName):
      let hint =
        errnoName == "ENOENT"
        ? "create it ('mkdir \(reference.path)') and put the JPEG, PNG, GIF, WebM and MP4 "
          + "files in it, or correct the path (a relative one is read beside the config file)"
        : "the daemon's user (wodclock) must be able to list it: 'chmod 755 \(reference.path)'"
      checker.error(
        "cannot read the media directory '\(reference.path)': \(reason) (\(errnoName))",
        at: node.range, hint: hint)
    }
    return reference
  }
}
