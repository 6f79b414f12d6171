// SPDX-License-Identifier: MIT
// The media directory on the web: which names may be served from it, as what, and how much of a
// file a request may ask for (Range). The shell opens the file; what a name or a Range means is
// decided here.

/// The files of the `media:` directory a page shows beside the clock.
public enum WebMedia {
  /// How a page shows a file.
  public enum Kind: String, Sendable, Hashable {
    /// `<img>`: JPEG, PNG, GIF (an animated GIF loops by itself).
    case image
    /// `<video loop muted autoplay playsinline>`: WebM, MP4.
    case video
  }

  /// The largest file served: 64 MiB, room for a minute of a demonstration clip at a TV's
  /// bit rate. The file is sent from its descriptor by the server, never read into memory, so
  /// the bound is about the disk and the network, not the daemon's memory.
  public static let maximumBytes: Int64 = 64 << 20
  /// The longest name served, in bytes (a file name's limit on Linux).
  public static let maximumNameBytes = 255

  /// The content type of each extension served, lowercase.
  static let types: [String: (type: String, kind: Kind)] = [
    "jpg": ("image/jpeg", .image), "jpeg": ("image/jpeg", .image), "png": ("image/png", .image),
    "gif": ("image/gif", .image), "webm": ("video/webm", .video), "mp4": ("video/mp4", .video),
  ]

  /// The extensions served, for hints.
  public static let extensions = ["jpg", "jpeg", "png", "gif", "webm", "mp4"]

  /// Whether `name` may be served from the directory: a plain file name (no `/`, no NUL or
  /// other control character, not hidden, so neither `.` nor `..`), at most 255 bytes, with
  /// one of the five types' extensions.
  public static func isServable(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= maximumNameBytes, name.first != "." else {
      return false
    }
    guard !name.unicodeScalars.contains(where: { $0 == "/" || $0.value < 0x20 || $0.value == 0x7f })
    else { return false }
    return extensionType(of: name) != nil
  }

  /// The `Content-Type` a servable name is sent with.
  public static func contentType(of name: String) -> String? {
    isServable(name) ? extensionType(of: name)?.type : nil
  }

  /// How a page shows a servable name.
  public static func kind(of name: String) -> Kind? {
    isServable(name) ? extensionType(of: name)?.kind : nil
  }

  /// The URL path of a name: `/media/` and the name, every byte but letters, digits and
  /// `-._~` percent-encoded (RFC 3986 §2.3), so a space or a `#` in a name reaches the server.
  public static func path(of name: String) -> String {
    var path = "/media/"
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        path.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        path.unicodeScalars.append("%")
        path.unicodeScalars.append(hex[Int(byte >> 4)])
        path.unicodeScalars.append(hex[Int(byte & 0x0f)])
      }
    }
    return path
  }

  /// The servable names among a directory's entries, sorted (for `/api/media`).
  public static func listing(_ entries: [String]) -> [String] {
    entries.filter(isServable).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  private static func extensionType(of name: String) -> (type: String, kind: Kind)? {
    guard let dot = name.lastIndex(of: ".") else { return nil }
    return types[name[name.index(after: dot)...].lowercased()]
  }

  /// What part of a file of `size` bytes a request's `Range` header asks for.
  public enum RangeAnswer: Sendable, Hashable {
    /// The whole file (no header, or one that is not a single bytes range: RFC 9110 §14.2 lets
    /// a server ignore it).
    case whole
    /// 206 with these bytes: `offset` and `length`.
    case part(offset: Int64, length: Int64)
    /// 416: the range starts past the end.
    case unsatisfiable
  }

  /// The answer to `Range` (RFC 9110 §14.1.2), one `bytes=` range only: `bytes=A-B`, `bytes=A-`
  /// or the suffix `bytes=-N`. Several ranges, another unit or a malformed header are answered
  /// with the whole file, as the RFC allows; nothing a client sends makes it trap.
  public static func range(_ header: String?, size: Int64) -> RangeAnswer {
    guard let header, size >= 0 else { return .whole }
    let text = header.trimmingCharacters
    let prefix = "bytes="
    guard text.lowercased().hasPrefix(prefix) else { return .whole }
    let spec = text.dropFirst(prefix.count)
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let first = spec[..<dash]
    let last = spec[spec.index(after: dash)...]
    if first.isEmpty {
      // The last N bytes.
      guard let suffix = number(last), suffix > 0 else { return .whole }
      guard size > 0 else { return .unsatisfiable }
      let length = min(suffix, size)
      return .part(offset: size - length, length: length)
    }
    guard let start = number(first) else { return .whole }
    var end = size - 1
    if !last.isEmpty {
      guard let written = number(last), written >= start else { return .whole }
      end = min(written, size - 1)
    }
    guard start < size else { return .unsatisfiable }
    return .part(offset: start, length: end - start + 1)
  }

  /// A decimal number of at most 18 digits (no sign): every value fits an Int64.
  private static func number(_ text: Substring) -> Int64? {
    guard !text.isEmpty, text.utf8.count <= 18,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int64(text)
  }
}

extension String {
  fileprivate var trimmingCharacters: Substring {
    var value = self[...].drop { $0 == " " || $0 == "\t" }
    while value.last == " " || value.last == "\t" { value = value.dropLast() }
    return value
  }
}
