// SPDX-License-Identifier: MIT
// What `wodclockctl` says when it cannot reach the daemon: which of the three usual cases it is
// (no socket, a socket closed to this user, a socket with no daemon behind it) and what to do,
// never "is it running?" to an owner whose daemon runs.

import HardwareKit

/// Why the control socket could not be used, said as what to do about it.
struct ConnectionAdvice: Equatable {
  var message: String
  var hints: [String]
  /// 77 (EX_NOPERM) for a socket closed to the user, 69 (EX_UNAVAILABLE) otherwise.
  var exitCode: Int32 = ClientMain.ExitCode.unavailable

  /// What is known about the socket and the caller where the connection failed; gathered by
  /// ``gather(socket:)``, given by hand in tests.
  struct Facts: Equatable {
    /// The caller: effective user id, name, the groups this login has and those the group
    /// database gives the user (the next login's).
    var userID: UInt32
    var userName: String?
    var loginGroups: Set<UInt32>
    var configuredGroups: Set<UInt32>
    /// The socket's directory and the socket itself, where they could be read.
    var directory: FileAttributes?
    var socket: FileAttributes?
    /// The names of the groups that matter, by id.
    var groupNames: [UInt32: String]
  }

  static func explain(_ error: SystemError, socket path: String, facts: Facts) -> ConnectionAdvice {
    let start =
      "start it with `sudo systemctl start wodclockd` (or `make demo` in the source tree), or "
      + "pass --socket PATH"
    switch error.errno {
    case .permissionDenied, .notPermitted:
      return closed(socket: path, facts: facts)
    case .connectionRefused:
      return ConnectionAdvice(
        message: "a control socket is at \(path), but no daemon is listening on it: a daemon "
          + "left it behind when it stopped without removing it (a crash or a kill -9)",
        hints: [
          "`systemctl status wodclockd` says whether it runs and why it stopped; starting it "
            + "replaces the stale socket: `sudo systemctl start wodclockd`"
        ])
    case .noSuchFile, .notADirectory:
      return ConnectionAdvice(
        message: "there is no control socket at \(path): the clock daemon is not running, or it "
          + "listens elsewhere",
        hints: [start])
    default:
      return ConnectionAdvice(
        message: "the clock daemon is not reachable: \(error)", hints: [start])
    }
  }

  /// EACCES: the directory or the socket is closed to the caller. Names the group that opens
  /// it and whether the user is in it already (only not in this login) or must join it.
  private static func closed(socket path: String, facts: Facts) -> ConnectionAdvice {
    var advice = closedReason(socket: path, facts: facts)
    advice.exitCode = ClientMain.ExitCode.noPermission
    return advice
  }

  private static func closedReason(socket path: String, facts: Facts) -> ConnectionAdvice {
    let directoryPath = directoryOf(path)
    let blocking: (path: String, attributes: FileAttributes, what: String)?
    if let directory = facts.directory, !allows(directory, bit: 0o1, facts) {
      blocking = (directoryPath, directory, "directory")
    } else if let socket = facts.socket, !allows(socket, bit: 0o2, facts) {
      blocking = (path, socket, "socket")
    } else {
      blocking = nil
    }
    let user = facts.userName.map { "'\($0)'" } ?? "\(facts.userID)"
    let name = facts.userName ?? "$USER"
    guard let blocking else {
      return ConnectionAdvice(
        message: "permission denied on the control socket \(path)",
        hints: ["run the command with sudo, or as a member of the socket's group"])
    }
    let mode = "mode 0" + String(blocking.attributes.permissions & 0o777, radix: 8)
    let group = blocking.attributes.groupID
    let bit: UInt32 = blocking.what == "directory" ? 0o010 : 0o020
    guard blocking.attributes.permissions & bit != 0, let groupName = facts.groupNames[group]
    else {
      return ConnectionAdvice(
        message: "permission denied: the control socket's \(blocking.what) \(blocking.path) "
          + "(\(mode)) is open to its owner only",
        hints: [
          "run the command with sudo, or set `daemon: {socket_group: GROUP}` in the "
            + "configuration to a group user \(user) is in"
        ])
    }
    if facts.configuredGroups.contains(group) {
      return ConnectionAdvice(
        message: "permission denied on the control socket \(path): user \(user) was added to "
          + "group '\(groupName)', but this login started before and does not have it yet",
        hints: [
          "log out and in again (or run `newgrp \(groupName)` in this shell); `id` lists the "
            + "groups this login has"
        ])
    }
    return ConnectionAdvice(
      message: "permission denied on the control socket \(path): it is open to group "
        + "'\(groupName)' (\(blocking.what) \(blocking.path), \(mode)), and user \(user) is not "
        + "in it",
      hints: [
        "let the user use the clock with `sudo adduser \(name) \(groupName)`, then log out and "
          + "in again; or run the command with sudo"
      ])
  }

  /// Whether the caller may do `bit` (0o1 search, 0o2 write, 0o4 read) on a file, by the
  /// owner, group and other classes the kernel checks in that order (path_resolution(7)).
  private static func allows(_ attributes: FileAttributes, bit: UInt32, _ facts: Facts) -> Bool {
    if facts.userID == 0 { return true }
    let permissions = attributes.permissions
    if attributes.userID == facts.userID { return permissions & (bit << 6) != 0 }
    if facts.loginGroups.contains(attributes.groupID) { return permissions & (bit << 3) != 0 }
    return permissions & bit != 0
  }

  private static func directoryOf(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Reads the facts for a connection to `path` that failed.
  static func gather(socket path: String) -> Facts {
    let userID = UserAccounts.effectiveUserID
    let user = UserAccounts.user(userID)
    let directory = try? FileSystem.attributes(directoryOf(path))
    let socket = try? FileSystem.attributes(path)
    var names: [UInt32: String] = [:]
    for group in [directory?.groupID, socket?.groupID].compactMap({ $0 }) {
      names[group] = UserAccounts.groupName(of: group)
    }
    return Facts(
      userID: userID, userName: user?.name, loginGroups: UserAccounts.processGroups(),
      configuredGroups: user.map {
        UserAccounts.configuredGroups(ofUser: $0.name, primary: $0.primaryGroup)
      } ?? [],
      directory: directory, socket: socket, groupNames: names)
  }
}
