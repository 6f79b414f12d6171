// SPDX-License-Identifier: MIT
// One configured plugin as the daemon keeps it: running or failed with a retry due, the
// descriptors the loop watches for it, and (for an output) the cues it has not been given yet.

import Configuration
import RetryKit

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
    /// Failed; retried at `retryAt` (monotonic ns), the next wait being `backoff.upcoming`.
    case failed(retryAt: Int64, backoff: RetryBackoff)
  }

  /// The waits of a plugin that keeps failing: 1 s, doubled on every failed retry up to 30 s;
  /// from the first again once it runs.
  static let retryWaits = RetryBackoff(initial: 1_000_000_000, maximum: 30_000_000_000)
  /// An output that is down keeps at most this many cues for its return.
  static let maximumPendingCues = 64

  let id: ID
  let instance: PluginInstance
  let role: Role
  /// Not started yet counts as a failure whose retry is due at once.
  var state: State = .failed(retryAt: 0, backoff: retryWaits)
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
      var backoff = Self.retryWaits
      let wait = backoff.failed()
      return (.failed(retryAt: now + wait, backoff: backoff), "failed")
    case .failed(_, var backoff):
      // Only a failure given the first wait is said: the first of a plugin never started (one
      // that ran was said as `failed`, and its retries wait longer).
      let wait = backoff.failed()
      let next = State.failed(retryAt: now + wait, backoff: backoff)
      return (next, wait == backoff.initial ? "cannot start" : nil)
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
