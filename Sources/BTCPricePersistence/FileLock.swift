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

/// An advisory lock on a file next to the cache (`flock`), so that the one-shot runs of several
/// status-bar panes that find the cache stale at the same moment take turns: the first asks the
/// sources and writes the cache, the others then find it fresh. Released when the process ends,
/// whatever way it ends.
public final class FileLock: Sendable {
  private let descriptor: Int32

  /// Takes the lock on `path`, waiting at most `timeout` for another process to release it; nil
  /// when it could not be taken (the caller goes on without it: a second request is better than
  /// a status bar that hangs).
  public init?(path: String, waitingAtMost timeout: Duration) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return nil }
    let deadline = ContinuousClock.now + timeout
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
        close(descriptor)
        return nil
      }
      usleep(5_000)
    }
    self.descriptor = descriptor
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
