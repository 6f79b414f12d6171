// SPDX-License-Identifier: MIT
// `terminal` output: the full-screen preview, or one plain line per visible change when stdout
// is not a terminal.

import Configuration
import DisplayKit
import HardwareKit
import WorkoutCore

/// The clock in a terminal: huge digits, the phase colour, round/set/rep, label, progress.
public final class TerminalOutput: OutputPlugin {
  public let id: String
  public let kind = "terminal"
  private let colorSetting: String
  private let output = FileDescriptor.standardOutput
  private var fullScreen = false
  private var useColor = false
  private var lastLines: [String] = []
  private var lastPlainLine: String?
  private var logLine: String?
  private var lastFrame: OutputFrame?
  private var flashUntil: Int64 = 0
  private var context: PluginContext?

  public static let schema = PluginSchema(
    kind: "terminal", direction: .output,
    summary: "a full-screen view in the daemon's terminal (one line per change when not a TTY)",
    settings: [
      SettingSpec(
        "color", .choice(["auto", "always", "never"]), default: .string("auto"), "use colours")
    ])

  /// Alternate screen, hidden cursor; undone in `stop()`.
  private static let enterFullScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
  private static let leaveFullScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  public init(instance: PluginInstance) {
    id = instance.id
    colorSetting = instance.settings.string("color") ?? "auto"
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    fullScreen = Terminal.isTTY(output)
    useColor = colorSetting == "always" || (colorSetting == "auto" && fullScreen)
    if fullScreen {
      write(Self.enterFullScreen)
      context.claimTerminal { [weak self] line in self?.showLogLine(line) }
    }
  }

  public func render(_ frame: OutputFrame) throws {
    lastFrame = frame
    if !frame.cues.isEmpty {
      let flash = Int64(frame.tokens.blink.cueFlashMilliseconds) * 1_000_000
      if frame.cues.contains(where: Self.flashes) { flashUntil = frame.monotonicNow + flash }
    }
    if fullScreen {
      draw(frame)
    } else {
      let time = TimeOfDay(
        hour: frame.civilTime.hour, minute: frame.civilTime.minute, second: frame.civilTime.second)
      let line = PlainLine.render(frame.snapshot, words: frame.words, timeOfDay: time)
      if line != lastPlainLine {
        lastPlainLine = line
        write(line + "\n")
      }
    }
  }

  public func nextWakeUp(after now: Int64) -> Int64? {
    guard fullScreen, let frame = lastFrame else { return nil }
    // Blinks and flashes need frames between the engine's own deadlines.
    var candidates: [Int64] = []
    if flashUntil > now { candidates.append(flashUntil) }
    let state = frame.snapshot.runState
    let period: Int
    if state == .paused {
      period = frame.tokens.blink.pausePeriodMilliseconds
    } else if frame.snapshot.mode == .clock {
      period = frame.tokens.blink.colonPeriodMilliseconds
    } else {
      period = 0
    }
    if period > 0 {
      let half = Int64(period) * 500_000
      candidates.append((now / half + 1) * half)
    }
    return candidates.min()
  }

  public func stop() {
    if fullScreen {
      write(Self.leaveFullScreen)
      fullScreen = false
    }
    context = nil
  }

  private func draw(_ frame: OutputFrame) {
    let size = Terminal.windowSize(output) ?? (rows: 24, columns: 80)
    let now = frame.monotonicNow
    let colonPeriod = Int64(max(frame.tokens.blink.colonPeriodMilliseconds, 1)) * 1_000_000
    let pausePeriod = Int64(max(frame.tokens.blink.pausePeriodMilliseconds, 1)) * 1_000_000
    let terminalFrame = TerminalFrame(
      snapshot: frame.snapshot, tokens: frame.tokens, words: frame.words,
      timeOfDay: TimeOfDay(
        hour: frame.civilTime.hour, minute: frame.civilTime.minute, second: frame.civilTime.second),
      colonVisible: frame.snapshot.mode != .clock || now % colonPeriod < colonPeriod / 2,
      pauseBlinkVisible: now % pausePeriod < pausePeriod / 2,
      flashing: now < flashUntil,
      status: "space start/pause · r reset · n/p next/prev · l lap · 1-9 preset · q quit",
      message: frame.message ?? logLine,
      headerClockFace: frame.clock.face)
    let lines = TerminalView.render(
      terminalFrame, rows: size.rows, columns: size.columns, color: useColor)
    guard lines != lastLines else { return }
    lastLines = lines
    write("\u{1B}[H" + lines.joined(separator: "\r\n"))
  }

  private func showLogLine(_ line: String) {
    logLine = line
    lastLines = []
    if let frame = lastFrame { draw(frame) }
  }

  private static func flashes(_ cue: Cue) -> Bool {
    switch cue.kind {
    case .start, .roundStart, .finish, .capReached, .sideSwitch, .lap: true
    default: false
    }
  }

  private func write(_ text: String) {
    // A terminal that cannot keep up with a few hundred bytes a second is not worth a retry
    // loop: what is not written now is replaced by the next frame.
    _ = try? output.writeAll(Array(text.utf8))
  }
}
