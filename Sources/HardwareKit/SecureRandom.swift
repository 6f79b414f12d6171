// SPDX-License-Identifier: MIT
// Random bytes from the kernel's generator, for secrets such as the web interface's session
// tokens.

import CLinux
import Glibc

/// The kernel's cryptographically secure random bytes (getrandom(2)).
public enum SecureRandom {
  /// `count` random bytes. getrandom(2) without flags blocks only until the generator is
  /// seeded, once, early at boot; a request of 256 bytes or fewer is never cut short.
  public static func bytes(_ count: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    var filled = 0
    while filled < bytes.count {
      let offset = filled
      let result = bytes.withUnsafeMutableBytes { buffer in
        valueOrErrno("getrandom") {
          getrandom(buffer.baseAddress! + offset, buffer.count - offset, 0)
        }
      }
      switch result {
      case .success(let got): filled += got
      case .failure(let error): throw SystemError(operation: "getrandom", errno: error)
      }
    }
    return bytes
  }
}
