// SPDX-License-Identifier: MIT
// The conversation with systemd (sd_notify(3)): READY=1, RELOADING=1, STOPPING=1, a STATUS=
// line that follows what the clock shows, and the watchdog's pings.

import DisplayKit
import HardwareKit
import WorkoutCore

/// What the service manager is told, and when. Silent when the daemon does not run under one
/// (no `NOTIFY_SOCKET`).
final class SystemdSession {
  private let notifier: SystemdNotifier
  private let clock: DaemonClock
  /// Half the unit's `WatchdogSec=` (sd_watchdog_enabled(3)), nil without a watchdog.
  let watchdogInterval: Int64?
  private var nextWatchdogPing: Int64 = 0
  private var lastStatus = ""
  /// Said after the status while it holds ("reload failed, running the previous config").
  var note: String?

  init(notifier: SystemdNotifier, watchdogInterval: Int64?, clock: DaemonClock) {
    self.notifier = notifier
    self.watchdogInterval = watchdogInterval
    self.clock = clock
  }

  /// The outputs are up: `READY=1` with the status.
  func ready(_ snapshot: WorkoutSnapshot) {
    lastStatus = text(of: snapshot)
    _ = notifier.ready(status: lastStatus)
  }

  func reloading() { _ = notifier.reloading(monotonicNanoseconds: clock.monotonic()) }

  func stopping() { _ = notifier.stopping() }

  /// Sends `STATUS=` when what it says changed since the last one. The snapshot is only made
  /// under a service manager.
  func update(_ snapshot: @autoclosure () -> WorkoutSnapshot) {
    guard notifier.isEnabled else { return }
    let status = text(of: snapshot())
    guard status != lastStatus else { return }
    lastStatus = status
    _ = notifier.status(status)
  }

  /// Pings the watchdog when a ping is due: the loop only gets here while it runs, so a stuck
  /// loop is noticed and restarted.
  func pingWatchdog(at now: Int64) {
    guard let interval = watchdogInterval, now >= nextWatchdogPing else { return }
    _ = notifier.watchdog()
    nextWatchdogPing = now + interval
  }

  /// When the next watchdog ping is due, if there is a watchdog.
  var nextWakeUp: Int64? { watchdogInterval == nil ? nil : nextWatchdogPing }

  /// `running fran 3:12 R 2/5`, and the note.
  private func text(of snapshot: WorkoutSnapshot) -> String {
    var text = "\(snapshot.runState.rawValue) \(snapshot.presetName)"
    if let display = snapshot.display { text += " " + TimeText.format(display) }
    if let round = snapshot.round, snapshot.runState != .idle { text += " R \(round)" }
    if let note { text += "; " + note }
    return text
  }
}
