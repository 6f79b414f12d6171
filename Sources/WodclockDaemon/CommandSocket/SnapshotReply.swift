// SPDX-License-Identifier: MIT
// The answer to the control socket's `snapshot`: the picture a matrix output last sent, or a
// preview of what a matrix would show now (see CommandProtocol.swift for the reply's members).

import ControlProtocol
import JSONKit
import MatrixKit

enum SnapshotReply {
  /// The size of a preview when the request names none: the most common panel.
  static let defaultPreviewSize = SnapshotRequest.Size(width: 64, height: 32)

  /// The reply to `request`. `outputs` are the daemon's outputs in config order; `preview`
  /// draws what the displays show now on a matrix of a size.
  static func reply(
    to request: SnapshotRequest, id: JSONValue?, outputs: [any OutputPlugin],
    preview: (SnapshotRequest.Size) -> Framebuffer
  ) -> JSONValue {
    let matrices = outputs.compactMap { $0 as? any PictureShowing }
    var members: [(String, JSONValue)]
    let picture: Framebuffer
    if request.previewSize != nil || (matrices.isEmpty && request.output == nil) {
      picture = preview(request.previewSize ?? defaultPreviewSize)
      members = [("output", .null), ("preview", .bool(true))]
    } else {
      let chosen: any PictureShowing
      if let wanted = request.output {
        guard let match = matrices.first(where: { $0.id == wanted }) else {
          return CommandProtocol.failure(
            id: id, unknownOutput(wanted, outputs: outputs, matrices: matrices))
        }
        chosen = match
      } else {
        chosen = matrices[0]
      }
      guard let shown = chosen.shownPicture else {
        return CommandProtocol.failure(
          id: id,
          CommandFailure(
            "no_picture",
            "LED matrix '\(chosen.id)' has not been sent a picture yet (its controller has not "
              + "been connected since the daemon started, or is within its startup_delay); a size "
              + "gives a preview instead"))
      }
      picture = shown
      members = [
        ("output", .string(chosen.id)), ("preview", .bool(false)),
        ("connected", .bool(chosen.isConnected)),
      ]
    }
    guard picture.width * picture.height <= CommandProtocol.maximumSnapshotLEDs else {
      return CommandProtocol.failure(
        id: id,
        CommandFailure(
          "too_large",
          "the matrix has \(picture.width)x\(picture.height) LEDs; a snapshot carries "
            + "\(CommandProtocol.maximumSnapshotLEDs) at most"))
    }
    let size: [(String, JSONValue)] = [
      ("width", .integer(Int64(picture.width))), ("height", .integer(Int64(picture.height))),
      ("rgb_base64", .string(Base64.encode(picture.rgbBytes))),
    ]
    return CommandProtocol.success(id: id, size + members)
  }

  /// Why `wanted` is not a matrix output, and which ones are.
  private static func unknownOutput(
    _ wanted: String, outputs: [any OutputPlugin], matrices: [any PictureShowing]
  ) -> CommandFailure {
    let list =
      matrices.isEmpty
      ? "no LED-matrix output is configured (without an output, a preview is drawn)"
      : "LED-matrix outputs: " + matrices.map(\.id).joined(separator: ", ")
    if let other = outputs.first(where: { $0.id == wanted }) {
      return CommandFailure(
        "unknown_output", "output '\(wanted)' is a \(other.kind) output, not an LED matrix; \(list)"
      )
    }
    return CommandFailure("unknown_output", "no output '\(wanted)'; \(list)")
  }
}
