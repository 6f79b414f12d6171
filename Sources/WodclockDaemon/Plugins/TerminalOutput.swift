// SPDX-License-Identifier: MIT
// `terminal` output: the full-screen preview, or one plain line per visible change when stdout
// is not a terminal.

import Configuration
import DisplayKit
import HardwareKit
import MatrixKit
import WorkoutCore

/// The clock in a terminal: huge digits, the phase colour, round/set/rep, label, progress.
public final class TerminalOutput: OutputPlugin {
  public let id: String
  public let kind = TerminalOutput.kindName
  private let colorUse: ColorUse
  private let output: FileDescriptor
  private var fullScreen = false
  private var useColor = false
  private var lastLines: [String] = []
  private var lastPlainLine: String?
  private var logLine: String?
  private var lastFrame: OutputFrame?
  private var flashUntil: Int64 = 0
  private var context: PluginContext?
  /// Bytes of a frame the terminal has not taken yet (it is slow, or scrolling is stopped with
  /// Ctrl-S). They are finished before the next frame starts, so no escape sequence is cut.
  private var pending: [UInt8] = []
  private var wasNonBlocking = false
  /// How soon to try again when the terminal is not taking bytes.
  static let retryInterval: Int64 = 50_000_000

  public static let kindName = "terminal"

  /// When the view is drawn in colour.
  enum ColorUse: String, CaseIterable, Sendable {
    /// On a terminal, not in a pipe or file.
    case auto
    case always
    case never
  }

  static let color = Setting(
    "color", .choice(among: ColorUse.allCases), default: .auto, "use colours")

  public static let schema = PluginSchema(
    kind: kindName, direction: .output,
    summary: "a full-screen view in the daemon's terminal (one line per change when not a TTY)",
    settings: [color.spec])

  /// Alternate screen, hidden cursor; undone in `stop()`.
  private static let enterFullScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"
  private static let leaveFullScreen = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

  /// - Parameter output: where to draw; the daemon's stdout (another terminal in tests).
  public init(instance: PluginInstance, output: FileDescriptor = .standardOutput) throws {
    self.output = output
    id = instance.id
    colorUse = try instance.settings[Self.color]
  }

  public func start(_ context: PluginContext) throws {
    self.context = context
    // Writes must never block the daemon's loop: a stuck terminal or a full pipe costs this
    // output its frames, never the clock its time.
    wasNonBlocking = (try? output.isNonBlocking()) ?? false
    try? output.setNonBlocking(true)
    pending = []
    fullScreen = Terminal.isTTY(output)
    useColor = colorUse == .always || (colorUse == .auto && fullScreen)
    if fullScreen {
      write(Self.enterFullScreen)
      context.claimTerminal { [weak self] line in self?.showLogLine(line) }
    }
  }

  public func render(_ frame: OutputFrame) throws {
    lastFrame = frame
    if !pending.isEmpty {
      flush()
      // Still stuck: skip this frame; the latest one is drawn once the terminal drains.
      if !pending.isEmpty {
        lastLines = []
        return
      }
    }
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
    if !pending.isEmpty { return now + Self.retryInterval }
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
    // A call-up's countdown shows each second.
    if let lanes = frame.lanes,
      let next = HeatLines.nextCountdownChange(lanes, after: now / 1_000_000)
    {
      candidates.append(next * 1_000_000)
    }
    return candidates.min()
  }

  /// The terminal belongs to whoever ran wodclockd; nothing of it stays on.
  public func driveSafe() throws -> SafeState { .nothingToSecure }

  public func stop() {
    if fullScreen {
      // Leaving the alternate screen matters more than a half-drawn frame: drop the rest of it
      // and make sure the terminal gets its cursor back.
      pending = []
      try? output.setNonBlocking(false)
      _ = try? output.writeAll(Array(Self.leaveFullScreen.utf8))
      fullScreen = false
    }
    pending = []
    try? output.setNonBlocking(wasNonBlocking)
    context = nil
  }

  private func draw(_ frame: OutputFrame) {
    let size = Terminal.windowSize(output) ?? (rows: 24, columns: 80)
    let now = frame.monotonicNow
    let colonPeriod = Int64(max(frame.tokens.blink.colonPeriodMilliseconds, 1)) * 1_000_000
    let pausePeriod = Int64(max(frame.tokens.blink.pausePeriodMilliseconds, 1)) * 1_000_000
    var terminalFrame = TerminalFrame(
      snapshot: frame.snapshot, tokens: frame.tokens, words: frame.words,
      timeOfDay: TimeOfDay(
        hour: frame.civilTime.hour, minute: frame.civilTime.minute, second: frame.civilTime.second),
      colonVisible: frame.snapshot.mode != .clock || now % colonPeriod < colonPeriod / 2,
      pauseBlinkVisible: now % pausePeriod < pausePeriod / 2,
      flashing: now < flashUntil,
      status: "space start/pause · r reset · n/p next/prev · l lap · 1-9 preset · q quit",
      message: frame.overlay?.line ?? frame.message ?? logLine,
      headerClockFace: frame.clock.face)
    terminalFrame.lanes = frame.lanes.flatMap { Self.lanesLine($0, at: now) }
    let lines = TerminalView.render(
      terminalFrame, rows: size.rows, columns: size.columns, color: useColor)
    guard lines != lastLines else { return }
    lastLines = lines
    write("\u{1B}[H" + lines.joined(separator: "\r\n"))
  }

  /// A heat's line under the clock at monotonic `now`: its finished lanes by place, or its
  /// call-up (`HEAT 3 in 1:42 · 1 Anna · 2 Ben`); nil when it has nothing to show yet.
  static func lanesLine(_ board: LaneBoard, at now: Int64) -> String? {
    guard let heat = HeatLines(board, milliseconds: now / 1_000_000) else { return nil }
    guard let title = heat.title else { return heat.items.joined(separator: "  ") }
    let head = heat.countdown.map { "\(title) in \($0)" } ?? title
    return ([head] + heat.items).joined(separator: " · ")
  }

  private func showLogLine(_ line: String) {
    logLine = line
    lastLines = []
    if let frame = lastFrame { draw(frame) }
  }

  private static func flashes(_ cue: FrameCue) -> Bool {
    switch cue.kind {
    case .start, .roundStart, .finish, .capReached, .sideSwitch, .lap: true
    default: false
    }
  }

  private func write(_ text: String) {
    pending += Array(text.utf8)
    flush()
  }

  /// Writes what the terminal takes now, keeps the rest.
  private func flush() {
    while !pending.isEmpty {
      switch try? output.write(pending) {
      case .written(let count)?:
        pending.removeFirst(count)
      case .wouldBlock?:
        return
      case nil:
        // The terminal is gone (hung up): nothing more can be shown there.
        pending = []
        return
      }
    }
  }
}
