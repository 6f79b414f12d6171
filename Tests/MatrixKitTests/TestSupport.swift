// SPDX-License-Identifier: MIT
// Fixtures and golden files beside these sources (snapshots come from the test support's
// `Workout`, the real engine on manual time).

import HardwareKit
import MatrixKit
import PNGEncoding
import WodclockTestSupport

/// The directory of this file: the golden images and the fixtures are beside it.
let testDirectory = sourceDirectory()

/// The directory of the golden images.
let goldenDirectory = testDirectory + "/Golden"

/// The bytes of a file in Fixtures/ (hand-written BDF fonts).
func fixture(_ name: String) throws -> [UInt8] {
  try FileSystem.readFile(testDirectory + "/Fixtures/" + name)
}

/// Compares a frame with its golden PNG byte for byte. With WODCLOCK_UPDATE_GOLDEN=1 in the
/// environment the golden file is (re)written instead, to be reviewed by eye before committing.
func matchesGolden(_ buffer: Framebuffer, _ name: String) -> Bool {
  // Stored: the reviewed files stay byte-identical whatever the compressor does.
  let png = PNGEncoder.encode(buffer, compression: .stored)
  let path = goldenDirectory + "/" + name + ".png"
  if Environment.get("WODCLOCK_UPDATE_GOLDEN") != nil {
    return (try? FileSystem.writeFileAtomically(path, png)) != nil
  }
  return (try? FileSystem.readFile(path)) == png
}
