// SPDX-License-Identifier: MIT
// How the LEDs of a matrix are chained: which framebuffer pixel each LED on the data line shows.

/// The order of LEDs on the data line of one or more tiled panels.
///
/// Each panel is chained row by row from its `origin` corner: progressive (every row in the
/// same direction) or serpentine (every other row reversed, the usual wiring of flexible
/// WS2812 panels). Panels are chained row by row from the top-left, each panel's first LED
/// following the previous panel's last. `rotation` turns the picture clockwise on the wall.
public struct WiringMap: Sendable, Hashable {
  public enum Corner: String, Sendable, Hashable, CaseIterable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
  }

  public let width: Int
  public let height: Int
  /// Per LED on the data line, the framebuffer pixel index (row-major) it shows.
  public let sourceIndices: [Int]
  public var ledCount: Int { sourceIndices.count }

  /// - Parameters:
  ///   - width, height: the picture's size.
  ///   - panelWidth, panelHeight: one panel's size in the physical orientation (after
  ///     rotation); the physical canvas must be a whole number of panels. Defaults: one panel.
  ///   - rotation: 0, 90, 180 or 270 degrees clockwise.
  public init(
    width: Int, height: Int, serpentine: Bool = false, origin: Corner = .topLeft,
    rotation: Int = 0, panelWidth: Int? = nil, panelHeight: Int? = nil
  ) throws(WiringError) {
    guard width > 0, height > 0 else { throw .badSize }
    let quarter = ((rotation % 360) + 360) % 360
    guard quarter % 90 == 0 else { throw .badRotation(rotation) }
    let turns = quarter / 90
    let physicalWidth = turns % 2 == 0 ? width : height
    let physicalHeight = turns % 2 == 0 ? height : width
    let tileWidth = panelWidth ?? physicalWidth
    let tileHeight = panelHeight ?? physicalHeight
    guard tileWidth > 0, tileHeight > 0, physicalWidth % tileWidth == 0,
      physicalHeight % tileHeight == 0
    else { throw .panelsDoNotTile }
    self.width = width
    self.height = height
    let tilesAcross = physicalWidth / tileWidth
    var indices = [Int](repeating: -1, count: width * height)
    for py in 0..<physicalHeight {
      for px in 0..<physicalWidth {
        // The LED's place on the data line.
        let tile = (py / tileHeight) * tilesAcross + px / tileWidth
        var lx = px % tileWidth
        var ly = py % tileHeight
        if origin == .topRight || origin == .bottomRight { lx = tileWidth - 1 - lx }
        if origin == .bottomLeft || origin == .bottomRight { ly = tileHeight - 1 - ly }
        if serpentine && ly % 2 == 1 { lx = tileWidth - 1 - lx }
        let led = tile * tileWidth * tileHeight + ly * tileWidth + lx
        // The picture pixel at this physical place: undo the clockwise rotation.
        let (x, y): (Int, Int)
        switch turns {
        case 1: (x, y) = (py, height - 1 - px)
        case 2: (x, y) = (width - 1 - px, height - 1 - py)
        case 3: (x, y) = (width - 1 - py, px)
        default: (x, y) = (px, py)
        }
        indices[led] = y * width + x
      }
    }
    sourceIndices = indices
  }
}

public enum WiringError: Error, Sendable, Hashable, CustomStringConvertible {
  case badSize
  case badRotation(Int)
  case panelsDoNotTile

  public var description: String {
    switch self {
    case .badSize: "the matrix needs a positive width and height"
    case .badRotation(let value): "rotation \(value) is not 0, 90, 180 or 270"
    case .panelsDoNotTile: "the panels do not tile the matrix (its size must be a multiple)"
    }
  }
}
