// SPDX-License-Identifier: MIT
// The terminal preview: the whole clock as lines of text, big digits included.

import WorkoutCore

/// Everything one terminal frame shows. The caller owns every clock: it passes the time of day
/// and the blink phases, so the same inputs always draw the same frame.
public struct TerminalFrame: Sendable, Hashable {
  /// The workout to draw.
  public var snapshot: WorkoutSnapshot
  /// Colours of every role.
  public var tokens: DesignTokens
  /// Words in the gym's language.
  public var words: DisplayWords
  /// The wall-clock time: shown huge by the clock mode, small in the header otherwise.
  public var timeOfDay: TimeOfDay
  /// Whether colons are lit in this blink phase. Pass true to keep them steady.
  public var colonVisible: Bool
  /// Whether paused digits are lit in this blink phase (see ``BlinkRates``).
  public var pauseBlinkVisible: Bool
  /// A cue fired within the token's flash duration: the phase word is drawn inverted.
  public var flashing: Bool
  /// A help line for the bottom row ("space start/pause · n next · q quit").
  public var status: String?
  /// Something that needs attention now ("press r again to reset").
  public var message: String?
  /// A heat's line under the clock: the finished lanes (`L3 7:42  L1 7:50`), or its call-up.
  public var lanes: String?
  /// How the header shows the time of day when the workout is not the clock mode.
  public var headerClockFace: ClockFace

  public init(
    snapshot: WorkoutSnapshot, tokens: DesignTokens = .standard, words: DisplayWords = .english,
    timeOfDay: TimeOfDay, colonVisible: Bool = true, pauseBlinkVisible: Bool = true,
    flashing: Bool = false, status: String? = nil, message: String? = nil,
    headerClockFace: ClockFace = ClockFace()
  ) {
    self.snapshot = snapshot
    self.tokens = tokens
    self.words = words
    self.timeOfDay = timeOfDay
    self.colonVisible = colonVisible
    self.pauseBlinkVisible = pauseBlinkVisible
    self.flashing = flashing
    self.status = status
    self.message = message
    self.headerClockFace = headerClockFace
  }
}

/// Renders a ``TerminalFrame`` into lines. Pure: no IO, no cursor movement; the caller writes
/// the lines after a home-cursor sequence.
public enum TerminalView: Sendable {
  /// Exactly `rows` lines of exactly `columns` visible cells. With `color` the cells carry 24-bit
  /// SGR colours from the tokens (background painted too); without it there are no escapes.
  ///
  /// Layout, top to bottom: header (preset, time of day, mode title), phase word, the main time
  /// in the biggest block font that fits, the round/set/rep line, the label, the tempo track,
  /// the segment progress bar, a message and the status line. When rows run short the least
  /// important lines go first; the time is always shown.
  public static func render(_ input: TerminalFrame, rows: Int, columns: Int, color: Bool)
    -> [String]
  {
    guard rows > 0 else { return [] }
    guard columns > 0 else { return Array(repeating: "", count: rows) }
    let layout = Layout(frame: input, rows: rows, columns: columns)
    return layout.rows().map {
      $0.fitted(to: columns, fill: layout.base).rendered(color: color)
    }
  }

  /// Cells a rendered line takes on screen (escape sequences take none).
  public static func visibleWidth(_ line: String) -> Int { Cells.visibleWidth(of: line) }
}

/// One frame's layout decisions.
private struct Layout {
  enum Piece: CaseIterable {
    case header
    case phase
    case rounds
    case label
    case lanes
    case tempo
    case progress
    case message
    case status
  }

  /// The order lines are given up when rows run short.
  static let dropOrder: [Piece] = [
    .status, .progress, .label, .header, .tempo, .rounds, .lanes, .phase, .message,
  ]

  /// A block-font choice for the main time.
  struct Digits {
    var font: BlockFont
    var scaleX: Int
    var scaleY: Int
    var width: Int
    var height: Int { font.height * scaleY }
  }

  let frame: TerminalFrame
  let snapshot: WorkoutSnapshot
  let rowCount: Int
  let columns: Int
  let base: CellStyle
  let caption: CellStyle
  let accent: CellStyle
  let isClock: Bool
  let mainTime: String
  let phaseText: String

  init(frame: TerminalFrame, rows: Int, columns: Int) {
    self.frame = frame
    self.snapshot = frame.snapshot
    self.rowCount = rows
    self.columns = columns
    let tokens = frame.tokens
    let background = tokens.color(for: .background)
    base = CellStyle(foreground: tokens.color(for: .caption), background: background)
    caption = base
    accent = CellStyle(
      foreground: tokens.color(for: tokens.role(for: frame.snapshot)), background: background,
      bold: true)
    isClock = frame.snapshot.mode == .clock
    let time = frame.timeOfDay
    let face = frame.snapshot.clockFace ?? ClockFace()
    if isClock {
      mainTime = TimeText.clockDigits(
        hour: time.hour, minute: time.minute, second: time.second, face: face)
      phaseText = TimeText.meridiem(hour: time.hour, face: face) ?? ""
    } else {
      mainTime = frame.snapshot.display.map(TimeText.format) ?? "--:--"
      phaseText = Cells.sanitized(frame.words.word(for: frame.snapshot))
    }
  }

  private func style(_ role: Role, bold: Bool = false) -> CellStyle {
    CellStyle(
      foreground: frame.tokens.color(for: role), background: base.background, bold: bold)
  }

  private var digitsLit: Bool { snapshot.runState != .paused || frame.pauseBlinkVisible }

  private func isPresent(_ piece: Piece) -> Bool {
    switch piece {
    case .header: true
    case .status: frame.status.map { !$0.isEmpty } == true
    case .phase: !phaseText.isEmpty
    case .rounds: !TimeText.rounds(snapshot, words: frame.words).isEmpty
    case .label: snapshot.label.map { !$0.isEmpty } == true
    case .lanes: frame.lanes.map { !$0.isEmpty } == true
    case .tempo: snapshot.tempo != nil
    case .progress: !isClock && snapshot.segmentProgress != nil
    case .message: frame.message.map { !$0.isEmpty } == true
    }
  }

  // MARK: Vertical layout

  func rows() -> [StyledRow] {
    if rowCount == 1 { return [singleLine()] }
    var pieces = Piece.allCases.filter(isPresent)
    for piece in Self.dropOrder where pieces.count + 1 > rowCount {
      pieces.removeAll { $0 == piece }
    }
    let available = rowCount - pieces.count
    let digits = chooseDigits(maxHeight: available - 2) ?? chooseDigits(maxHeight: available)
    let digitsHeight = digits?.height ?? 1
    var slack = available - digitsHeight
    var bigPhase: [String]?
    if pieces.contains(.phase), let digits {
      bigPhase = choosePhase(digits: digits, slack: slack)
      if let bigPhase { slack -= bigPhase.count - 1 }
    }

    let above = pieces.contains(.phase) && slack > 0 ? 1 : 0
    slack -= above
    let below = pieces.contains {
      [.rounds, .label, .lanes, .tempo, .progress, .message].contains($0)
    }
    let gapBelow = below && slack > 0 ? 1 : 0
    slack -= gapBelow
    let top = slack / 2
    let bottom = slack - top
    let blank = StyledRow()

    var output: [StyledRow] = []
    if pieces.contains(.header) { output.append(header()) }
    output += Array(repeating: blank, count: top)
    if pieces.contains(.phase) {
      if let bigPhase {
        output += bigPhase.map { centered(StyledRow($0, phaseStyle)) }
      } else {
        output.append(phaseLine())
      }
    }
    output += Array(repeating: blank, count: above)
    output += digitRows(digits)
    output += Array(repeating: blank, count: gapBelow)
    if pieces.contains(.rounds) { output.append(roundsLine()) }
    if pieces.contains(.label) { output.append(labelLine()) }
    if pieces.contains(.lanes) {
      let text = Cells.sanitized(frame.lanes ?? "")
      output.append(centered(StyledRow(Cells.truncated(text, to: columns - 2), caption)))
    }
    if pieces.contains(.tempo) { output.append(tempoLine(withTrack: !hasVerticalTrack(digits))) }
    if pieces.contains(.progress) { output.append(progressLine()) }
    if pieces.contains(.message) {
      output.append(centered(StyledRow(message, style(.warning, bold: true))))
    }
    output += Array(repeating: blank, count: bottom)
    if pieces.contains(.status) {
      output.append(StyledRow(" " + Cells.truncated(status, to: columns - 2), caption))
    }
    return output
  }

  private var message: String { Cells.truncated(Cells.sanitized(frame.message ?? ""), to: columns) }
  private var status: String { Cells.sanitized(frame.status ?? "") }

  /// The biggest scale of the large font whose time fits, else of the small font, keeping
  /// pixels roughly square (a terminal cell is about twice as tall as it is wide, so a pixel is
  /// 1.5–2 times as wide as tall). The fit is measured on a template (`00:00`, `0:00:00`) so the
  /// digits keep their size as the time runs and only change at the hour.
  private func chooseDigits(maxHeight: Int) -> Digits? {
    let digitCount = mainTime.filter(\.isNumber).count
    var template = String(mainTime.map { $0.isNumber ? "0" : $0 })
    if digitCount == 3, !template.hasPrefix("-") { template = "0" + template }
    for font in [BlockFont.large, BlockFont.small] {
      var best: Digits?
      for scaleY in 1...16 where font.height * scaleY <= maxHeight {
        let widths = scaleY == 1 ? [2, 1] : Array(((3 * scaleY + 1) / 2...2 * scaleY).reversed())
        for scaleX in widths {
          guard let fit = font.width(of: template, scaleX: scaleX), fit <= columns - 4,
            let width = font.width(of: mainTime, scaleX: scaleX)
          else { continue }
          let candidate = Digits(font: font, scaleX: scaleX, scaleY: scaleY, width: width)
          if let current = best,
            (current.height, current.width) >= (candidate.height, candidate.width)
          {
            continue
          }
          best = candidate
        }
      }
      if let best { return best }
    }
    return nil
  }

  /// The phase word in the small block font when there are rows to spare; it stays at most half
  /// the height of the digits so the time remains the loudest thing on screen.
  private func choosePhase(digits: Digits, slack: Int) -> [String]? {
    let font = BlockFont.small
    for scale in stride(from: digits.scaleY / 2, through: 1, by: -1) {
      let extra = font.height * scale - 1
      guard extra + 2 <= slack, let width = font.width(of: phaseText, scaleX: 2 * scale),
        width <= columns - 2,
        let rows = font.render(phaseText, scaleX: 2 * scale, scaleY: scale)
      else { continue }
      return rows
    }
    return nil
  }

  // MARK: Lines

  private var phaseStyle: CellStyle { frame.flashing ? accent.inverted : accent }

  private func centered(_ row: StyledRow) -> StyledRow {
    StyledRow.centered(row, columns: columns, fill: base)
  }

  private func singleLine() -> StyledRow {
    var row = StyledRow(
      digitsLit ? mainTime : String(repeating: " ", count: mainTime.count), accent)
    if !phaseText.isEmpty {
      row.append(" ", base)
      row.append(phaseText, phaseStyle)
    }
    let rounds = TimeText.rounds(snapshot, words: frame.words)
    if !rounds.isEmpty { row.append(" " + rounds, caption) }
    return row
  }

  private func header() -> StyledRow {
    let title = Cells.sanitized(frame.words.title(of: snapshot.mode))
    let right = StyledRow(title + " ", style(.caption, bold: true))
    let clock = TimeText.clock(
      hour: frame.timeOfDay.hour, minute: frame.timeOfDay.minute, second: frame.timeOfDay.second,
      face: frame.headerClockFace)
    let name = Cells.sanitized(snapshot.presetName)
    var row = StyledRow(" ", caption)
    let room = columns - right.width - 2
    let withClock = !isClock && Cells.width(of: name) + clock.count + right.width + 6 <= columns
    row.append(Cells.truncated(name, to: max(0, room)), caption)
    if withClock {
      row.pad(to: (columns - clock.count) / 2, caption)
      row.append(clock, caption)
    }
    row.pad(to: columns - right.width, caption)
    row.append(right)
    return row
  }

  private func phaseLine() -> StyledRow {
    // Letter spacing makes a one-line word carry further across a room.
    let spaced = phaseText.map(String.init).joined(separator: " ")
    let text = columns >= 40 && Cells.width(of: spaced) + 4 <= columns ? spaced : phaseText
    let padded = frame.flashing ? " " + text + " " : text
    return centered(StyledRow(Cells.truncated(padded, to: columns), phaseStyle))
  }

  private func digitRows(_ digits: Digits?) -> [StyledRow] {
    guard let digits,
      let glyphRows = digits.font.render(
        mainTime, scaleX: digits.scaleX, scaleY: digits.scaleY, colonVisible: frame.colonVisible)
    else {
      let text = digitsLit ? visibleColons(mainTime) : ""
      return [centered(StyledRow(text, accent))]
    }
    let left = (columns - digits.width) / 2
    let track = hasVerticalTrack(digits) ? verticalTrack(height: glyphRows.count) : nil
    return glyphRows.enumerated().map { index, line in
      var row = StyledRow(String(repeating: " ", count: left), base)
      row.append(digitsLit ? line : String(repeating: " ", count: digits.width), accent)
      if let track {
        row.append("   ", base)
        row.append(track[index])
      }
      return row
    }
  }

  private func visibleColons(_ text: String) -> String {
    frame.colonVisible ? text : String(text.map { $0 == ":" ? " " : $0 })
  }

  // MARK: Tempo

  private func hasVerticalTrack(_ digits: Digits?) -> Bool {
    guard snapshot.tempo != nil, let digits, digits.height >= 5 else { return false }
    return (columns - digits.width) / 2 + digits.width + 4 <= columns - 1
  }

  /// TempoRep's pacing track on its side: top of the lift at the top, the dot where the bar is.
  private func verticalTrack(height: Int) -> [StyledRow] {
    let position = min(1, max(0, snapshot.tempo?.trackPosition ?? 0))
    let dot = nearest(position * Double(height - 1))
    return (0..<height).map { row in
      if row == dot { return StyledRow("●", accent) }
      return StyledRow(row == 0 ? "┬" : row == height - 1 ? "┴" : "│", caption)
    }
  }

  private func tempoLine(withTrack: Bool) -> StyledRow {
    guard let tempo = snapshot.tempo else { return StyledRow() }
    var row = StyledRow()
    let phases: [(TempoPhase, Role)] = [
      (.eccentric, .eccentric), (.bottomPause, .bottomPause), (.concentric, .concentric),
      (.topPause, .topPause),
    ]
    for (index, (phase, role)) in phases.enumerated() {
      if index > 0 { row.append("·", caption) }
      let text = TimeText.tempoValue(tempo, phase)
      if tempo.phase == phase && snapshot.runState != .finished {
        // Brackets keep the highlight visible without colour; inverse video makes it pop with.
        row.append("[", accent)
        row.append(text, style(role, bold: true).inverted)
        row.append("]", accent)
      } else {
        row.append(" " + text + " ", style(role))
      }
    }
    let width = 13
    if withTrack && row.width + width + 5 <= columns - 2 {
      let position = min(1, max(0, tempo.trackPosition))
      let dot = nearest(position * Double(width - 1))
      row.append("   ├", caption)
      for cell in 0..<width {
        if cell == dot { row.append("●", accent) } else { row.append("─", caption) }
      }
      row.append("┤", caption)
    }
    return centered(row)
  }

  // MARK: Counters, label, progress

  private func roundsLine() -> StyledRow {
    let text = Cells.sanitized(TimeText.rounds(snapshot, words: frame.words))
    return centered(StyledRow(Cells.truncated(text, to: columns - 2), style(.caption, bold: true)))
  }

  private func labelLine() -> StyledRow {
    let text = Cells.sanitized(snapshot.label ?? "")
    return centered(StyledRow(Cells.truncated(text, to: columns - 2), caption))
  }

  private func progressLine() -> StyledRow {
    let width = max(1, columns - 4)
    let fraction = min(1, max(0, snapshot.segmentProgress ?? 0))
    let filled = nearest(fraction * Double(width))
    var bar = StyledRow(String(repeating: "█", count: filled), style(.progress))
    bar.append(String(repeating: "░", count: width - filled), caption)
    return centered(bar)
  }
}

/// The nearest whole number to a non-negative value. Written out because `rounded()` becomes a
/// libm call, and this module links nothing beyond the standard library.
private func nearest(_ value: Double) -> Int { Int(value + 0.5) }
