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
    let wake = Wake()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        wake.start(continuation, on: loop, in: TimeAmount(delay))
      }
    } onCancel: {
      wake.cancel()
    }
  }

  /// One sleep's timer: a scheduled callback of the loop, which makes no promise and no future
  /// (each future looks up its generic metadata several times in SwiftNIO's unspecialized code:
  /// docs/PERFORMANCE.md, "A tick without futures"). The continuation resumes once: when the
  /// timer fires, when the sleep is cancelled (which calls the timer off), or when the loop
  /// shuts down with the timer pending.
  private final class Wake: NIOScheduledCallbackHandler, Sendable {
    private enum State {
      case notStarted
      case waiting(CheckedContinuation<Void, any Error>, timer: NIOScheduledCallback)
      case over
    }

    private let state = NIOLockedValueBox(State.notStarted)

    func start(
      _ continuation: CheckedContinuation<Void, any Error>, on loop: any EventLoop,
      in delay: TimeAmount
    ) {
      // Scheduled under the lock, so that a cancel always finds the timer to call off. No
      // deadlock: the loop takes this lock (under its own) only to fire or call off this timer,
      // which does not exist before `scheduleCallback` returns.
      let started = state.withLockedValue { state -> Bool in
        defer { if case .notStarted = state { state = .over } }
        guard case .notStarted = state,
          let timer = try? loop.scheduleCallback(in: delay, handler: self)
        else { return false }
        state = .waiting(continuation, timer: timer)
        return true
      }
      if !started { continuation.resume(throwing: CancellationError()) }
    }

    func cancel() {
      let (continuation, timer) = state.withLockedValue {
        state -> (CheckedContinuation<Void, any Error>?, NIOScheduledCallback?) in
        defer { state = .over }
        guard case .waiting(let continuation, let timer) = state else { return (nil, nil) }
        return (continuation, timer)
      }
      // Outside the lock: the loop calls `didCancelScheduledCallback` under its own, which
      // then finds the sleep over.
      timer?.cancel()
      continuation?.resume(throwing: CancellationError())
    }

    func handleScheduledCallback(eventLoop: some EventLoop) {
      end(throwing: nil)
    }

    /// The loop shut down with the timer pending (an explicit cancel ended the sleep first).
    func didCancelScheduledCallback(eventLoop: some EventLoop) {
      end(throwing: CancellationError())
    }

    private func end(throwing error: (any Error)?) {
      let continuation = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
        guard case .waiting(let continuation, _) = state else { return nil }
        state = .over
        return continuation
      }
      guard let continuation else { return }
      if let error {
        continuation.resume(throwing: error)
      } else {
        continuation.resume()
      }
    }
  }
}
