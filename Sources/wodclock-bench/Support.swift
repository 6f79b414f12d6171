// SPDX-License-Identifier: MIT
// What the daemon benchmarks share: errors, Ctrl-C handling, percentiles, plugins made from a
// config entry (scratch directories are the tests' `ScratchDirectory`).

import ConfigFormat
import Configuration
import Glibc
import HardwareKit
import Synchronization
import WodclockDaemon

/// A benchmark that cannot go on, with a message for the person running it.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The plugin instance of one entry under `section` (`inputs` or `outputs`), written as in a
/// config file and checked by the daemon's loader and schemas, as the daemon gets it.
func pluginInstance(_ section: String, _ entry: String) throws -> PluginInstance {
  let text = """
    presets:
      bench: {mode: amrap, time: 10m}
    \(section): [\(entry)]
    """
  let result = ConfigurationLoader.load(
    text: text, file: "bench.yaml", plugins: PluginCatalog.schemas)
  guard let configuration = result.configuration else {
    throw BenchmarkError(result.diagnostics.map(\.message).joined(separator: "; "))
  }
  return section == "inputs" ? configuration.inputs[0] : configuration.outputs[0]
}

/// Ctrl-C, SIGTERM and SIGHUP while a benchmark runs.
///
/// The handler only records the signal. The long waits check it at least once a second and
/// throw, so the `defer` blocks that stop the daemon, the load and remove the scratch directory
/// still run; killing the bench outright would leave a daemon running. The handler is reset
/// after the first signal, so a second Ctrl-C ends the bench at once.
enum Interruption {
  private static let received = Atomic<Int32>(0)

  static func install() {
    // Touch the atomic first, so its lazy initialisation never runs inside the handler.
    _ = received.load(ordering: .relaxed)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
      Interruption.received.store(number, ordering: .relaxed)
    }
    sigemptyset(&action.sa_mask)
    // SA_RESETHAND is 0x80000000, the sign bit of the C int sa_flags.
    action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
    for number in [SIGINT, SIGTERM, SIGHUP] { sigaction(number, &action, nil) }
  }

  static var requested: Bool { received.load(ordering: .relaxed) != 0 }

  /// Throws when a signal asked the bench to stop.
  static func check() throws {
    let number = received.load(ordering: .relaxed)
    if number != 0 { throw BenchmarkError("interrupted by \(Signal(rawValue: number))") }
  }

  /// Sleeps `milliseconds`, waking at least every 200 ms to see whether to stop.
  static func sleep(milliseconds: Int) throws {
    let deadline = MonotonicClock.now() + Int64(milliseconds) * 1_000_000
    while true {
      try check()
      let remaining = deadline - MonotonicClock.now()
      if remaining <= 0 { return }
      _ = poll(nil, 0, Int32(min((remaining + 999_999) / 1_000_000, 200)))
    }
  }
}

/// Nearest-rank percentiles, the method the daemon's `stats` uses, so the two sides of a
/// comparison are computed alike.
struct Percentiles {
  var count: Int
  var p50: Double
  var p99: Double
  var max: Double
  /// How many values exceed 1000 (a millisecond, for figures in microseconds).
  var overOneMillisecond: Int

  init?(_ values: [Double]) {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    func rank(_ percent: Int) -> Double {
      sorted[min(sorted.count - 1, Swift.max(0, (sorted.count * percent + 99) / 100 - 1))]
    }
    count = sorted.count
    p50 = rank(50)
    p99 = rank(99)
    max = sorted[sorted.count - 1]
    overOneMillisecond = sorted.count { $0 > 1_000 }
  }

  init(count: Int, p50: Double, p99: Double, max: Double, overOneMillisecond: Int) {
    self.count = count
    self.p50 = p50
    self.p99 = p99
    self.max = max
    self.overOneMillisecond = overOneMillisecond
  }

  /// The share of values over a millisecond, in percent.
  var percentOverOneMillisecond: Double {
    count == 0 ? 0 : Double(overOneMillisecond) * 100 / Double(count)
  }
}
