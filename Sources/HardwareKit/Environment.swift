// SPDX-License-Identifier: MIT
// Environment variables and the current process id.

import Glibc

/// Environment variables and the identity of the current process.
public enum Environment {
  /// The value of the environment variable `name`, or `nil` when it is unset.
  ///
  /// Reading races with `set`/`unset` on other threads (getenv(3), ATTRIBUTES: "MT-Safe env");
  /// change the environment only while single-threaded.
  ///
  /// The corresponding C function is `getenv`.
  public static func get(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  /// Sets the environment variable `name` to `value`, replacing any previous value.
  ///
  /// The corresponding C function is `setenv`.
  public static func set(_ name: String, _ value: String) throws(SystemError) {
    try check("setenv", path: name) { setenv(name, value, 1) }
  }

  /// Removes the environment variable `name`.
  ///
  /// The corresponding C function is `unsetenv`.
  public static func unset(_ name: String) throws(SystemError) {
    try check("unsetenv", path: name) { unsetenv(name) }
  }

  /// The id of the current process.
  ///
  /// The corresponding C function is `getpid`.
  public static var processID: Int32 { getpid() }

  /// The path of the running program's file, as the kernel has it (`/proc/self/exe`,
  /// proc(5)); nil when /proc is not mounted.
  ///
  /// The corresponding C function is `readlink`.
  public static var executablePath: String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The real user id of this process. The corresponding C function is `getuid`.
  public static var userID: UInt32 { getuid() }

  /// This machine's host name (`gym-pi`), nil when it has none. The corresponding C function
  /// is `gethostname`.
  public static var hostName: String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }
}
