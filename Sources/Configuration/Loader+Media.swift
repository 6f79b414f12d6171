// SPDX-License-Identifier: MIT
// `media:`: the directory of pictures and videos the TV shows beside the clock, a path beside
// the config file as every file setting is:
//
//   media: media          # /etc/wodclock/media beside /etc/wodclock/wodclock.yaml
//
// The web interface serves its JPEG, PNG, GIF, WebM and MP4 files at /media/NAME; a workout, a
// step or a whiteboard line names one. `--check-config` says when the directory is missing or
// cannot be read, and where a named file is not in it.

import ConfigFormat
import WorkoutCore

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

  /// Notes a media file named at `range`, to be looked for in the media directory.
  mutating func noteMedia(_ name: String, at range: SourceRange) {
    guard !mediaReferences.contains(where: { $0.name == name }) else { return }
    mediaReferences.append((name, range))
  }

  /// Notes the media files a plan names (the whole workout's and its lines').
  mutating func noteMedia(of plan: WorkoutPlan, at range: SourceRange) {
    for name in [plan.media] + plan.whiteboard.map(\.media) {
      if let name { noteMedia(name, at: range) }
    }
  }

  /// Says where a named media file is not in the media directory, or where a file is named
  /// with no directory to look in. A warning: the clock runs, and the TV shows the whiteboard
  /// without the picture. Looked for only on the machine (`--check-config`, a start, a reload).
  mutating func checkMediaReferences(in directory: ConfigFileReference?, setting: ConfigNode?) {
    guard system != nil, let first = mediaReferences.first else { return }
    guard let directory else {
      checker.warning(
        "'\(first.name)' is named as a picture or video, but the config has no media directory",
        at: first.range,
        hint: "add 'media: media' (a directory beside this file) and put the files in it")
      return
    }
    guard let read = system?.readFile, system?.directory?(directory.path) == .readable else {
      return
    }
    for reference in mediaReferences {
      guard case .failed(let reason, let errnoName) = read(directory.path + "/" + reference.name, 1)
      else { continue }
      if errnoName == "ENOENT" {
        checker.warning(
          "the media file '\(reference.name)' is not in the media directory '\(directory.path)'",
          at: reference.range,
          hint: "copy it there, or name one of the files there (the name is matched exactly, "
            + "capitals and all)")
      } else {
        checker.warning(
          "cannot read the media file '\(directory.path)/\(reference.name)': \(reason) "
            + "(\(errnoName))", at: reference.range,
          hint: "the daemon's user (wodclock) must be able to read it: "
            + "'chmod 644 \(directory.path)/\(reference.name)'")
      }
    }
  }
}
