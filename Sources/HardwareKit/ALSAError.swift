// SPDX-License-Identifier: MIT
// Sound device errors: which device, what failed, ALSA's reason, and what the user can do.

import CALSA
import Glibc

/// An ALSA operation that failed.
///
/// Its description reads like the project's other device errors, for example
/// `cannot open sound device 'hw:1,0': No such file or directory (ENOENT); hint: `aplay -l`
/// lists the cards and `aplay -L` the device names`.
public struct ALSAError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure this is, for code that reacts to it.
  public enum Kind: Hashable, Sendable {
    /// libasound.so.2 could not be loaded (Debian package libasound2 missing).
    case libraryMissing
    /// No card or device answers to the name (`ENOENT`, `ENODEV`, `EINVAL` at open).
    case noSuchDevice
    /// Another program holds the device (`EBUSY`).
    case busy
    /// The process may not open the device (`EACCES`, `EPERM`).
    case permissionDenied
    /// The device does not take what was asked (format, rate, channels, buffer).
    case unsupported
    /// The device went away while open (`ENODEV`, `EBADFD`): a USB card was pulled. Close it
    /// and open it again with backoff.
    case unplugged
    /// No such mixer control.
    case noSuchControl
    /// Any other failure; see `code`.
    case system
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// The sentence users read, without the hint.
  public var message: String
  /// The ALSA call's code: a negative errno, or one of ALSA's own past `SND_ERROR_BEGIN`.
  public var code: Int32
  /// What the user can do about it, if known.
  public var hint: String?

  /// Creates an error value.
  public init(_ kind: Kind, _ message: String, code: Int32, hint: String? = nil) {
    self.kind = kind
    self.message = message
    self.code = code
    self.hint = hint
  }

  /// The message, plus `; hint: …` when there is a hint.
  public var description: String {
    guard let hint else { return message }
    return "\(message); hint: \(hint)"
  }

  /// Whether the device went away, so the caller closes it and reopens it later.
  public var isUnplugged: Bool { kind == .unplugged }

  /// The errno behind `code`, when it is one.
  public var errno: Errno? {
    code < 0 && code > -500_000 ? Errno(rawValue: -code) : nil
  }
}

extension ALSAError {
  static let listHint =
    "no card or device answers to that name; `aplay -l` lists the cards and `aplay -L` the device names"

  /// `No such device (ENODEV)` for a negative errno, ALSA's own text for its codes.
  static func reason(_ code: Int32) -> String {
    if code < 0 && code > -500_000 { return Errno(rawValue: -code).description }
    return String(cString: calsa_strerror(code))
  }

  static func libraryMissing(_ loaderMessage: String) -> ALSAError {
    ALSAError(
      .libraryMissing,
      "sound needs libasound (Debian package libasound2): \(loaderMessage)", code: -ENOSYS,
      hint: "apt install libasound2")
  }

  /// A failure to open `device` (`what` is "sound device" or "capture device" or "mixer of").
  static func open(_ what: String, _ device: String, code: Int32) -> ALSAError {
    let message = "cannot open \(what) '\(device)': \(reason(code))"
    switch -code {
    case ENOENT, ENODEV, EINVAL, ENXIO:
      return ALSAError(.noSuchDevice, message, code: code, hint: listHint)
    case EBUSY:
      return ALSAError(
        .busy, message, code: code,
        hint: "another program is playing on it (`fuser -v /dev/snd/*` shows which); "
          + "`default` or a `dmix` device can be shared")
    case EACCES, EPERM:
      return ALSAError(
        .permissionDenied, message, code: code,
        hint: "the user needs to be in the `audio` group")
    default:
      return ALSAError(.system, message, code: code)
    }
  }

  /// A failure of `operation` on an open device: unplugged, or something else. `EBADFD` means
  /// gone only for a `disconnected` stream: ALSA also says it of a call in the wrong state.
  static func io(
    _ operation: String, _ device: String, code: Int32, disconnected: Bool = true,
    subject: String = "sound device"
  ) -> ALSAError {
    let message = "\(subject) '\(device)': \(operation) failed: \(reason(code))"
    switch -code {
    case EBADFD where !disconnected:
      return ALSAError(.system, message, code: code)
    case ENODEV, EBADFD, ESHUTDOWN:
      return ALSAError(
        .unplugged, "\(subject) '\(device)' is gone: \(reason(code))", code: code,
        hint: "it is opened again when it is back")
    default:
      return ALSAError(.system, message, code: code)
    }
  }
}

/// Loads libasound the first time sound is used.
func loadALSA() throws(ALSAError) {
  var message = [CChar](repeating: 0, count: 512)
  guard calsa_load(&message, message.count) == 0 else {
    let reason = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    throw ALSAError.libraryMissing(reason)
  }
}
