// SPDX-License-Identifier: MIT
// Where a plugin's cross-checks point: at the setting, and inside a map or a list at the one
// entry or item that is wrong, as a compiler points at the token rather than the statement.

import ConfigFormat
import Configuration

extension PluginSettings {
  /// Where `setting` stands, or a zero range when unknown (every key of a checked entry has a
  /// location: its value, or the entry for a default).
  func range<Value>(of setting: Setting<Value>) -> SourceRange {
    location(of: setting) ?? SourceRange(at: SourceLocation(file: "", line: 1, column: 1))
  }

  /// Where the key `key` of the map `setting` stands, or the setting, for a default.
  func range<Value>(of setting: Setting<Value>, key: String) -> SourceRange {
    location(of: setting, key: key)?.key ?? range(of: setting)
  }

  /// Where the value of the entry `key` of the map `setting` stands, or its item `item` when
  /// the value is a list; the setting, for a default.
  func range<Value>(of setting: Setting<Value>, valueOf key: String, item: Int? = nil)
    -> SourceRange
  {
    guard let entry = location(of: setting, key: key) else { return range(of: setting) }
    return item.map(entry.item) ?? entry.value
  }

  /// Where item `index` of the list `setting` stands, or the setting.
  func range<Value>(of setting: Setting<Value>, item index: Int) -> SourceRange {
    location(of: setting, item: index) ?? range(of: setting)
  }
}
