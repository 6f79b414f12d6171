// SPDX-License-Identifier: MIT
// Where the daemon's voice synthesizer runs: a child of the daemon's own binary.

import HardwareKit

extension VoiceSynthesizer {
  /// The daemon's synthesizer: `wodclockd --synthesize-voice LANG`, run from the wodclockd
  /// beside the running program, which is the daemon itself, or for `wodclock-bench` and the
  /// tests the one in their build directory.
  public static let wodclockd: VoiceSynthesizer = {
    let program =
      Environment.executablePath.flatMap { path in
        path.lastIndex(of: "/").map { String(path[...$0]) + "wodclockd" }
      } ?? "wodclockd"
    return VoiceSynthesizer(command: [program, DaemonOptions.synthesizeVoiceFlag])
  }()
}
