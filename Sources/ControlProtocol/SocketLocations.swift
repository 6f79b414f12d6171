// SPDX-License-Identifier: MIT
// Where the control socket is: the path wodclockd listens on and the paths wodclockctl tries,
// decided in one place from the environment given, so the two always agree.

/// The control socket's default paths for an environment (`RUNTIME_DIRECTORY`, which systemd
/// sets for the service; `XDG_RUNTIME_DIR`; `WODCLOCK_SOCKET`) and a user id.
public struct SocketLocations {
  /// The environment variable named, nil when it is not set.
  public var environment: (String) -> String?
  public var userID: UInt32

  public init(environment: @escaping (String) -> String?, userID: UInt32) {
    self.environment = environment
    self.userID = userID
  }

  /// The system service's socket (`RuntimeDirectory=wodclock`).
  public static let service = "/run/wodclock/wodclockd.sock"

  /// Where wodclockd listens without `--socket`: the service's runtime directory, else the
  /// user's, else one in /tmp named for the user.
  public var daemonSocket: String {
    if let runtime = set("RUNTIME_DIRECTORY") { return Self.firstPath(runtime) + "/wodclockd.sock" }
    if let runtime = set("XDG_RUNTIME_DIR") { return runtime + "/wodclockd.sock" }
    return temporarySocket
  }

  /// Where wodclockctl looks without `--socket`, in order: `WODCLOCK_SOCKET` alone when it is
  /// set, else the system daemon's socket first, then the user's.
  public var clientCandidates: [String] {
    if let explicit = set("WODCLOCK_SOCKET") { return [explicit] }
    var candidates = [Self.service]
    if let runtime = set("XDG_RUNTIME_DIR") { candidates.append(runtime + "/wodclockd.sock") }
    candidates.append(temporarySocket)
    return candidates
  }

  private var temporarySocket: String { "/tmp/wodclockd-\(userID).sock" }

  private func set(_ name: String) -> String? {
    guard let value = environment(name), !value.isEmpty else { return nil }
    return value
  }

  /// systemd passes several directories separated by colons; the first is ours.
  public static func firstPath(_ list: String) -> String {
    String(list.split(separator: ":").first ?? Substring(list))
  }
}
