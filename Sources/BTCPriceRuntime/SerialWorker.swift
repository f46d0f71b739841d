import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A thread of its own that works through what is handed to it, one job at a time, and tells
/// whoever waits once nothing is left: the shape of the tool's writers (`TerminalWriter` for
/// stdout and stderr, `BackgroundStoreWriter` for the stores' files), which take blocking work
/// off the event loop. What waits, and in which order, is `Pending`'s: the worker asks `next`
/// for each job under its lock and runs it outside the lock.
///
/// The thread is a POSIX thread of the worker's own, started with the first job, that sleeps on
/// a condition variable while nothing waits: handing over a line wakes that thread alone, where
/// a `DispatchQueue` would wake one of libdispatch's pool threads and its work-queue monitor
/// (docs/PERFORMANCE.md, "Threads and wake-ups"). The thread takes no signal (all are blocked
/// in it, as in libdispatch's threads), so a signal the tool handles is never delivered to a
/// writer stuck in a `write(2)`; it ends once the worker is released and has done what it was
/// handed.
package final class SerialWorker<Pending: Sendable, Job: Sendable>: Sendable {
  private struct State {
    var pending: Pending
    /// The thread is working, or about to ask for the next job.
    var running = false
    /// The thread found nothing left and is running the caught-up callback: a waiter waits for
    /// that too (it may hand over more, and what it draws belongs to "everything handed over").
    var catchingUp = false
    /// The thread has been started (it is started by the first job).
    var started = false
    /// The worker was released: the thread ends once idle.
    var released = false
    var waiters: [@Sendable () -> Void] = []
  }

  private let state: WorkerState<State>
  private let name: String
  private let next: @Sendable (inout Pending) -> Job?
  private let run: @Sendable (Job) -> Void
  private let caughtUp: @Sendable () -> Void

  /// - Parameters:
  ///   - label: names the thread (`writer-` and the label without its `btc-price.`, as
  ///     `/proc/PID/task/*/comm` shows it, cut to 15 bytes).
  ///   - next: takes the next job out of `pending`; nil when nothing (more) is to be done.
  ///   - run: does a job, on the worker's thread; it may block.
  ///   - caughtUp: runs on the worker's thread each time nothing is left, before the waiters
  ///     are told (it may hand over more).
  package init(
    label: String, _ pending: Pending, next: @escaping @Sendable (inout Pending) -> Job?,
    run: @escaping @Sendable (Job) -> Void, caughtUp: @escaping @Sendable () -> Void = {}
  ) {
    self.state = WorkerState(State(pending: pending))
    self.name = Self.threadName(label)
    self.next = next
    self.run = run
    self.caughtUp = caughtUp
  }

  deinit {
    // The thread holds what it needs to finish the jobs handed over, not the worker.
    state.withValue { $0.released = true }
    state.signal()
  }

  /// Changes what waits under the lock; when `body` returns true (it handed over work), the
  /// worker starts unless it is already at work. Returns at once.
  package func hand<Result>(_ body: (inout Pending) -> (handed: Bool, result: Result)) -> Result {
    var (wake, startThread) = (false, false)
    let result = state.withValue { state -> Result in
      let (handed, result) = body(&state.pending)
      guard handed, !state.running else { return result }
      state.running = true
      wake = true
      if !state.started {
        state.started = true
        startThread = true
      }
      return result
    }
    // Outside the lock: the thread looks at `running` under it, so no wake is lost.
    if startThread {
      startWorkerThread()
    } else if wake {
      state.signal()
    }
    return result
  }

  /// Reads or changes what waits, without starting the worker.
  package func withPending<Result>(_ body: (inout Pending) -> Result) -> Result {
    state.withValue { body(&$0.pending) }
  }

  /// Whether everything handed over has been done.
  package var isIdle: Bool { state.withValue { !$0.running && !$0.catchingUp } }

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
    // A semaphore, not a queue: waiting on it wakes none of libdispatch's threads.
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
      guard state.running || state.catchingUp else { return false }
      state.waiters.append(waiter)
      return true
    }
  }

  private func startWorkerThread() {
    // The thread keeps these, not `self`, so that releasing the worker ends it.
    let (state, next, run, caughtUp) = (state, next, run, caughtUp)
    let started = WorkerThread.start(named: name) {
      while true {
        // Asleep until a job is handed over, or the worker released with nothing left.
        let goOn = state.wait(until: { $0.running || $0.released }) { $0.running }
        guard goOn else { return }
        Self.work(state: state, next: next, run: run, caughtUp: caughtUp)
      }
    }
    precondition(started, "SerialWorker: no thread for \(name)")
  }

  /// Does every job there is, then tells the waiters.
  private static func work(
    state: WorkerState<State>, next: @Sendable (inout Pending) -> Job?,
    run: @Sendable (Job) -> Void, caughtUp: @Sendable () -> Void
  ) {
    while true {
      let job = state.withValue { state -> Job? in
        guard let job = next(&state.pending) else {
          state.running = false
          state.catchingUp = true
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
      state.catchingUp = false
      guard !state.running else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter() }
  }

  /// `writer-` and the label without its `btc-price.`, cut to the 15 bytes a Linux thread name
  /// holds (labels are ASCII). Worked out on bytes: `String`'s own `hasPrefix` and `count`
  /// compare and count characters, which brings in Unicode tables the tool otherwise leaves on
  /// disk (docs/PERFORMANCE.md, "Peak RSS").
  package static func threadName(_ label: String) -> String {
    let prefix = Array("btc-price.".utf8)
    var short = Array(label.utf8)
    if short.starts(with: prefix) { short.removeFirst(prefix.count) }
    return String(decoding: (Array("writer-".utf8) + short).prefix(15), as: UTF8.self)
  }
}

/// A value behind a mutex, with the condition variable the worker's thread sleeps on.
private final class WorkerState<Value>: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var stored: Value

  init(_ value: Value) {
    stored = value
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deinitialize(count: 1)
    condition.deallocate()
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&stored)
  }

  /// Wakes the thread that sleeps in ``wait(until:then:)``, to look again at what it waits for.
  func signal() {
    pthread_cond_signal(condition)
  }

  /// Sleeps until `ready` holds, then runs `body` under the same lock.
  func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while !ready(stored) { pthread_cond_wait(condition, mutex) }
    return body(&stored)
  }
}

/// Starts a detached POSIX thread.
package enum WorkerThread {
  private final class Body {
    let name: String
    let run: () -> Void
    init(name: String, run: @escaping () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Starts `body` on a new thread with every signal blocked; false when none could be made.
  package static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    let argument = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
    // A new thread inherits the mask of the thread that makes it: blocked from its first
    // instruction, so no signal can land on it between its start and a mask of its own.
    var all = sigset_t()
    sigfillset(&all)
    var previous = sigset_t()
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { argument in
        #if canImport(Darwin)
          let argument: UnsafeMutableRawPointer? = argument
        #endif
        let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
        WorkerThread.setName(body.name)
        body.run()
        return nil
      }, argument)
    guard result == 0 else {
      Unmanaged<Body>.fromOpaque(argument).release()
      return false
    }
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
    return true
  }

  /// Names the calling thread. Glibc's `pthread_setname_np` does not reach Swift (it needs
  /// `_GNU_SOURCE`), so on Linux the name is written where the kernel keeps it.
  private static func setName(_ name: String) {
    #if canImport(Darwin)
      pthread_setname_np(name)
    #elseif os(Linux)
      let file = open("/proc/thread-self/comm", O_WRONLY)
      guard file >= 0 else { return }
      var name = name
      _ = name.withUTF8 { write(file, $0.baseAddress, $0.count) }
      close(file)
    #endif
  }
}
