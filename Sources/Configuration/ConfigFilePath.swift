// SPDX-License-Identifier: MIT
// Where a file a setting names is read from: a matrix's font, a speaker's WAV files, the MQTT
// broker's password and CA files.

/// Paths written in the config file.
public enum ConfigFilePath {
  /// `setting` as a path: absolute as written, relative from `configFile`'s directory, so
  /// `fonts/6x10.bdf` beside /etc/wodclock/wodclock.yaml is /etc/wodclock/fonts/6x10.bdf
  /// whatever directory the daemon runs in.
  public static func resolve(_ setting: String, besideConfig configFile: String) -> String {
    guard !setting.hasPrefix("/"), let slash = configFile.lastIndex(of: "/") else {
      return setting
    }
    return String(configFile[...slash]) + setting
  }
}
