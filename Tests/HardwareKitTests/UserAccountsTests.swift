// SPDX-License-Identifier: MIT
// The user and group look-ups against this machine's own databases: every Debian system has
// user and group 0 named root, and a process is always in its own effective group.

import Testing
import WodclockTestSupport

@testable import HardwareKit

@Suite struct UserAccountsTests {
  @Test func userAndGroupZeroAreRoot() throws {
    let root = try #require(UserAccounts.user(0))
    #expect(root.name == "root")
    #expect(root.primaryGroup == 0)
    #expect(UserAccounts.groupName(of: 0) == "root")
    #expect(UserAccounts.configuredGroups(ofUser: "root", primary: 0).contains(0))
  }

  @Test func idsNobodyHasAreNil() {
    // 2^32 - 2: no distribution allocates it (4294967295 is (uid_t)-1, "no id").
    #expect(UserAccounts.user(4_294_967_294) == nil)
    #expect(UserAccounts.groupName(of: 4_294_967_294) == nil)
  }

  @Test func thisProcessHasTheGroupItRunsAs() throws {
    // The tests run as a user in its own primary group (root in CI, or a developer's login).
    let me = try #require(UserAccounts.user(UserAccounts.effectiveUserID))
    let groups = UserAccounts.processGroups()
    #expect(groups.contains(me.primaryGroup))
    #expect(!groups.contains(4_294_967_294))
  }

  /// A path closed to the caller is `.closed`: root cannot be shut out, so that case is
  /// checked as a login user by Tests/scripts/test-socket-access.sh.
  @Test func presentAndAbsentPaths() throws {
    let scratch = try ScratchDirectory()
    #expect(FileSystem.presence(scratch.path) == .present)
    #expect(FileSystem.presence(scratch.path + "/nothing") == .absent)
  }
}
