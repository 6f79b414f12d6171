// SPDX-License-Identifier: MIT
// What an LED matrix shows for a snapshot. Pure: the same snapshot, time of day and blink
// phase always give the same picture, so every layout is checked against golden images.
//
// The decisions about what each mode shows follow the 7-segment renderer: the big digits are
// the snapshot's display time (the time of day in the clock mode, its colon blinking at the
// tokens' colon period); paused digits blink at the pause period; the counter is the round,
// set and rep (the lap tally in For Time and AMRAP); a finished workout keeps its final time
// steady and says DONE or CAP. Every colour is a design-token role: nothing here names one.

public import DisplayKit
public import WorkoutCore

public struct MatrixRenderer: Sendable {
  public var layout: MatrixLayout
  public var tempoLayout: MatrixLayout
  /// The layout while a heat's lanes show (``HeatLines``): a line for them under the digits.
  public var lanesLayout: MatrixLayout
  public var tokens: DesignTokens
  public var words: DisplayWords
  /// The clock face when the snapshot carries none.
  public var face: ClockFace
  /// How bright the parts that are not running are drawn (tempo values, the track), in
  /// percent of their role's colour: a proportion, not a colour.
  public var dimPercent: Int
  /// The font of the words, counters, caption and tempo values; the layouts follow its height.
  public let font: CaptionFont
  /// Whether the font draws the tempo arrows; without them the tempo values are bare numbers
  /// rather than a `?` before each.
  private let fontHasArrows: Bool

  /// A renderer for a `width`×`height` panel. A `font` too tall for the panel (see
  /// `MatrixLayout.fits`) is replaced by the built-in one, so the digits always keep their room.
  public init(
    width: Int, height: Int, tokens: DesignTokens = .standard, words: DisplayWords = .english,
    face: ClockFace = ClockFace(), dimPercent: Int = 35, font: CaptionFont = .small
  ) {
    let fits = MatrixLayout.fits(textHeight: font.height, width: width, height: height)
    self.font = fits ? font : .small
    fontHasArrows = self.font.supports("↓↑")
    layout = .standard(width: width, height: height, textHeight: self.font.height)
    tempoLayout = .standard(width: width, height: height, tempo: true, textHeight: self.font.height)
    lanesLayout = .lanes(width: width, height: height, textHeight: self.font.height)
    self.tokens = tokens
    self.words = words
    self.face = face
    self.dimPercent = dimPercent
  }

  /// Renders one frame into a new framebuffer.
  public func render(
    _ snapshot: WorkoutSnapshot, timeOfDay: TimeOfDay, milliseconds: Int64,
    lanes: LaneBoard? = nil
  ) -> Framebuffer {
    var buffer = Framebuffer(
      width: layout.width, height: layout.height, fill: tokens.color(for: .background))
    render(snapshot, timeOfDay: timeOfDay, milliseconds: milliseconds, lanes: lanes, into: &buffer)
    return buffer
  }

  /// The heat's part of the picture at `milliseconds`, or nil: none, nothing to show yet, or a
  /// tempo workout (whose column takes the room).
  public func heatLines(_ snapshot: WorkoutSnapshot, lanes: LaneBoard?, milliseconds: Int64)
    -> HeatLines?
  {
    guard snapshot.tempo == nil, let lanes else { return nil }
    return HeatLines(lanes, milliseconds: milliseconds)
  }

  /// Renders one frame into `buffer` (reused between frames to spare the allocation).
  /// `milliseconds` is the monotonic clock: the blink phases, and with `lanes` (a heat's) the
  /// countdown of a call-up and the turns of the lanes' line, follow it.
  public func render(
    _ snapshot: WorkoutSnapshot, timeOfDay: TimeOfDay, milliseconds: Int64,
    lanes: LaneBoard? = nil, into buffer: inout Framebuffer
  ) {
    let heat = heatLines(snapshot, lanes: lanes, milliseconds: milliseconds)
    let layout = heat != nil ? lanesLayout : snapshot.tempo != nil ? tempoLayout : self.layout
    buffer.clear(to: tokens.color(for: .background))
    // A call-up draws its title and countdown in the colour of a count-in: what comes is a
    // start.
    let callUp = heat?.countdown != nil || heat?.title != nil
    let phaseColor = callUp ? tokens.color(for: .getReady) : tokens.color(for: snapshot)
    let captionColor = tokens.color(for: .caption)
    let font = self.font
    let scale = layout.textScale

    // The big digits.
    var timeText: String?
    var colonVisible = true
    if snapshot.mode == .clock {
      let face = snapshot.clockFace ?? self.face
      timeText = TimeText.clockDigits(
        hour: timeOfDay.hour, minute: timeOfDay.minute, second: timeOfDay.second, face: face)
      colonVisible = BlinkRates.isLit(
        periodMilliseconds: tokens.blink.colonPeriodMilliseconds, atMilliseconds: milliseconds)
    } else if let display = snapshot.display {
      timeText = TimeText.format(display)
    }
    if callUp {
      timeText = heat?.countdown
    } else if snapshot.runState == .paused,
      !BlinkRates.isLit(
        periodMilliseconds: tokens.blink.pausePeriodMilliseconds, atMilliseconds: milliseconds)
    {
      timeText = nil
    }
    if let timeText, !layout.time.isEmpty,
      let digits = DigitFont.fitting(
        timeText, maxWidth: layout.time.width, maxHeight: layout.time.height)
    {
      let width = digits.width(of: timeText)
      digits.draw(
        timeText, x: layout.time.x + (layout.time.width - width) / 2,
        y: layout.time.y + (layout.time.height - digits.height) / 2, color: phaseColor,
        colonVisible: colonVisible, into: &buffer)
    }

    // The phase word and the counter. The time of day has no phase: its line carries the
    // snapshot's label instead (the next class on the idle screen), cut to fit.
    var label = words.word(for: snapshot)
    if callUp {
      label = heat?.title ?? ""
    } else if snapshot.mode == .clock {
      label = snapshot.label ?? ""
      let room = layout.label.width
      while !label.isEmpty && font.width(of: label, scale: scale) > room { label.removeLast() }
    }
    let counter =
      callUp ? "" : counterText(snapshot, maxWidth: layout.counter.width, scale: scale)
    if layout.label.isEmpty {
      // The lanes have the line (a panel with no other).
    } else if layout.label == layout.counter {
      let region = layout.label
      var scale = scale
      var counterWidth = font.width(of: counter, scale: scale)
      var labelWidth = font.width(of: label, scale: scale)
      var both = labelWidth + counterWidth + 3 * scale <= region.width
      // Both at the small size rather than the word dropped, when the double size is too wide.
      if !both, scale > 1, !counter.isEmpty,
        font.width(of: label) + font.width(of: counter) + 3 <= region.width
      {
        scale = 1
        counterWidth = font.width(of: counter)
        labelWidth = font.width(of: label)
        both = true
      }
      if !counter.isEmpty {
        font.draw(
          counter, x: region.maxX - counterWidth, y: region.y, color: captionColor, scale: scale,
          into: &buffer)
      }
      if counter.isEmpty || both, labelWidth <= region.width {
        font.draw(label, x: region.x, y: region.y, color: phaseColor, scale: scale, into: &buffer)
      }
    } else {
      if !layout.label.isEmpty, font.width(of: label) <= layout.label.width {
        font.draw(label, x: layout.label.x, y: layout.label.y, color: phaseColor, into: &buffer)
      }
      if !layout.counter.isEmpty {
        font.draw(
          counter, x: layout.counter.x, y: layout.counter.y, color: captionColor, into: &buffer)
      }
    }

    // The caption: the movement line when the workout has a whiteboard (the movement now, or
    // the next one before it comes), else the segment's label, else the preset name. A
    // movement line too wide for its place scrolls through it; anything else is cut.
    if let heat, !layout.caption.isEmpty {
      // The heat's line: the lanes, in turns when they do not fit at once. Where it took the
      // word's line, the call-up's title is its first turn.
      let turns = heatTurns(heat, layout: layout)
      if !turns.isEmpty {
        let text = turns[HeatLines.turn(of: turns.count, at: milliseconds)]
        let width = font.width(of: text)
        let x =
          layout.caption.width >= layout.width
          ? layout.caption.x + (layout.caption.width - width) / 2 : layout.caption.x
        font.draw(text, x: x, y: layout.caption.y, color: captionColor, into: &buffer)
      }
    } else if !layout.caption.isEmpty, snapshot.mode != .clock {
      if let offset = captionScroll(snapshot, layout: layout) {
        // Drawn on a strip of the caption's size, so that it scrolls within its place and
        // not over the digits beside it.
        let region = layout.caption
        let text = MovementCaption.line(for: snapshot)?.text ?? ""
        let background = tokens.color(for: .background)
        var strip = Framebuffer(width: region.width, height: region.height, fill: background)
        font.draw(text, x: -offset.pixels, y: 0, color: captionColor, into: &strip)
        font.draw(
          text, x: offset.cycle - offset.pixels, y: 0, color: captionColor, into: &strip)
        for y in 0..<region.height {
          for x in 0..<region.width where strip[x, y] != background {
            buffer[region.x + x, region.y + y] = strip[x, y]
          }
        }
      } else {
        var caption =
          MovementCaption.line(for: snapshot)?.text ?? snapshot.label ?? snapshot.presetName
        while !caption.isEmpty && font.width(of: caption) > layout.caption.width {
          caption.removeLast()
        }
        let width = font.width(of: caption)
        let x =
          layout.caption.width >= layout.width
          ? layout.caption.x + (layout.caption.width - width) / 2 : layout.caption.x
        font.draw(caption, x: x, y: layout.caption.y, color: captionColor, into: &buffer)
      }
    }

    // The progress bar.
    if let fraction = progress(snapshot, timeOfDay: timeOfDay), !layout.progress.isEmpty {
      let filled = Int((min(1, max(0, fraction)) * Double(layout.progress.width)).rounded())
      var bar = layout.progress
      bar.width = filled
      buffer.fill(bar, with: tokens.color(for: .progress))
    }

    if let tempo = snapshot.tempo, !layout.tempo.isEmpty {
      drawTempo(tempo, color: phaseColor, region: layout.tempo, into: &buffer)
    }
  }

  /// Draws an overlay over the whole matrix: its text as large as it fits in the big digits'
  /// place, its caption below (what a keypad composes, and how to load it).
  public func render(
    _ overlay: DisplayOverlay, timeOfDay: TimeOfDay, into buffer: inout Framebuffer
  ) {
    let layout = self.layout
    buffer.clear(to: tokens.color(for: .background))
    let font = self.font
    // The caption font may lack "×" (the built-in one is ASCII): an x says the same.
    var text = overlay.text
    if !font.supports(text) { text = String(text.map { $0 == "×" ? "x" : $0 }) }
    let region = layout.time.isEmpty ? layout.label : layout.time
    var scale = max(1, region.height / max(1, font.height))
    while scale > 1 && font.width(of: text, scale: scale) > region.width { scale -= 1 }
    while !text.isEmpty && font.width(of: text, scale: scale) > layout.width { text.removeFirst() }
    let width = font.width(of: text, scale: scale)
    let height = font.height * scale
    font.draw(
      text, x: max(0, (layout.width - width) / 2),
      y: region.y + max(0, (region.height - height) / 2), color: tokens.color(for: .idle),
      scale: scale, into: &buffer)
    let line = layout.caption.isEmpty ? layout.label : layout.caption
    guard !line.isEmpty, line != region else { return }
    var caption = overlay.caption
    while !caption.isEmpty && font.width(of: caption) > layout.width { caption.removeLast() }
    font.draw(
      caption, x: max(0, (layout.width - font.width(of: caption)) / 2), y: line.y,
      color: tokens.color(for: .caption), into: &buffer)
  }

  /// How long a scrolling movement line takes to move by a pixel.
  public static let scrollMillisecondsPerPixel: Int64 = 100
  /// How long a movement line stands still at the start of a step before it scrolls.
  public static let scrollPause: Int64 = 1_000

  /// Where a movement line too wide for the caption stands now: `pixels` scrolled into it,
  /// and `cycle`, its width and a gap, after which it comes round again. Nil when it fits, or
  /// the panel has no caption line. It moves with the step's time: from its start each step,
  /// still while paused.
  func captionScroll(_ snapshot: WorkoutSnapshot, layout: MatrixLayout)
    -> (pixels: Int, cycle: Int)?
  {
    guard !layout.caption.isEmpty, let text = MovementCaption.line(for: snapshot)?.text else {
      return nil
    }
    let width = font.width(of: text)
    guard width > layout.caption.width else { return nil }
    let cycle = width + layout.caption.width / 2
    let moving = max(0, snapshot.segmentElapsed.nanoseconds / 1_000_000 - Self.scrollPause)
    return (Int(moving / Self.scrollMillisecondsPerPixel % Int64(cycle)), cycle)
  }

  /// The period at which a scrolling movement line moves by a pixel, or nil when none
  /// scrolls: an output asks for a frame that often meanwhile.
  public func scrollPeriodMilliseconds(_ snapshot: WorkoutSnapshot) -> Int? {
    guard snapshot.runState == .running || snapshot.runState == .countIn else { return nil }
    let layout = snapshot.tempo != nil ? tempoLayout : self.layout
    return captionScroll(snapshot, layout: layout) == nil
      ? nil : Int(Self.scrollMillisecondsPerPixel)
  }

  /// The turns of the heat's line in `layout`: where the lanes took the word's line, the
  /// call-up's title is the first.
  private func heatTurns(_ heat: HeatLines, layout: MatrixLayout) -> [String] {
    guard !layout.caption.isEmpty else { return [] }
    var items = heat.items
    if layout.label.isEmpty, let title = heat.title { items.insert(title, at: 0) }
    return HeatLines.turns(items, width: layout.caption.width, font: font)
  }

  /// The next monotonic millisecond after `milliseconds` at which the heat's part of the
  /// picture changes by itself (another second of a call-up's countdown, another turn of the
  /// lanes' line), or nil: an output asks for a frame then.
  public func nextHeatChange(
    _ snapshot: WorkoutSnapshot, lanes: LaneBoard?, after milliseconds: Int64
  ) -> Int64? {
    guard let lanes, let heat = heatLines(snapshot, lanes: lanes, milliseconds: milliseconds)
    else { return nil }
    var next = HeatLines.nextCountdownChange(lanes, after: milliseconds)
    if heatTurns(heat, layout: lanesLayout).count > 1 {
      let turn = HeatLines.nextTurn(after: milliseconds)
      next = min(next ?? turn, turn)
    }
    return next
  }

  /// The period of whatever blinks now, or nil: an output asks for a frame at each half period.
  public func blinkPeriodMilliseconds(_ snapshot: WorkoutSnapshot) -> Int? {
    let period: Int
    if snapshot.mode == .clock {
      period = tokens.blink.colonPeriodMilliseconds
    } else if snapshot.runState == .paused {
      period = tokens.blink.pausePeriodMilliseconds
    } else {
      return nil
    }
    return period > 0 ? period : nil
  }

  /// Round, set and rep as `R 3/10 SET 2/5`, trailing parts dropped until it fits; an AMRAP's
  /// lap tally (`LAP 5`, blank before the first lap), as every display shows it.
  func counterText(_ snapshot: WorkoutSnapshot, maxWidth: Int, scale: Int) -> String {
    guard snapshot.mode != .clock, snapshot.runState != .idle else { return "" }
    var parts = TimeText.roundParts(snapshot, words: words)
    func fits(_ parts: [String]) -> Bool {
      font.width(of: parts.joined(separator: " "), scale: scale) <= maxWidth
    }
    // In tempo mode the rep is what the lifter counts: the set goes first.
    if !fits(parts), snapshot.mode == .tempo, let set = snapshot.set {
      parts.removeAll { $0 == "\(words[.set]) \(set)" }
    }
    while !parts.isEmpty && !fits(parts) { parts.removeLast() }
    return parts.joined(separator: " ")
  }

  /// How far the bar is filled: the running segment of a multi-segment workout, else the
  /// workout; the seconds of the minute in the clock mode.
  func progress(_ snapshot: WorkoutSnapshot, timeOfDay: TimeOfDay) -> Double? {
    if snapshot.mode == .clock { return Double(timeOfDay.second) / 60 }
    switch snapshot.runState {
    case .idle: return nil
    case .finished: return snapshot.progress.map { _ in 1 }
    case .countIn, .running, .paused:
      if snapshot.segmentCount > 1, let segment = snapshot.segmentProgress { return segment }
      return snapshot.progress
    }
  }

  /// TempoRep's pacing track: a vertical line with a dot at `trackPosition` (0 top, 1 bottom,
  /// already mirrored by the engine for reverse direction), the four values beside it, the
  /// running one lit in its phase's colour.
  private func drawTempo(
    _ tempo: TempoSnapshot, color: RGB, region: PixelRect, into buffer: inout Framebuffer
  ) {
    let dim = tokens.color(for: .caption).scaled(toPercent: dimPercent)
    let dot = min(3, region.width)
    let lineX = region.x + dot / 2
    buffer.fill(PixelRect(x: lineX, y: region.y, width: 1, height: region.height), with: dim)
    let travel = max(0, region.height - dot)
    let position = min(1, max(0, tempo.trackPosition))
    let dotY = region.y + Int((position * Double(travel)).rounded())
    buffer.fill(PixelRect(x: region.x, y: dotY, width: dot, height: dot), with: color)

    let textX = region.x + dot + 2
    let room = region.maxX - textX
    guard room >= 3, region.height >= 4 * font.height else { return }
    let step = (region.height - font.height) / 3
    for (index, phase) in TempoPhase.allCases.enumerated() {
      var text = TimeText.tempoValue(tempo, phase)
      if !fontHasArrows || font.width(of: text) > room {
        text = String(text.drop { $0 == "↓" || $0 == "↑" })
      }
      guard font.width(of: text) <= room else { continue }
      let lit = tempo.phase == phase
      let phaseColor = lit ? tokens.color(for: Self.role(of: phase)) : dim
      font.draw(text, x: textX, y: region.y + index * step, color: phaseColor, into: &buffer)
    }
  }

  static func role(of phase: TempoPhase) -> Role {
    switch phase {
    case .eccentric: .eccentric
    case .bottomPause: .bottomPause
    case .concentric: .concentric
    case .topPause: .topPause
    }
  }
}
