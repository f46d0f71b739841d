import Dispatch

/// A thread of its own that works through what is handed to it, one job at a time, and tells
/// whoever waits once nothing is left: the shape of the tool's writers (`TerminalWriter` for
/// stdout and stderr, `BackgroundStoreWriter` for the stores' files), which take blocking work
/// off the event loop. What waits, and in which order, is `Pending`'s: the worker asks `next`
/// for each job under its lock and runs it outside the lock.
package final class SerialWorker<Pending: Sendable, Job: Sendable>: Sendable {
  private struct State {
    var pending: Pending
    /// The thread is working, or about to ask for the next job.
    var running = false
    var waiters: [@Sendable () -> Void] = []
  }

  private let state: Locked<State>
  private let thread: DispatchQueue
  private let next: @Sendable (inout Pending) -> Job?
  private let run: @Sendable (Job) -> Void
  private let caughtUp: @Sendable () -> Void

  /// - Parameters:
  ///   - next: takes the next job out of `pending`; nil when nothing (more) is to be done.
  ///   - run: does a job, on the worker's thread; it may block.
  ///   - caughtUp: runs on the worker's thread each time nothing is left, before the waiters
  ///     are told (it may hand over more).
  package init(
    label: String, _ pending: Pending, next: @escaping @Sendable (inout Pending) -> Job?,
    run: @escaping @Sendable (Job) -> Void, caughtUp: @escaping @Sendable () -> Void = {}
  ) {
    self.state = Locked(State(pending: pending))
    self.thread = DispatchQueue(label: label)
    self.next = next
    self.run = run
    self.caughtUp = caughtUp
  }

  /// Changes what waits under the lock; when `body` returns true (it handed over work), the
  /// worker starts unless it is already at work. Returns at once.
  package func hand<Result>(_ body: (inout Pending) -> (handed: Bool, result: Result)) -> Result {
    let (start, result) = state.withValue { state -> (Bool, Result) in
      let (handed, result) = body(&state.pending)
      guard handed, !state.running else { return (false, result) }
      state.running = true
      return (true, result)
    }
    if start { thread.async { self.work() } }
    return result
  }

  /// Reads or changes what waits, without starting the worker.
  package func withPending<Result>(_ body: (inout Pending) -> Result) -> Result {
    state.withValue { body(&$0.pending) }
  }

  /// Whether everything handed over has been done.
  package var isIdle: Bool { !state.withValue(\.running) }

  /// Returns once everything handed over has been done.
  package func finish() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      if !addWaiter({ done.resume() }) { done.resume() }
    }
  }

  /// Waits at most `bound` (nil: for ever) for everything handed over to be done; false when it
  /// was not. It blocks the calling thread, which must not be an event loop.
  @discardableResult
  package func waitUntilIdle(atMost bound: Duration? = nil) -> Bool {
    let done = DispatchSemaphore(value: 0)
    guard addWaiter({ done.signal() }) else { return true }
    guard let bound else {
      done.wait()
      return true
    }
    let milliseconds = max(Int(bound / .milliseconds(1)), 0)
    return done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success
  }

  /// Adds a waiter unless the worker is idle already; false then.
  private func addWaiter(_ waiter: @escaping @Sendable () -> Void) -> Bool {
    state.withValue { state in
      guard state.running else { return false }
      state.waiters.append(waiter)
      return true
    }
  }

  private func work() {
    while true {
      let job = state.withValue { state -> Job? in
        guard let job = next(&state.pending) else {
          state.running = false
          return nil
        }
        return job
      }
      guard let job else { break }
      run(job)
    }
    caughtUp()
    // The caught-up callback may have handed over more: its waiters then wait for that too.
    let waiters = state.withValue { state -> [@Sendable () -> Void] in
      guard !state.running else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter() }
  }
}
