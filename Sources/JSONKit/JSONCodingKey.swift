// SPDX-License-Identifier: MIT

/// The coding keys JSONKit makes up itself: array positions in coding paths, `"super"` for
/// `superEncoder()`/`superDecoder()`, and object keys of ``JSONValue``'s own `Codable` form.
struct JSONCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }

  /// An array position, shown as "Index 3" like the standard library's JSON coders.
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  /// The key the standard library documents for `superEncoder()` and `superDecoder()`.
  static let superKey = JSONCodingKey(stringValue: "super")
}

extension [any CodingKey] {
  /// A coding path as a readable string, like `rounds[2].work.seconds`.
  var pathDescription: String {
    var text = ""
    for key in self {
      if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text.isEmpty ? "<root>" : text
  }
}
