import NIOConcurrencyHelpers
import NIOCore

/// Runs a task's jobs on one SwiftNIO event loop: `Task(executorPreference:)` with this executor
/// keeps a tick on the thread that also does its socket I/O.
///
/// By default a tick hopped between threads many times: the timer fired on Dispatch's manager
/// thread, the tick ran on Swift's cooperative pool, the request went to the event-loop thread
/// and its answer came back to the pool. Each hop wakes a sleeping thread, often on the other
/// core, and on these machines the wake-ups cost more CPU than the work itself
/// (docs/PERFORMANCE.md, the row "+ ticks on one event-loop thread" and "What limits each
/// figure"). With this executor and ``EventLoopClock`` one thread wakes twice per tick: for its
/// timer and for its answer. What the tick does in between runs on the loop too, so it must
/// never block: the line and the cache's write are handed to threads of their own, which a
/// paused pager or a slow disk may hold up (docs/ARCHITECTURE.md, "What runs where").
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public final class EventLoopExecutor: TaskExecutor {
  public let loop: any EventLoop

  public init(loop: any EventLoop) {
    self.loop = loop
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

extension EventLoop {
  /// Starts `operation` in a task whose jobs run on this loop (see ``EventLoopExecutor``). Where
  /// the platform has no task executors (before macOS 15) it is an ordinary task.
  public func startTask<Success: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Success
  ) -> Task<Success, any Error> {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
      return Task(executorPreference: EventLoopExecutor(loop: self), operation: operation)
    }
    return Task(operation: operation)
  }

  /// Runs `operation` on this loop (see ``startTask(_:)``) and returns what it returns;
  /// cancelling the caller cancels it.
  public func runTask<Success: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Success
  ) async throws -> Success {
    let task = startTask(operation)
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }
}

/// A clock whose sleeps are timers on a SwiftNIO event loop, with `ContinuousClock`'s instants.
///
/// Unlike `ContinuousClock`, whose cancelled sleeps leave their Dispatch timer to fire later for
/// nothing, a cancelled sleep here removes its timer at once: a tick whose source answers before
/// its deadline leaves no work behind.
public struct EventLoopClock: Clock {
  public typealias Instant = ContinuousClock.Instant

  private let loop: any EventLoop

  public init(loop: any EventLoop) {
    self.loop = loop
  }

  public var now: Instant { .now }

  public var minimumResolution: Duration { ContinuousClock().minimumResolution }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let delay = Instant.now.duration(to: deadline)
    guard delay > .zero else { return }
    let timer = NIOLockedValueBox(Timer.notStarted)
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let scheduled = timer.withLockedValue { state -> Scheduled<Void>? in
          guard case .notStarted = state else { return nil }
          let scheduled = loop.scheduleTask(in: TimeAmount(delay)) {}
          state = .running(scheduled)
          return scheduled
        }
        guard let scheduled else { return continuation.resume(throwing: CancellationError()) }
        // Either the timer fires, or cancel() fails its future: the continuation resumes once.
        scheduled.futureResult.whenComplete { result in
          switch result {
          case .success: continuation.resume()
          case .failure: continuation.resume(throwing: CancellationError())
          }
        }
      }
    } onCancel: {
      let scheduled = timer.withLockedValue { state -> Scheduled<Void>? in
        defer { state = .cancelled }
        guard case .running(let scheduled) = state else { return nil }
        return scheduled
      }
      scheduled?.cancel()
    }
  }

  private enum Timer {
    case notStarted
    case running(Scheduled<Void>)
    case cancelled
  }
}
