// SPDX-License-Identifier: MIT
// What the loop waits on, by name: every descriptor registered with the poller is a source,
// and a ready token is looked up, not decoded.

import HardwareKit

/// A descriptor the loop waits on, and who it is for.
enum EventSource: Hashable {
  /// The deadline timer (the engine's next second, a cue, a plugin's wake-up).
  case timer
  /// The signalfd: SIGHUP, SIGTERM, SIGINT, SIGWINCH.
  case signals
  /// The command socket's listening socket.
  case commandListener
  /// One command socket client, by the server's number for it.
  case commandClient(UInt64)
  /// The web server's own epoll descriptor: readable when a web client needs attention.
  case web
  /// The link's connection to its MQTT broker (it changes with every connection).
  case link
  /// The child looking the MQTT broker's name up.
  case linkLookup
  /// A descriptor a plugin asked to be watched.
  case plugin(PluginSlot.ID, FileDescriptor)
}

/// The poller's registrations: hands out a token per source and says which source a ready
/// token is for. There is no limit on how many descriptors a part may have watched.
final class EventSources {
  private let poller: EventPoller
  private var sources: [UInt64: EventSource] = [:]
  private var tokens: [EventSource: UInt64] = [:]
  private var descriptors: [EventSource: FileDescriptor] = [:]
  private var nextToken: UInt64 = 1

  init(poller: EventPoller) { self.poller = poller }

  /// Starts watching `descriptor` for `interest`, reported as `source`. Watching a source that
  /// is watched already changes its interest.
  func watch(
    _ descriptor: FileDescriptor, for interest: EventPoller.Interest, as source: EventSource
  ) throws(SystemError) {
    if let token = tokens[source] {
      try poller.modify(descriptor, token: token, interest: interest)
      return
    }
    let token = nextToken
    try poller.register(descriptor, token: token, interest: interest)
    nextToken += 1
    sources[token] = source
    tokens[source] = token
    descriptors[source] = descriptor
  }

  /// Stops watching `source`. Call it before its descriptor is closed: epoll tracks the open
  /// file, not the number (epoll(7), Q6).
  func unwatch(_ source: EventSource) {
    guard let token = tokens.removeValue(forKey: source) else { return }
    sources[token] = nil
    if let descriptor = descriptors.removeValue(forKey: source) {
      try? poller.unregister(descriptor)
    }
  }

  /// Forgets `source` without telling epoll: for a descriptor a library closed by itself
  /// (libmosquitto closes its socket when a connection ends), which the kernel took out of the
  /// epoll set when it closed (epoll(7), Q6); asking to remove it would fail with EBADF, or
  /// remove a new descriptor that got the same number.
  func forget(_ source: EventSource) {
    guard let token = tokens.removeValue(forKey: source) else { return }
    sources[token] = nil
    descriptors[source] = nil
  }

  /// The source a ready token belongs to; nil for one unwatched since the wait returned.
  func source(of token: UInt64) -> EventSource? { sources[token] }

  /// How many descriptors are watched (for tests and `stats`).
  var count: Int { sources.count }
}
