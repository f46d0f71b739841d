import BTCPriceCore
import BTCPriceRuntime
import NIOConcurrencyHelpers
import NIOCore

/// Runs a task's jobs on one SwiftNIO event loop: `Task(executorPreference:)` with this executor
/// keeps a tick on the thread that also does its socket I/O.
///
/// Without it a tick hops between threads: the timer on Dispatch's manager thread, the tick on
/// Swift's cooperative pool, the request on the event-loop thread. Each hop wakes a sleeping
/// thread, often on the other core, and on these machines the wake-ups cost more CPU than the
/// work itself (docs/PERFORMANCE.md, "One event-loop thread for the ticks"). With this executor
/// and ``EventLoopClock`` one thread wakes twice per tick: for its
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
    let delay = Instant.now.duration(to: deadline)
    guard delay > .zero else { return try Task.checkCancellation() }
    let timer = Timer()
    // In a task cancelled already, the handler runs first and calls the timer off before it is
    // set: the timer then rings `false` as it starts, and the sleep throws at once.
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        timer.start(on: loop, in: TimeAmount(delay)) { onTime in
          if onTime {
            continuation.resume()
          } else {
            continuation.resume(throwing: CancellationError())
          }
        }
      }
    } onCancel: {
      timer.callOff()
    }
  }

  /// One timer of the loop: a scheduled callback, which makes no promise and no future (each
  /// future looks up its generic metadata several times in SwiftNIO's unspecialized code:
  /// docs/PERFORMANCE.md, "Streams"). It rings once: `true` when it fires,
  /// `false` when called off (which removes it from the loop) or when the loop shuts down with
  /// it pending, or at once if it could not be set.
  fileprivate final class Timer: NIOScheduledCallbackHandler, Alarm, Sendable {
    private enum State {
      case notStarted
      case pending(NIOScheduledCallback, ring: @Sendable (Bool) -> Void)
      case over
    }

    private let state = NIOLockedValueBox(State.notStarted)

    func start(
      on loop: any EventLoop, in delay: TimeAmount, ring: @escaping @Sendable (Bool) -> Void
    ) {
      // Scheduled under the lock, so that a call-off always finds the timer to remove. No
      // deadlock: the loop takes this lock (under its own) only to fire or remove this timer,
      // which does not exist before `scheduleCallback` returns.
      let started = state.withLockedValue { state -> Bool in
        defer { if case .notStarted = state { state = .over } }
        guard case .notStarted = state,
          let timer = try? loop.scheduleCallback(in: delay, handler: self)
        else { return false }
        state = .pending(timer, ring: ring)
        return true
      }
      if !started { ring(false) }
    }

    func callOff() {
      guard let (timer, ring) = take() else { return }
      // Outside the lock: the loop calls `didCancelScheduledCallback` under its own, which then
      // finds the timer over.
      timer.cancel()
      ring(false)
    }

    func handleScheduledCallback(eventLoop: some EventLoop) {
      take()?.ring(true)
    }

    /// The loop shut down with the timer pending (a call-off ended it first).
    func didCancelScheduledCallback(eventLoop: some EventLoop) {
      take()?.ring(false)
    }

    private func take() -> (timer: NIOScheduledCallback, ring: @Sendable (Bool) -> Void)? {
      state.withLockedValue { state in
        defer { state = .over }
        guard case .pending(let timer, let ring) = state else { return nil }
        return (timer, ring)
      }
    }
  }
}

/// An alarm (a watchdog's) is one of the loop's timers, like a sleep, with no task waiting on it.
extension EventLoopClock: AlarmClock {
  package func setAlarm(
    in delay: Duration, ring: @escaping @Sendable (_ onTime: Bool) -> Void
  ) -> any Alarm {
    let timer = Timer()
    timer.start(on: loop, in: TimeAmount(delay), ring: ring)
    return timer
  }
}
