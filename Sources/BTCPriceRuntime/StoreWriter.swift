/// Where a store's writes run. A write ends in `fsync`, which takes milliseconds, and seconds on
/// a busy or waking disk: the command-line tool's event loop, which also answers the price
/// streams' pings, must never wait for one (ENGINEERING rule 11), so the tool runs the writes
/// on a thread of their own (`BackgroundStoreWriter`). The app and the tests write where they
/// are (``here``).
///
/// Every store write replaces its whole file, so a write that still waits may be replaced by a
/// newer one of the same file: a writer keeps the newest per file, and runs one file's writes
/// one at a time, in order.
public struct StoreWriter: Sendable {
  /// Writes at once, on the caller's thread.
  public static let here = StoreWriter { _, write in write() }

  /// One file a writer writes: whose it is, and which of its owner's files (the price history
  /// keeps one per range; the cache, the limits and the alert state one each).
  public struct File: Hashable, Sendable {
    let owner: ObjectIdentifier
    let name: String
  }

  private let submit: @Sendable (File, @escaping @Sendable () -> Void) -> Void

  /// - Parameter submit: runs `write`, now or later; `file` names what it writes (writes of one
  ///   file run one at a time and in order, and a newer one may replace one that waits).
  public init(
    _ submit: @escaping @Sendable (_ file: File, _ write: @escaping @Sendable () -> Void) -> Void
  ) {
    self.submit = submit
  }

  /// Runs `write`, a write of the file `name` that `owner` keeps (its only one by default),
  /// where this writer runs writes.
  public func write(
    for owner: AnyObject, file name: String = "", _ write: @escaping @Sendable () -> Void
  ) {
    submit(File(owner: ObjectIdentifier(owner), name: name), write)
  }

  /// Runs `save` where this writer runs writes; a failure is told to `warn` in the store's own
  /// words (`cannot write …/limits.json: Permission denied`).
  public func save(
    for owner: AnyObject, warn: @escaping @Sendable (String) -> Void,
    _ save: @escaping @Sendable () throws -> Void
  ) {
    write(for: owner) {
      do {
        try save()
      } catch {
        warn("\(error)")
      }
    }
  }
}
