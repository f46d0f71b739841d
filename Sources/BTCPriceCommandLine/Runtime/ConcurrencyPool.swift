import NIOCore
import NIOPosix

#if os(Linux)
  import CBTCPriceRuntime
#endif

/// Where the tool's Swift tasks run when nothing else says.
///
/// On Linux, Swift's default pool is libdispatch's, and the first worker thread libdispatch
/// starts arms its pool monitor: a timer that wakes a thread once a second for as long as the
/// process lives (swift-corelibs-libdispatch, `src/event/workqueue.c`,
/// `_dispatch_workq_init_once`). A streaming run otherwise wakes about once a second, for its
/// tick, so that timer would double its wake-ups (docs/PERFORMANCE.md, "Threads and wake-ups").
/// SwiftNIO's event loops
/// wake only when there is work. (SwiftNIO's own way to take the pool over looks the runtime's
/// hook up with `dlsym`, which finds nothing once the runtime is linked statically, as the tool
/// ships; CBTCPriceRuntime names it at link time instead.)
public enum ConcurrencyPool {
  /// Runs Swift's tasks without an executor of their own on SwiftNIO's shared event loops
  /// instead of libdispatch's pool. Call it first thing, before any task starts. Elsewhere than
  /// Linux (Darwin's pool has no such timer) it does nothing. Returns whether the loops took
  /// over: false when another hook was there first.
  ///
  /// - Parameter threads: how many loops the shared group has; nil for SwiftNIO's default (one
  ///   a core), which `serve` needs: its HTTP server (Hummingbird's default) runs there too. The
  ///   price lines ask for 1: their ticks run on a loop of their own, and the shared loops carry
  ///   only the glue between (the front end's awaits, an alert command's spawn), so a second
  ///   thread would only be started, for a one-shot's every run.
  @discardableResult
  public static func useTheEventLoops(threads: Int? = nil) -> Bool {
    #if os(Linux)
      guard let hook = btc_enqueue_global_hook_address(), hook.pointee == nil else {
        return false
      }
      if let threads { NIOSingletons.groupLoopCountSuggestion = threads }
      typealias Enqueue =
        @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
      let enqueue: Enqueue = { job, _ in
        MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
      }
      hook.pointee = unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self)
      return true
    #else
      return false
    #endif
  }
}
