// SPDX-License-Identifier: MIT
// Driving a voice synthesis job as the daemon's loop would: wait until one of its descriptors
// is readable, hand it what is ready, again until it has finished.

public import HardwareKit

/// Runs `job` to its end, on the real clock, waiting at most `timeoutMilliseconds` (then the
/// job is handed its deadline, as the loop's timer would); returns its outcome and how many
/// times it was handed what was ready.
public func finish(_ job: VoiceSynthesisJob, timeoutMilliseconds: Int = 60_000) throws -> (
  outcome: Result<[String: SpokenPCM], VoiceSynthesisError>, turns: Int
) {
  let poller = try EventPoller()
  defer { try? poller.close() }
  for (token, descriptor) in job.descriptors.enumerated() {
    try poller.register(descriptor, token: UInt64(token))
  }
  defer { for descriptor in job.descriptors { try? poller.unregister(descriptor) } }
  let giveUp = MonotonicClock.now() + Int64(timeoutMilliseconds) * 1_000_000
  var turns = 0
  while true {
    let remaining = max(0, (giveUp - MonotonicClock.now()) / 1_000_000)
    _ = try poller.wait(timeoutMilliseconds: Int32(min(remaining, 1000)))
    let now = MonotonicClock.now()
    turns += 1
    let progress = job.handleReadable(at: now >= giveUp ? max(now, job.deadline) : now)
    if case .finished(let outcome) = progress { return (outcome, turns) }
  }
}
