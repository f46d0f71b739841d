#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small file replaced whole, atomically: what both stores keep their JSON in.
///
/// Writes go to a uniquely named temporary file in the same folder, are flushed to disk and then
/// renamed over the old file, so a reader (or a second instance, or the next run after `kill -9`)
/// sees the old or the new content, never a torn one.
struct AtomicFile {
  /// Why a file could not be used; `what` names the file for people ("cache", "state file").
  struct Failure: Swift.Error {
    enum Kind {
      case unreadable, corrupt, unwritable
    }

    let kind: Kind
    let reason: String
  }

  let url: URL
  /// A file larger than this is not ours.
  let maxSize: Int
  /// The file's path, its folder's and its name, worked out once rather than asked of the URL
  /// at every write (docs/PERFORMANCE.md, "What we own in a tick").
  private let path: String
  private let folder: String
  private let name: String
  /// `folder` with one trailing slash, to name the files beside this one.
  private let inFolder: String

  init(url: URL, maxSize: Int) {
    self.url = url
    self.maxSize = maxSize
    path = url.path
    folder = url.deletingLastPathComponent().path
    name = url.lastPathComponent
    inFolder = folder.hasSuffix("/") ? folder : folder + "/"
  }

  /// The file's bytes, or nil when nothing was ever saved there.
  ///
  /// Read with `open` and `read` rather than `Data(contentsOf:)`, and never more than one byte
  /// past `maxSize`: something endless at the path (`/dev/zero`) is refused, not read whole. A
  /// file that is not there (the limits file of every run that was never refused) costs no
  /// Foundation error with a dictionary of details.
  func contents() throws(Failure) -> Data? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw Failure(kind: .unreadable, reason: Self.errnoText())
    }
    defer { close(descriptor) }
    var status = stat()
    var expected = maxSize
    if fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) {
      guard Int(status.st_size) <= maxSize else {
        throw Failure(kind: .corrupt, reason: "file is \(status.st_size) bytes")
      }
      expected = Int(status.st_size)
    }
    // One byte more than expected, to see the end (or a file that grew past what it may hold).
    var bytes = [UInt8](repeating: 0, count: expected + 1)
    var count = 0
    while count <= maxSize {
      if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
      let got = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw Failure(kind: .unreadable, reason: Self.errnoText())
      }
      if got == 0 { break }
      count += got
    }
    guard count <= maxSize else {
      throw Failure(kind: .corrupt, reason: "file is more than \(maxSize) bytes")
    }
    return Data(bytes[..<count])
  }

  func replaceContents(with data: Data) throws(Failure) {
    // A rename replaces whatever has the name: `--cache-path /dev/null` run as root made
    // /dev/null a regular file for the whole machine. Only a file (or a link, which the rename
    // replaces, not its target) is ours to replace.
    var status = stat()
    if lstat(path, &status) == 0 {
      let type = status.st_mode & mode_t(S_IFMT)
      guard type == mode_t(S_IFREG) || type == mode_t(S_IFLNK) else {
        throw Failure(kind: .unwritable, reason: "not a regular file")
      }
    }
    // The folder is made only when it is not there (`stat` is cheaper than FileManager's
    // check). Anything else in its way (a file where the folder should be) is the temporary
    // file's `open` to refuse, with the reason: "Not a directory".
    if stat(folder, &status) != 0, errno == ENOENT {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw Failure(kind: .unwritable, reason: Self.reason(error))
      }
    }
    let temporary = inFolder + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    if let reason = Self.writeFully(data, to: temporary) ?? Self.moveIntoPlace(temporary, path) {
      unlink(temporary)
      throw Failure(kind: .unwritable, reason: reason)
    }
  }

  /// Deletes the temporary files of writers killed mid-write (`kill -9`, power loss) that are
  /// older than `age`; a live writer's file is only milliseconds old. Best effort: errors are
  /// ignored, the file works without this.
  ///
  /// Listed with `readdir` and dated with `lstat`, as `FileManager` would, without its
  /// dictionaries of attributes: every one-shot runs this (docs/PERFORMANCE.md, "The one-shot").
  func removeAbandonedTemporaryFiles(olderThan age: TimeInterval, now: Date) {
    let prefix = ".\(name)."
    for name in Self.names(in: folder) where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let path = inFolder + name
      var status = stat()
      guard lstat(path, &status) == 0 else { continue }
      #if canImport(Darwin)
        let modified = status.st_mtimespec
      #else
        let modified = status.st_mtim
      #endif
      let date = Date(
        timeIntervalSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9)
      if now.timeIntervalSince(date) > age {
        unlink(path)
      }
    }
  }

  /// The names in `folder`, `.` and `..` included; none when it cannot be read.
  private static func names(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      names.append(name)
    }
    return names
  }

  /// Writes and flushes a new file; returns why it failed, or nil.
  private static func writeFully(_ data: Data, to path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return errnoText() }
    defer { close(descriptor) }
    let failure: String? = data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errnoText()
        }
        offset += written
      }
      return nil
    }
    if let failure { return failure }
    return fsync(descriptor) == 0 ? nil : errnoText()
  }

  /// `rename(2)`, atomic within one file system. Named so that the C function needs no module
  /// prefix: the libc module differs per platform (Glibc, Musl, Darwin), and a prefix names only one.
  private static func moveIntoPlace(_ from: String, _ to: String) -> String? {
    rename(from, to) == 0 ? nil : errnoText()
  }

  private static func errnoText() -> String {
    String(cString: strerror(errno))
  }

  private static func reason(_ error: any Swift.Error) -> String {
    if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
      return String(cString: strerror(underlying.code.rawValue))
    }
    return String(describing: error)
  }
}
