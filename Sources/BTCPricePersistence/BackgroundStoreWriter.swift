import BTCPriceCore
import BTCPriceRuntime

/// Runs the stores' writes (temporary file, `fsync`, rename) on a thread of their own, so that
/// the event loop that hands them over never waits for a disk (``StoreWriter``).
///
/// Each file has at most one write waiting: a newer write of the same file replaces it, since
/// each writes the whole file. Writes of one file land in the order they were handed over. So
/// memory stays bounded however slow the disk, and each file ends with its newest content.
public final class BackgroundStoreWriter: Sendable {
  private struct Pending {
    /// The write waiting for each file, and the order in which the files asked.
    var waiting: [StoreWriter.File: @Sendable () -> Void] = [:]
    var order: [StoreWriter.File] = []
  }

  private let worker = SerialWorker<Pending, @Sendable () -> Void>(
    label: "btc-price.disk", Pending(),
    next: { pending in
      guard !pending.order.isEmpty else { return nil }
      return pending.waiting.removeValue(forKey: pending.order.removeFirst())
    },
    run: { write in write() })

  public init() {}

  /// The ``StoreWriter`` that hands writes to this thread.
  public var writer: StoreWriter {
    StoreWriter { [worker] file, write in
      worker.hand { pending in
        if pending.waiting.updateValue(write, forKey: file) == nil { pending.order.append(file) }
        return (handed: true, result: ())
      }
    }
  }

  /// Returns once every write handed over has landed.
  public func finish() async {
    await worker.finish()
  }

  /// Waits at most `bound` for every write handed over to land; false when one had not. For
  /// the ways out that cannot wait long (a second signal): it blocks the calling thread.
  @discardableResult
  public func waitUntilIdle(atMost bound: Duration) -> Bool {
    worker.waitUntilIdle(atMost: bound)
  }
}
