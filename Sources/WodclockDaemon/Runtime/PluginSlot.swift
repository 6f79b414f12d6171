// SPDX-License-Identifier: MIT
// One configured plugin as the daemon keeps it: running or failed with a retry due, the
// descriptors the loop watches for it, and (for an output) the cues it has not been given yet.

import Configuration

/// A plugin instance and what the daemon knows about it. The same for inputs and outputs.
final class PluginSlot {
  /// A slot's number, unique for the daemon's life (a restarted plugin gets a new slot).
  typealias ID = Int

  /// What the plugin is to the daemon.
  enum Role {
    case output(any OutputPlugin)
    case input(any InputPlugin)
  }

  enum State: Equatable {
    case running
    /// Failed; retried at `retryAt` (monotonic ns), the next wait being `backoff`.
    case failed(retryAt: Int64, backoff: Int64)
  }

  /// The first wait after a failure, doubled on every failed retry up to the maximum.
  static let initialBackoff: Int64 = 1_000_000_000
  static let maximumBackoff: Int64 = 30_000_000_000
  /// An output that is down keeps at most this many cues for its return.
  static let maximumPendingCues = 64

  let id: ID
  let instance: PluginInstance
  let role: Role
  /// Not started yet counts as a failure whose retry is due at once.
  var state: State = .failed(retryAt: 0, backoff: initialBackoff)
  /// Cues an output missed while it was down, for when it is back.
  var pendingCues: [FrameCue] = []
  /// What the loop watches for the plugin now.
  var watched: [WatchedDescriptor] = []

  init(id: ID, instance: PluginInstance, role: Role) {
    self.id = id
    self.instance = instance
    self.role = role
  }

  var plugin: any Plugin {
    switch role {
    case .output(let output): output
    case .input(let input): input
    }
  }

  var output: (any OutputPlugin)? {
    if case .output(let output) = role { return output }
    return nil
  }

  /// "output" or "input", for the log.
  var direction: String {
    if case .output = role { return "output" }
    return "input"
  }

  var isRunning: Bool { state == .running }

  /// The state after a failure at `now`, and how to log it: once when a running plugin fails
  /// and once when it first cannot start; the retries after that are quiet.
  func failure(at now: Int64) -> (next: State, wording: String?) {
    switch state {
    case .running:
      return (
        .failed(retryAt: now + Self.initialBackoff, backoff: Self.initialBackoff * 2), "failed"
      )
    case .failed(_, let backoff):
      let next = State.failed(
        retryAt: now + backoff, backoff: min(backoff * 2, Self.maximumBackoff))
      return (next, backoff == Self.initialBackoff ? "cannot start" : nil)
    }
  }

  /// Keeps `cues` for the output's return, the newest ones when there are too many.
  func keep(_ cues: [FrameCue]) {
    pendingCues += cues
    if pendingCues.count > Self.maximumPendingCues {
      pendingCues.removeFirst(pendingCues.count - Self.maximumPendingCues)
    }
  }

  /// The cues kept for an output that is back at `now`: those due within `staleAfter` real
  /// nanoseconds. Older ones are stale by the engine's own rule and are dropped, not played in
  /// a burst for moments long over.
  func takePendingCues(at now: Int64, staleAfter: Int64) -> [FrameCue] {
    defer { pendingCues = [] }
    return pendingCues.filter { now - $0.due <= staleAfter }
  }
}
