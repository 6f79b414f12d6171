// SPDX-License-Identifier: MIT
// Whole-file reads, crash-safe replacement, durable appends, and the other file chores.

import Glibc

/// File operations for configuration, state and the workout history.
public enum FileSystem {
  /// Reads the whole file at `path`. More than `maximumCount` bytes is an error (EFBIG), so a
  /// device or a huge file named by mistake (`/dev/zero` for a font) cannot fill the memory.
  /// - Parameter ownFile: the file is one the process keeps for itself; see `openOwnFile`.
  ///
  /// The corresponding C functions are `open` and `read`.
  public static func readFile(
    _ path: String, maximumCount: Int = .max, ownFile: Bool = false
  ) throws(SystemError) -> [UInt8] {
    let fd =
      ownFile ? try openOwnFile(path, .readOnly) : try FileDescriptor.open(path, .readOnly)
    defer { try? fd.close() }
    var bytes: [UInt8] = []
    // /proc files report a size of 0, so read until end of file rather than trusting fstat.
    while true {
      let result: FileDescriptor.ReadResult
      do {
        result = try fd.read(appendingTo: &bytes, maximumCount: 16_384)
      } catch {
        throw SystemError(operation: "read", path: path, errno: error.errno)
      }
      switch result {
      case .bytes:
        if bytes.count > maximumCount {
          throw SystemError(operation: "read", path: path, errno: .fileTooLarge)
        }
      case .endOfFile, .wouldBlock: return bytes
      }
    }
  }

  /// Reads the whole file at `path` as UTF-8 text (invalid sequences become U+FFFD); see
  /// `readFile` for `maximumCount` and `ownFile`.
  ///
  /// The corresponding C functions are `open` and `read`.
  public static func readTextFile(
    _ path: String, maximumCount: Int = .max, ownFile: Bool = false
  ) throws(SystemError) -> String {
    String(
      decoding: try readFile(path, maximumCount: maximumCount, ownFile: ownFile), as: UTF8.self)
  }

  /// Opens a file the process keeps for itself in its own directory (the workout state, the
  /// history): never through a symbolic link, and only when it is a regular file, so a link or
  /// a FIFO put in its place cannot make the process read, append to or wait on anything else.
  ///
  /// `O_NOFOLLOW`: "If the trailing component (i.e., basename) of pathname is a symbolic link,
  /// then the open fails, with the error ELOOP" (open(2)). `O_NONBLOCK` keeps the open of a FIFO
  /// from waiting for its other end before the check below refuses it; "this flag has no effect
  /// for regular files" (open(2)).
  ///
  /// The corresponding C functions are `open` with `O_NOFOLLOW` and `fstat`.
  public static func openOwnFile(
    _ path: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
    permissions: UInt32 = 0o644
  ) throws(SystemError) -> FileDescriptor {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(
        path, mode, options: options.union([.noFollow, .nonBlocking]), permissions: permissions)
    } catch  where error.errno == .tooManySymbolicLinks {
      throw SystemError(
        operation: "open", path: path, errno: error.errno,
        hint: "it is a symbolic link, which is not followed here; put a regular file in its place")
    }
    do throws(SystemError) {
      guard try status(of: fd, path: path).st_mode & S_IFMT == S_IFREG else {
        throw SystemError(
          operation: "open", path: path, errno: .invalidArgument,
          hint: "it is not a regular file; move it out of the way")
      }
    } catch {
      try? fd.close()
      throw error
    }
    return fd
  }

  /// Opens a regular file to be sent as it is (a picture or a video of the media directory):
  /// never through a symbolic link (a link put in the directory cannot lead to the daemon's own
  /// files), only a regular file, and only up to `maximumSize` bytes.
  /// - Returns: the descriptor, the caller's to close, the file's size and when it was last
  ///   modified (nanoseconds since 1970), which tell one version of the file from another.
  ///
  /// The corresponding C functions are `open` with `O_NOFOLLOW` and `fstat`.
  public static func openForSending(_ path: String, maximumSize: Int64) throws(SystemError) -> (
    descriptor: FileDescriptor, size: Int64, modified: Int64
  ) {
    let fd = try openOwnFile(path, .readOnly)
    do throws(SystemError) {
      let status = try status(of: fd, path: path)
      let size = Int64(status.st_size)
      guard size <= maximumSize else {
        throw SystemError(operation: "open", path: path, errno: .fileTooLarge)
      }
      let modified =
        Int64(status.st_mtim.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue
        &+ Int64(status.st_mtim.tv_nsec)
      return (fd, size, modified)
    } catch {
      try? fd.close()
      throw error
    }
  }

  /// Replaces the file at `path` with `bytes` so that a crash leaves either the old or the new
  /// contents, never a mix.
  ///
  /// The bytes go to a temporary file in the same directory (rename(2) only works within one
  /// file system), which is flushed with fsync(2) and then renamed over `path`: "If newpath
  /// already exists, it will be atomically replaced, so that there is no point at which another
  /// process attempting to access newpath will find it missing" (rename(2)). Finally the
  /// directory is fsynced so the rename itself survives a power cut (fsync(2): "Calling fsync()
  /// does not necessarily ensure that the entry in the directory containing the file has also
  /// reached disk"). A temporary file left by a crash is named `.<name>.tmp-…` and is ignored.
  /// - Parameter mode: the permission bits of the new file, applied exactly (not via the umask).
  ///
  /// The corresponding C functions are `open`, `write`, `fsync`, `rename`.
  public static func writeFileAtomically(
    _ path: String, _ bytes: some Collection<UInt8>, mode: UInt32 = 0o644
  ) throws(SystemError) {
    let (directory, name) = split(path)
    var attempt = 0
    while true {
      let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(MonotonicClock.now())-\(attempt)"
      let fd: FileDescriptor
      do {
        fd = try FileDescriptor.open(
          temporary, .writeOnly, options: [.create, .exclusiveCreate], permissions: mode)
      } catch  where error.errno == .fileExists && attempt < 8 {
        attempt += 1
        continue
      }
      do {
        try check("fchmod", path: temporary) { fchmod(fd.rawValue, mode_t(mode)) }
        try fd.writeAll(bytes)
        try fd.sync()
        try fd.close()
      } catch {
        try? fd.close()
        unlink(temporary)
        throw SystemError(operation: error.operation, path: temporary, errno: error.errno)
      }
      do {
        try check("rename", path: path) { rename(temporary, path) }
      } catch {
        unlink(temporary)
        throw error
      }
      try syncDirectory(directory)
      return
    }
  }

  /// Replaces the file at `path` with the UTF-8 bytes of `text`; see `writeFileAtomically`.
  ///
  /// The corresponding C functions are `open`, `write`, `fsync`, `rename`.
  public static func writeFileAtomically(
    _ path: String, text: String, mode: UInt32 = 0o644
  ) throws(SystemError) {
    try writeFileAtomically(path, Array(text.utf8), mode: mode)
  }

  /// Appends `line` and a newline to the file at `path`, creating it if needed, and waits until
  /// the data is on disk.
  ///
  /// The line always starts a line of its own: when the file does not end with a newline (a
  /// power cut tore the last append), one goes first, so the torn line stays one bad line that
  /// a reader skips instead of swallowing this one.
  ///
  /// The line goes out in a single write(2) on an `O_APPEND` descriptor, so the offset update and
  /// the write are one atomic step (open(2), O_APPEND) and concurrent appenders do not
  /// interleave inside a line. When the file was empty (just created), the directory is synced
  /// too.
  /// - Parameter ownFile: the file is one the process keeps for itself (see `openOwnFile`), so
  ///   no one else appends to it: a write that fails part-way (a full disk) is then cut off
  ///   again, leaving the file as it was.
  ///
  /// The corresponding C functions are `open` with `O_APPEND`, `pread`, `write` and `fsync`.
  public static func appendLine(
    _ line: String, to path: String, mode: UInt32 = 0o644, ownFile: Bool = false
  ) throws(SystemError) {
    // Opened for reading too, to look at the last byte.
    let options: FileDescriptor.OpenOptions = [.create, .append]
    let fd =
      ownFile
      ? try openOwnFile(path, .readWrite, options: options, permissions: mode)
      : try FileDescriptor.open(path, .readWrite, options: options, permissions: mode)
    let sizeBefore: Int64
    do throws(SystemError) {
      sizeBefore = Int64(try status(of: fd, path: path).st_size)
      var bytes = Array(line.utf8) + [0x0A]
      if sizeBefore > 0, try lastByte(of: fd, size: sizeBefore, path: path) != 0x0A {
        bytes.insert(0x0A, at: 0)
      }
      do {
        try fd.writeAll(bytes)
      } catch {
        if ownFile { _ = ftruncate(fd.rawValue, off_t(sizeBefore)) }
        throw error
      }
      try fd.sync()
      try fd.close()
    } catch {
      try? fd.close()
      throw SystemError(
        operation: error.operation, path: path, errno: error.errno, hint: error.hint)
    }
    if sizeBefore == 0 { try syncDirectory(split(path).directory) }
  }

  /// Renames `path` to `target` in the same directory, and syncs the directory so the new name
  /// survives a power cut.
  ///
  /// The corresponding C functions are `rename` and `fsync`.
  public static func move(_ path: String, to target: String) throws(SystemError) {
    try check("rename", path: path) { rename(path, target) }
    try syncDirectory(split(target).directory)
  }

  /// Renames a damaged file out of the way, to `<path>.corrupt-<YYYYMMDD-HHMMSS>` in local time
  /// (with `-1`, `-2` … appended if that name is taken), so that it can be inspected later and a
  /// fresh file can take its place.
  /// - Returns: the new path.
  ///
  /// The corresponding C function is `rename`.
  @discardableResult
  public static func moveAside(_ path: String) throws(SystemError) -> String {
    let time = WallClock.civilTime(at: WallClock.now())
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let stamp =
      pad(time.year, 4) + pad(time.month, 2) + pad(time.day, 2) + "-" + pad(time.hour, 2)
      + pad(time.minute, 2) + pad(time.second, 2)
    var target = "\(path).corrupt-\(stamp)"
    var suffix = 0
    while fileExists(target) {
      suffix += 1
      target = "\(path).corrupt-\(stamp)-\(suffix)"
    }
    try check("rename", path: path) { rename(path, target) }
    return target
  }

  /// Creates the directory at `path` and any missing parents, like `mkdir -p`.
  /// Existing directories are left alone, their mode unchanged.
  ///
  /// The corresponding C function is `mkdir`.
  public static func makeDirectories(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, mode_t(mode)) != 0 {
        let error = Errno.current
        if error != .fileExists || !isDirectory(prefix) {
          throw SystemError(operation: "mkdir", path: prefix, errno: error)
        }
      }
      prefix += "/"
    }
  }

  /// Whether something (a file, directory, socket …) exists at `path`. Symbolic links are
  /// followed.
  ///
  /// The corresponding C function is `access` with `F_OK`.
  public static func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Whether something exists at `path`, or whether that cannot be known because a directory
  /// on the way may not be searched (EACCES): a socket in a directory of a group the caller is
  /// not in is there, only closed to them.
  ///
  /// The corresponding C function is `access` with `F_OK`.
  public static func presence(_ path: String) -> FilePresence {
    if access(path, F_OK) == 0 { return .present }
    return Errno.current == .permissionDenied ? .closed : .absent
  }

  /// Whether `path` names a directory (following symbolic links).
  ///
  /// The corresponding C function is `stat`.
  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  /// The type, permissions and owner of the file at `path`: of a final symbolic link itself,
  /// or with `followingLinks` of the file it leads to.
  ///
  /// The corresponding C functions are `lstat` and `stat`.
  public static func attributes(_ path: String, followingLinks: Bool = false) throws(SystemError)
    -> FileAttributes
  {
    var status = stat()
    if followingLinks {
      try check("stat", path: path) { stat(path, &status) }
    } else {
      try check("lstat", path: path) { lstat(path, &status) }
    }
    let kind: FileAttributes.Kind =
      switch status.st_mode & S_IFMT {
      case S_IFREG: .regularFile
      case S_IFDIR: .directory
      case S_IFSOCK: .socket
      case S_IFLNK: .symbolicLink
      case S_IFCHR: .characterDevice
      default: .other
      }
    return FileAttributes(
      kind: kind, permissions: UInt32(status.st_mode & 0o7777), userID: status.st_uid,
      groupID: status.st_gid, size: Int(status.st_size))
  }

  /// Removes the file at `path`.
  /// - Returns: `false` when there was nothing to remove.
  ///
  /// The corresponding C function is `unlink`.
  @discardableResult
  public static func removeFile(_ path: String) throws(SystemError) -> Bool {
    switch valueOrErrno("unlink", { unlink(path) }) {
    case .success: return true
    case .failure(.noSuchFile): return false
    case .failure(let error): throw SystemError(operation: "unlink", path: path, errno: error)
    }
  }

  /// Removes the file at `path` and syncs its directory, so that the removal, like a
  /// `writeFileAtomically`, survives a power cut (see there).
  /// - Returns: `false` when there was nothing to remove.
  ///
  /// The corresponding C functions are `unlink`, `fsync`.
  @discardableResult
  public static func removeFileDurably(_ path: String) throws(SystemError) -> Bool {
    guard try removeFile(path) else { return false }
    try syncDirectory(split(path).directory)
    return true
  }

  /// Removes the empty directory at `path`.
  ///
  /// The corresponding C function is `rmdir`.
  public static func removeDirectory(_ path: String) throws(SystemError) {
    try check("rmdir", path: path) { rmdir(path) }
  }

  /// The names in the directory at `path`, without `.` and `..`, in no particular order.
  ///
  /// The corresponding C functions are `opendir` and `readdir`.
  public static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
    guard let directory = opendir(path) else {
      throw SystemError(operation: "opendir", path: path, errno: .current)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Creates a new, empty, private (0700) directory named `<prefix>XXXXXX`, for tests and
  /// scratch work.
  /// - Parameter parent: where to create it; `nil` means `$TMPDIR`, or `/tmp` when unset.
  /// - Returns: its path.
  ///
  /// The corresponding C function is `mkdtemp`.
  public static func makeTemporaryDirectory(
    in parent: String? = nil, prefix: String = "hardwarekit-"
  ) throws(SystemError) -> String {
    let base = parent ?? Environment.get("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
    guard created else {
      throw SystemError(operation: "mkdtemp", path: base, errno: .current)
    }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Splits `path` into its directory ("." when there is none) and its last component.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// The `fstat` of an open file.
  private static func status(of fd: FileDescriptor, path: String) throws(SystemError) -> stat {
    var status = stat()
    try check("fstat", path: path) { fstat(fd.rawValue, &status) }
    return status
  }

  /// The byte at `size - 1`, read without moving the file offset.
  private static func lastByte(of fd: FileDescriptor, size: Int64, path: String)
    throws(SystemError) -> UInt8
  {
    var byte: UInt8 = 0
    let count = try check("pread", path: path) { pread(fd.rawValue, &byte, 1, off_t(size - 1)) }
    return count == 1 ? byte : 0x0A
  }

  /// Flushes a directory's entries (a rename or a new file in it) to disk.
  static func syncDirectory(_ path: String) throws(SystemError) {
    let fd = try FileDescriptor.open(path, .readOnly, options: .directory)
    defer { try? fd.close() }
    do {
      try fd.sync()
    } catch {
      throw SystemError(operation: "fsync", path: path, errno: error.errno)
    }
  }
}

/// What `FileSystem.attributes` reports about a file.
public struct FileAttributes: Hashable, Sendable {
  /// The type of a file.
  public enum Kind: Hashable, Sendable {
    /// A regular file.
    case regularFile
    /// A directory.
    case directory
    /// A Unix-domain socket.
    case socket
    /// A symbolic link.
    case symbolicLink
    /// A character device, such as a tty or a GPIO chip.
    case characterDevice
    /// Anything else (block device, FIFO).
    case other
  }

  /// The file type.
  public var kind: Kind
  /// The permission bits, such as `0o660`.
  public var permissions: UInt32
  /// The owning user id.
  public var userID: UInt32
  /// The owning group id.
  public var groupID: UInt32
  /// The size in bytes.
  public var size: Int

  /// Creates an attributes value.
  public init(kind: Kind, permissions: UInt32, userID: UInt32, groupID: UInt32, size: Int) {
    self.kind = kind
    self.permissions = permissions
    self.userID = userID
    self.groupID = groupID
    self.size = size
  }
}

/// What ``FileSystem/presence(_:)`` finds at a path.
public enum FilePresence: Hashable, Sendable {
  /// Something is there.
  case present
  /// Nothing is there (or a directory on the way is missing).
  case absent
  /// A directory on the way may not be searched by this process: whether something is there
  /// cannot be known.
  case closed
}
