// SPDX-License-Identifier: MIT
// Where each part of the clock goes on a panel of a given size.

/// The regions of one panel size. Empty regions are not drawn.
public struct MatrixLayout: Sendable, Hashable {
  public var width: Int
  public var height: Int
  /// The big digits: the tallest digit font that fits is chosen per frame.
  public var time: PixelRect
  /// The phase word (WORK, REST, GET READY …), left-aligned.
  public var label: PixelRect
  /// Round/set/rep, right-aligned.
  public var counter: PixelRect
  /// The segment's label or the preset name (large panels only), centred.
  public var caption: PixelRect
  /// The progress bar, filled left to right.
  public var progress: PixelRect
  /// The tempo column (tempo mode only): the pacing track and the four tempo values.
  public var tempo: PixelRect
  /// Pixel scale of the small font in the label and counter regions.
  public var textScale: Int

  /// The standard layout for a panel, with a tempo column when `tempo` is set, for a caption
  /// font whose lines are `textHeight` rows tall (5: the built-in font). Text regions are one
  /// line tall; the digits take what is left.
  ///
  /// - 16-row class (height < 24): digits on top, one caption line, a one-row bar.
  /// - 32-row class, wide (width ≥ 3 × height, e.g. 128×32): digits on the left, a side column
  ///   for the word, the counter and the caption (those lines that fit; the word and counter
  ///   share one when only one fits) or the tempo track, a two-row bar.
  /// - 32-row class (e.g. 64×32): a caption line on top, digits, a two-row bar.
  /// - 64-row class (height ≥ 48, e.g. 128×64): the word and counter on top (at double size when
  ///   the font is at most `doubleSizeLimit` rows), digits, the caption (left out when the
  ///   digits would be shorter than the text), a three-row bar.
  ///
  /// Whether the digits keep room enough for a font is `fits(textHeight:width:height:)`.
  ///
  /// With `lanes` (a heat's finished lanes or its call-up, see ``lanes(width:height:textHeight:)``)
  /// the layout has a caption line wherever it can: under the digits on a 32-row panel, which
  /// are shorter for it.
  public static func standard(
    width: Int, height: Int, tempo: Bool = false, lanes: Bool = false, textHeight: Int = 5
  ) -> MatrixLayout {
    let none = PixelRect(x: 0, y: 0, width: 0, height: 0)
    let line = max(1, textHeight)
    var layout = MatrixLayout(
      width: width, height: height, time: none, label: none, counter: none, caption: none,
      progress: none, tempo: none, textScale: 1)
    if height < 24 {
      let tempoWidth = tempo ? 3 : 0
      let timeGap = tempo ? 1 : 0
      layout.progress = PixelRect(x: 0, y: height - 1, width: width, height: 1)
      // One blank row between the text and the bar, and between the digits and the text.
      let textY = height - 1 - (line + 1)
      layout.label = PixelRect(x: 0, y: textY, width: width - tempoWidth, height: line)
      layout.counter = layout.label
      layout.time = PixelRect(
        x: 0, y: 0, width: width - tempoWidth - timeGap, height: textY - 1)
      if tempo {
        layout.tempo = PixelRect(x: width - tempoWidth, y: 0, width: tempoWidth, height: height - 1)
      }
    } else if height < 48 && width >= 3 * height {
      let bar = 2
      let side = width * 3 / 10
      let tempoWidth = tempo ? 16 : 0
      layout.progress = PixelRect(x: 0, y: height - bar, width: width, height: bar)
      layout.time = PixelRect(
        x: 0, y: 1, width: width - side - tempoWidth - 1, height: height - bar - 3)
      let sideX = width - side - tempoWidth
      // Lines from row 2, three blank rows apart, each ending at least a row above the bar.
      // The built-in font's lines keep the places they had before fonts could be loaded (its
      // caption touches the bar of a 24- or 25-row panel).
      let lastRow = textHeight == 5 ? height : height - bar - 1
      func sideLine(_ index: Int) -> PixelRect {
        let y = 2 + index * (line + 3)
        guard y + line <= lastRow else { return none }
        return PixelRect(x: sideX, y: y, width: side - 1, height: line)
      }
      layout.label = sideLine(0)
      layout.counter = sideLine(1)
      layout.caption = sideLine(2)
      if layout.counter.isEmpty { layout.counter = layout.label }
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: 0, width: tempoWidth, height: height - bar - 1)
      }
    } else if height < 48 {
      let bar = 2
      let tempoWidth = tempo ? 14 : 0
      layout.progress = PixelRect(x: 0, y: height - bar, width: width, height: bar)
      layout.label = PixelRect(x: 0, y: 0, width: width - tempoWidth, height: line)
      layout.counter = layout.label
      layout.time = PixelRect(
        x: 0, y: line + 2, width: width - tempoWidth - (tempo ? 2 : 0),
        height: height - bar - (line + 3))
      // The lanes' line under the digits, a blank row above it and one above the bar, when
      // the digits keep their least height.
      let captionY = height - bar - 1 - line
      let shorter = captionY - 1 - layout.time.y
      if lanes, !tempo, shorter >= max(DigitFont.minimumHeight, line) {
        layout.caption = PixelRect(x: 0, y: captionY, width: width, height: line)
        layout.time.height = shorter
      }
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: 0, width: tempoWidth, height: height - bar - 1)
      }
    } else {
      let bar = 3
      let tempoWidth = tempo ? 30 : 0
      layout.textScale = line <= doubleSizeLimit ? 2 : 1
      let top = line * layout.textScale
      layout.progress = PixelRect(x: 0, y: height - bar, width: width, height: bar)
      layout.label = PixelRect(x: 1, y: 1, width: width - 2, height: top)
      layout.counter = layout.label
      let timeY = top + 4
      layout.caption = PixelRect(x: 0, y: height - bar - (line + 2), width: width, height: line)
      var timeBottom = layout.caption.y - 3
      // A tall font leaves the digits shorter than itself: the caption goes first.
      if timeBottom - timeY < max(DigitFont.minimumHeight, top) {
        layout.caption = none
        timeBottom = height - bar - 2
      }
      layout.time = PixelRect(
        x: 0, y: timeY, width: width - tempoWidth - (tempo ? 2 : 0), height: timeBottom - timeY)
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: timeY - 1, width: tempoWidth, height: layout.time.height + 2)
      }
    }
    return layout
  }

  /// The layout of a heat's lanes: ``standard(width:height:tempo:lanes:textHeight:)`` with
  /// `lanes`, and where no caption line is left (a 16-row panel, a tall font) the word's line
  /// carries the lanes instead of the word and the counter.
  public static func lanes(width: Int, height: Int, textHeight: Int = 5) -> MatrixLayout {
    var layout = standard(width: width, height: height, lanes: true, textHeight: textHeight)
    guard layout.caption.isEmpty else { return layout }
    let none = PixelRect(x: 0, y: 0, width: 0, height: 0)
    if layout.counter != layout.label {
      // The wide panel's side column: the counter's line, the word and the counter sharing
      // the first.
      layout.caption = layout.counter
      layout.counter = layout.label
    } else {
      layout.caption = layout.label
      layout.label = none
      layout.counter = none
    }
    return layout
  }

  /// The tallest font drawn at double size on 64-row panels: the built-in 5 rows become 10,
  /// a 7-row font 14; taller fonts are drawn at their own size.
  public static let doubleSizeLimit = 7

  /// Whether a caption font of `textHeight` rows leaves the digits room on a panel: its text
  /// has a line, and the digits are at least as tall as the text and as the smallest digit
  /// font. A renderer given a font that does not fit draws with the built-in one.
  public static func fits(textHeight: Int, width: Int, height: Int) -> Bool {
    guard textHeight >= 1 else { return false }
    return [false, true].allSatisfy { tempo in
      let layout = standard(width: width, height: height, tempo: tempo, textHeight: textHeight)
      return !layout.label.isEmpty
        && layout.time.height >= max(DigitFont.minimumHeight, textHeight * layout.textScale)
    }
  }

  /// The tallest caption font that fits a panel (see `fits`), or 0 when none does.
  public static func tallestFittingText(width: Int, height: Int) -> Int {
    var textHeight = min(height, CaptionFont.maximumMetric)
    while textHeight > 0 && !fits(textHeight: textHeight, width: width, height: height) {
      textHeight -= 1
    }
    return textHeight
  }
}
