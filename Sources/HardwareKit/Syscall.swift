// SPDX-License-Identifier: MIT
// The shared errno policy of every wrapper: retry EINTR, trap on caller bugs, throw the rest.

import Glibc

/// Runs `call` until it does not fail with `EINTR`, returning its result or the errno.
///
/// A call "fails" when it returns -1, the C convention. `EBADF` and `EFAULT` mean the program
/// passed a closed descriptor or a bad pointer: that is a bug, not an environmental condition,
/// so they trap instead of being thrown (the policy of swift-nio's `syscall` wrapper).
@inline(__always)
func valueOrErrno<Value: FixedWidthInteger>(
  _ operation: String, retryOnInterrupt: Bool = true, _ call: () -> Value
) -> Result<Value, Errno> {
  while true {
    let value = call()
    if value != -1 { return .success(value) }
    let error = Errno.current
    if error == .interrupted && retryOnInterrupt { continue }
    trapOnProgrammerError(error, operation)
    return .failure(error)
  }
}

/// Traps when `error` can only come from a bug in this process.
@inline(__always)
func trapOnProgrammerError(_ error: Errno, _ operation: String) {
  if error == .badFileDescriptor || error == .badAddress {
    preconditionFailure("\(operation) failed with \(error.name): a bug in the caller")
  }
}

/// Runs `call` with the `valueOrErrno` policy and throws a `SystemError` on failure.
@inline(__always)
@discardableResult
func check<Value: FixedWidthInteger>(
  _ operation: String, path: String? = nil, hint: String? = nil, _ call: () -> Value
) throws(SystemError) -> Value {
  switch valueOrErrno(operation, call) {
  case .success(let value): return value
  case .failure(let error):
    throw SystemError(operation: operation, path: path, errno: error, hint: hint)
  }
}

/// Converts the return value of a pthread-style call (0 or an errno value) into a throw.
@inline(__always)
func checkReturnedError(_ operation: String, _ result: Int32) throws(SystemError) {
  guard result != 0 else { return }
  let error = Errno(rawValue: result)
  trapOnProgrammerError(error, operation)
  throw SystemError(operation: operation, errno: error)
}
