// SPDX-License-Identifier: MIT
// A daemon whose event loop breaks exits 70 (EX_SOFTWARE), so the unit's Restart=on-failure
// brings it back. The loop is broken from outside, as a too-strict SystemCallFilter= would break
// it: a seccomp filter makes timerfd_settime(2), which only the loop calls, fail with EPERM (the
// unit's SystemCallErrorNumber=EPERM).

import Glibc
import HardwareKit
import Testing

@Suite struct EventLoopFailureTests {
  private var repositoryRoot: String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }

  /// Installs a seccomp filter that fails one system call with EPERM and runs the rest of the
  /// command line (seccomp(2): a classic BPF program on `seccomp_data`, nr at 0, arch at 4).
  static let denySyscall = """
    import ctypes, os, platform, struct, sys
    numbers = {"x86_64": (0xC000003E, 286), "aarch64": (0xC00000B7, 86)}  # timerfd_settime
    if platform.machine() not in numbers:
        sys.exit("no system call numbers for " + platform.machine())
    arch, nr = numbers[platform.machine()]
    def op(code, k, jt=0, jf=0):
        return struct.pack("HBBI", code, jt, jf, k)
    LD_ABS, JEQ, RET = 0x20, 0x15, 0x06
    program = b"".join([
        op(LD_ABS, 4), op(JEQ, arch, 0, 3),
        op(LD_ABS, 0), op(JEQ, nr, 0, 1),
        op(RET, 0x00050000 | 1),  # SECCOMP_RET_ERRNO | EPERM
        op(RET, 0x7FFF0000),  # SECCOMP_RET_ALLOW
    ])
    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    buffer = ctypes.create_string_buffer(program)
    libc = ctypes.CDLL(None, use_errno=True)
    filter = Program(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(filter), 0, 0) != 0:
        sys.exit("seccomp: " + os.strerror(ctypes.get_errno()))
    os.execv(sys.argv[1], sys.argv[1:])
    """

  #if arch(x86_64) || arch(arm64)
    static let knowsTheSyscallNumbers = true
  #else
    static let knowsTheSyscallNumbers = false
  #endif

  @Test(
    .timeLimit(.minutes(1)),
    .enabled(if: knowsTheSyscallNumbers, "the filter knows x86-64's and arm64's numbers only"))
  func aFailedEventLoopExits70() throws {
    let daemon = try DaemonHarness(config: testConfig)
    let script = daemon.directory + "/deny-timerfd-settime.py"
    try FileSystem.writeFileAtomically(script, text: Self.denySyscall)
    try daemon.start(waitForSocket: false, launcher: ["/usr/bin/python3", script])
    let status = try daemon.waitForExit()
    #expect(status == .exited(70), "log:\n\(daemon.log)")
    #expect(
      daemon.log.contains("event loop failed")
        && daemon.log.contains("Operation not permitted (EPERM)"), "log:\n\(daemon.log)")
  }

  /// systemd restarts a non-zero exit under Restart=on-failure unless the status is listed in
  /// RestartPreventExitStatus= (systemd.service(5)).
  @Test func theUnitRestartsAFailedLoop() throws {
    let unit = try FileSystem.readTextFile(repositoryRoot + "/systemd/wodclockd.service")
    let settings = unit.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(settings.contains("Restart=on-failure"))
    let prevented = settings.filter { $0.hasPrefix("RestartPreventExitStatus=") }
      .flatMap { $0.dropFirst("RestartPreventExitStatus=".count).split(separator: " ") }
    #expect(prevented.contains("78"))
    #expect(!prevented.contains("70"))
  }
}
