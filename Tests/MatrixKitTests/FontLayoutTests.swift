// SPDX-License-Identifier: MIT
// Layouts that follow the caption font's height: the built-in font's layouts are the ones the
// golden images were reviewed with, on every panel size; taller fonts get taller text lines
// without the regions overlapping; a font too tall for a panel is replaced by the built-in one.

import DisplayKit
import Testing

@testable import MatrixKit

@Suite struct FontLayoutTests {
  /// The layouts as they were before fonts could be loaded (the built-in font, 5 rows),
  /// written out again so any change to them shows.
  static func builtInLayout(width: Int, height: Int, tempo: Bool) -> MatrixLayout {
    let none = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var layout = MatrixLayout(
      width: width, height: height, time: none, label: none, counter: none, caption: none,
      progress: none, tempo: none, textScale: 1)
    if height < 24 {
      let tempoWidth = tempo ? 3 : 0
      layout.progress = PixelRect(x: 0, y: height - 1, width: width, height: 1)
      let textY = height - 7
      layout.label = PixelRect(x: 0, y: textY, width: width - tempoWidth, height: 5)
      layout.counter = layout.label
      layout.time = PixelRect(
        x: 0, y: 0, width: width - tempoWidth - (tempo ? 1 : 0), height: textY - 1)
      if tempo {
        layout.tempo = PixelRect(x: width - 3, y: 0, width: 3, height: height - 1)
      }
    } else if height < 48 && width >= 3 * height {
      let side = width * 3 / 10
      let tempoWidth = tempo ? 16 : 0
      layout.progress = PixelRect(x: 0, y: height - 2, width: width, height: 2)
      layout.time = PixelRect(x: 0, y: 1, width: width - side - tempoWidth - 1, height: height - 5)
      let sideX = width - side - tempoWidth
      layout.label = PixelRect(x: sideX, y: 2, width: side - 1, height: 5)
      layout.counter = PixelRect(x: sideX, y: 10, width: side - 1, height: 5)
      layout.caption = PixelRect(x: sideX, y: 18, width: side - 1, height: 5)
      if tempo {
        layout.tempo = PixelRect(x: width - 16, y: 0, width: 16, height: height - 3)
      }
    } else if height < 48 {
      let tempoWidth = tempo ? 14 : 0
      layout.progress = PixelRect(x: 0, y: height - 2, width: width, height: 2)
      layout.label = PixelRect(x: 0, y: 0, width: width - tempoWidth, height: 5)
      layout.counter = layout.label
      layout.time = PixelRect(
        x: 0, y: 7, width: width - tempoWidth - (tempo ? 2 : 0), height: height - 10)
      if tempo {
        layout.tempo = PixelRect(x: width - 14, y: 0, width: 14, height: height - 3)
      }
    } else {
      let tempoWidth = tempo ? 30 : 0
      layout.textScale = 2
      layout.progress = PixelRect(x: 0, y: height - 3, width: width, height: 3)
      layout.label = PixelRect(x: 1, y: 1, width: width - 2, height: 10)
      layout.counter = layout.label
      layout.caption = PixelRect(x: 0, y: height - 10, width: width, height: 5)
      layout.time = PixelRect(
        x: 0, y: 14, width: width - tempoWidth - (tempo ? 2 : 0), height: height - 27)
      if tempo {
        layout.tempo = PixelRect(x: width - 30, y: 13, width: 30, height: height - 25)
      }
    }
    return layout
  }

  @Test func theBuiltInFontKeepsTheLayoutsItHad() {
    for height in 8...80 {
      for width in stride(from: 8, through: 192, by: 4) {
        for tempo in [false, true] {
          #expect(
            MatrixLayout.standard(width: width, height: height, tempo: tempo)
              == Self.builtInLayout(width: width, height: height, tempo: tempo),
            "\(width)x\(height) tempo \(tempo)")
        }
      }
    }
    #expect(MatrixRenderer(width: 64, height: 32).font == .small)
  }

  /// The regions of a layout that must not share a pixel (the word and the counter share one
  /// region on purpose where the layout says so).
  func regions(_ layout: MatrixLayout) -> [(String, PixelRect)] {
    var regions = [
      ("time", layout.time), ("label", layout.label), ("caption", layout.caption),
      ("progress", layout.progress), ("tempo", layout.tempo),
    ]
    if layout.counter != layout.label { regions.append(("counter", layout.counter)) }
    return regions.filter { !$0.1.isEmpty }
  }

  func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
    a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
  }

  @Test(arguments: [(32, 16), (64, 32), (128, 32), (96, 48), (128, 64), (192, 96)])
  func everyFontThatFitsGetsRegionsThatDoNotOverlap(width: Int, height: Int) {
    let tallest = MatrixLayout.tallestFittingText(width: width, height: height)
    #expect(tallest >= 5, "the built-in font fits \(width)x\(height)")
    for textHeight in 1...tallest {
      #expect(MatrixLayout.fits(textHeight: textHeight, width: width, height: height))
      for tempo in [false, true] {
        let layout = MatrixLayout.standard(
          width: width, height: height, tempo: tempo, textHeight: textHeight)
        let scaled = textHeight * layout.textScale
        #expect(layout.label.height == scaled)
        #expect(layout.time.height >= max(DigitFont.minimumHeight, scaled))
        if !layout.caption.isEmpty { #expect(layout.caption.height == textHeight) }
        let all = regions(layout)
        for (index, (name, region)) in all.enumerated() {
          #expect(region.x >= 0 && region.y >= 0, "\(name) \(region)")
          #expect(region.maxX <= width && region.maxY <= height, "\(name) \(region)")
          for (otherName, other) in all[(index + 1)...] {
            #expect(
              !overlap(region, other),
              "\(name) \(region) and \(otherName) \(other), \(textHeight) rows, tempo \(tempo)")
          }
        }
      }
    }
    #expect(!MatrixLayout.fits(textHeight: tallest + 1, width: width, height: height))
  }

  @Test func howTallAFontEachPanelTakes() {
    // X11's fonts are named WIDTHxHEIGHT: 4x6 fits a 16-row panel, 7x13 a 32-row one.
    #expect(MatrixLayout.tallestFittingText(width: 32, height: 16) == 6)
    #expect(MatrixLayout.tallestFittingText(width: 64, height: 32) == 13)
    #expect(MatrixLayout.tallestFittingText(width: 128, height: 32) == 27)
    #expect(MatrixLayout.tallestFittingText(width: 128, height: 64) == 27)
    #expect(!MatrixLayout.fits(textHeight: 18, width: 64, height: 32))
    #expect(!MatrixLayout.fits(textHeight: 0, width: 64, height: 32))
  }

  @Test func sixtyFourRowPanelsDoubleOnlySmallFonts() {
    let small = MatrixLayout.standard(width: 128, height: 64, textHeight: 7)
    #expect(small.textScale == 2 && small.label.height == 14)
    let tall = MatrixLayout.standard(width: 128, height: 64, textHeight: 10)
    #expect(tall.textScale == 1 && tall.label.height == 10 && tall.caption.height == 10)
    // Up to 17 rows the caption stays; 18 rows (9x18) would leave the digits shorter than the
    // text with it: the caption goes.
    #expect(!MatrixLayout.standard(width: 128, height: 64, textHeight: 17).caption.isEmpty)
    let huge = MatrixLayout.standard(width: 128, height: 64, textHeight: 18)
    #expect(huge.caption.isEmpty)
    #expect(huge.time.height >= 18)
  }

  @Test func aWideSideColumnKeepsTheLinesThatFit() {
    // 128x32: 10-row lines leave room for the word and the counter, not the caption; 13-row
    // lines for one line, which the word and the counter share.
    let ten = MatrixLayout.standard(width: 128, height: 32, textHeight: 10)
    #expect(!ten.label.isEmpty && !ten.counter.isEmpty && ten.label != ten.counter)
    #expect(ten.caption.isEmpty)
    let thirteen = MatrixLayout.standard(width: 128, height: 32, textHeight: 13)
    #expect(thirteen.counter == thirteen.label && thirteen.caption.isEmpty)
  }

  @Test func aFontTooTallForThePanelIsReplacedByTheBuiltInOne() throws {
    let font = try CaptionFont(bdf: fixture("caps-8.bdf"))
    let tiny = MatrixRenderer(width: 32, height: 16, font: font)
    #expect(tiny.font == .small)
    #expect(tiny.layout == MatrixLayout.standard(width: 32, height: 16))
    let fitting = MatrixRenderer(width: 64, height: 32, font: font)
    #expect(fitting.font == font)
    #expect(fitting.layout == MatrixLayout.standard(width: 64, height: 32, textHeight: 8))
    #expect(fitting.tempoLayout.label.height == 8)
  }
}

@Suite struct RendererFontTests {
  /// The fixture font without the glyphs of `codes`.
  func fixtureFont(without codes: Set<Int>) throws -> CaptionFont {
    let text = String(decoding: try fixture("caps-8.bdf"), as: UTF8.self)
    var kept: [Substring] = []
    var glyph: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("STARTCHAR") || !glyph.isEmpty {
        glyph.append(line)
        if line == "ENDCHAR" {
          let code = glyph.first { $0.hasPrefix("ENCODING ") }.flatMap { Int($0.dropFirst(9)) }
          if !codes.contains(code ?? -1) { kept += glyph }
          glyph = []
        }
      } else {
        kept.append(line)
      }
    }
    return try CaptionFont(bdf: kept.joined(separator: "\n"))
  }

  @Test func aFontWithoutArrowsShowsTheBareTempoValues() throws {
    let arrows: Set = [0x2193, 0x2191]
    let withoutArrows = try fixtureFont(without: arrows)
    #expect(!withoutArrows.supports("↓") && withoutArrows.supports("?"))
    // Were the arrows drawn as `?`, the font without `?` would draw the values narrower.
    let withoutQuestionMark = try fixtureFont(without: arrows.union([0x3F]))
    let scene = try #require(try GoldenImageTests.scenes().first { $0.0 == "tempo-eccentric" })
    func picture(_ font: CaptionFont) -> Framebuffer {
      MatrixRenderer(width: 128, height: 64, font: font).render(
        scene.1, timeOfDay: GoldenImageTests.morning, milliseconds: 200)
    }
    let arrowsLeftOut = picture(withoutArrows) == picture(withoutQuestionMark)
    #expect(arrowsLeftOut, "the arrows are drawn as '?'")
    // The values are there, only their arrows are not.
    let withArrows = try CaptionFont(bdf: fixture("caps-8.bdf"))
    let arrowsDrawn = picture(withArrows) != picture(withoutArrows)
    #expect(arrowsDrawn, "a font with arrows shows them")
  }
}
