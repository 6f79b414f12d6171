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

  /// The standard layout for a panel, with a tempo column when `tempo` is set.
  ///
  /// - 16-row class (height < 24): digits on top, one caption line, a one-row bar.
  /// - 32-row class, wide (width ≥ 3 × height, e.g. 128×32): digits on the left, a side column
  ///   for the word and counter (or the tempo track), a two-row bar.
  /// - 32-row class (e.g. 64×32): a caption line on top, digits, a two-row bar.
  /// - 64-row class (height ≥ 48, e.g. 128×64): the word and counter at double size on top,
  ///   digits, the caption, a three-row bar.
  public static func standard(width: Int, height: Int, tempo: Bool = false) -> MatrixLayout {
    let none = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var layout = MatrixLayout(
      width: width, height: height, time: none, label: none, counter: none, caption: none,
      progress: none, tempo: none, textScale: 1)
    if height < 24 {
      let tempoWidth = tempo ? 3 : 0
      let timeGap = tempo ? 1 : 0
      layout.progress = PixelRect(x: 0, y: height - 1, width: width, height: 1)
      let textY = height - 1 - 6
      layout.label = PixelRect(x: 0, y: textY, width: width - tempoWidth, height: 5)
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
      layout.label = PixelRect(x: sideX, y: 2, width: side - 1, height: 5)
      layout.counter = PixelRect(x: sideX, y: 10, width: side - 1, height: 5)
      layout.caption = PixelRect(x: sideX, y: 18, width: side - 1, height: 5)
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: 0, width: tempoWidth, height: height - bar - 1)
      }
    } else if height < 48 {
      let bar = 2
      let tempoWidth = tempo ? 14 : 0
      layout.progress = PixelRect(x: 0, y: height - bar, width: width, height: bar)
      layout.label = PixelRect(x: 0, y: 0, width: width - tempoWidth, height: 5)
      layout.counter = layout.label
      layout.time = PixelRect(
        x: 0, y: 7, width: width - tempoWidth - (tempo ? 2 : 0), height: height - bar - 8)
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: 0, width: tempoWidth, height: height - bar - 1)
      }
    } else {
      let bar = 3
      let tempoWidth = tempo ? 30 : 0
      layout.textScale = 2
      layout.progress = PixelRect(x: 0, y: height - bar, width: width, height: bar)
      layout.label = PixelRect(x: 1, y: 1, width: width - 2, height: 10)
      layout.counter = layout.label
      layout.caption = PixelRect(x: 0, y: height - bar - 7, width: width, height: 5)
      layout.time = PixelRect(
        x: 0, y: 14, width: width - tempoWidth - (tempo ? 2 : 0),
        height: height - bar - 7 - 3 - 14)
      if tempo {
        layout.tempo = PixelRect(
          x: width - tempoWidth, y: 13, width: tempoWidth, height: layout.time.height + 2)
      }
    }
    return layout
  }
}
