// SPDX-License-Identifier: MIT
// Who this process is and which groups it has, for telling a person why a file is closed to
// them (`wodclockctl` on a socket of the `wodclock` group): the names of the user database
// (passwd(5), group(5)) and the groups this login really carries (getgroups(2)), which are not
// the same until the user logs in again after `adduser`.

import Glibc

/// Look-ups in the user and group databases, and this process's groups.
public enum UserAccounts {
  /// The effective user id of this process. The corresponding C function is `geteuid`.
  public static var effectiveUserID: UInt32 { geteuid() }

  /// The name and primary group of user `id`, or nil when the database has none.
  ///
  /// The corresponding C function is `getpwuid_r`.
  public static func user(_ id: UInt32) -> (name: String, primaryGroup: UInt32)? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    let found = withGrowingBuffer {
      start, count -> Attempt<(name: String, primaryGroup: UInt32)?> in
      let status = getpwuid_r(id, &entry, start, count, &result)
      guard status == 0 else { return .failed(status) }
      guard let result, let name = result.pointee.pw_name else { return .done(nil) }
      return .done((String(cString: name), result.pointee.pw_gid))
    }
    return found ?? nil
  }

  /// The name of group `id`, or nil when the database has none.
  ///
  /// The corresponding C function is `getgrgid_r`.
  public static func groupName(of id: UInt32) -> String? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    let found = withGrowingBuffer { start, count -> Attempt<String?> in
      let status = getgrgid_r(id, &entry, start, count, &result)
      guard status == 0 else { return .failed(status) }
      guard let result, let name = result.pointee.gr_name else { return .done(nil) }
      return .done(String(cString: name))
    }
    return found ?? nil
  }

  /// The groups this process has now: its effective group and its supplementary groups, as
  /// the kernel checks a file's group against.
  ///
  /// The corresponding C functions are `getegid` and `getgroups`.
  public static func processGroups() -> Set<UInt32> {
    var groups: Set<UInt32> = [getegid()]
    let count = getgroups(0, nil)
    guard count > 0 else { return groups }
    var list = [gid_t](repeating: 0, count: Int(count))
    let filled = getgroups(count, &list)
    if filled > 0 { groups.formUnion(list.prefix(Int(filled))) }
    return groups
  }

  /// The groups the group database gives user `name` (primary group `primary` included): what
  /// the next login will have.
  ///
  /// The corresponding C function is `getgrouplist`.
  public static func configuredGroups(ofUser name: String, primary: UInt32) -> Set<UInt32> {
    var count: Int32 = 64
    for _ in 0..<4 {
      var list = [gid_t](repeating: 0, count: Int(count))
      var asked = count
      if getgrouplist(name, primary, &list, &asked) >= 0 {
        return Set(list.prefix(Int(max(0, asked))))
      }
      // Too small: `asked` now holds how many there are.
      guard asked > count, asked <= 65_536 else { break }
      count = asked
    }
    return [primary]
  }

  private enum Attempt<Value> {
    case done(Value)
    case failed(Int32)
  }

  /// Runs a reentrant look-up with a buffer that grows on ERANGE, as the `_r` functions ask
  /// (getpwnam_r(3)); nil when the look-up fails.
  private static func withGrowingBuffer<Value>(
    _ body: (_ start: UnsafeMutablePointer<CChar>, _ count: Int) -> Attempt<Value>
  ) -> Value? {
    var capacity = 1024
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let attempt = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
      switch attempt {
      case .done(let value): return value
      case .failed(ERANGE) where capacity < 1 << 20: capacity *= 4
      case .failed: return nil
      }
    }
  }
}
