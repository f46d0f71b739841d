import BTCPriceRuntime
import Foundation
import Testing

/// A limit in seconds on each test of a suite, where Swift Testing's `.timeLimit` counts whole
/// minutes: a hang (a deadline race that no longer cancels its loser, a ticker that drifts past
/// the instant a test waits for) becomes a failure naming the test within seconds instead of a
/// CI job killed after its budget.
///
/// The test runs as one child of a race against the real clock. When the limit passes first, an
/// issue naming the test is recorded and the test is cancelled. Cancellation ends most hangs (a
/// test clock's sleep throws), but not a test awaiting an unstructured `Task` whose work never
/// ends, and neither `.timeLimit` nor this trait can end such a test. So when the test is still
/// running ``grace`` after its cancellation, the test process says which test hangs and exits
/// with status 1: the run fails in seconds, naming the culprit, rather than waiting for CI's
/// outside timeout.
public struct HangLimit: TestTrait, SuiteTrait, TestScoping {
  public let limit: Duration
  /// How long a cancelled test may take to end before the process is ended.
  public let grace: Duration

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // Raced per test case (the trait is recursive): not the suite, nor a parameterized test as
    // a whole, whose cases add up.
    guard !test.isSuite, testCase != nil else { return try await function() }
    let (limit, grace, name) = (limit, grace, test.name)
    let finished = WatchdogBox(false)
    defer { finished.withValue { $0 = true } }
    // A loop that never awaits starves the task pool the race below runs on; a thread of its own
    // still ends the run, a second after the cancelled test's grace.
    let watched = HangWatchdog.shared.watch(name, within: limit + grace + .seconds(1))
    defer { HangWatchdog.shared.end(watched) }
    try await withoutActuallyEscaping(function) { function in
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await function()
          return true
        }
        group.addTask {
          // A real sleep on purpose: this bounds the test's own (test-clock) time.
          try await Task.sleep(for: limit)
          return false
        }
        defer { group.cancelAll() }
        guard try await group.next() == false else { return }
        let message =
          "\(name) did not finish within \(limit): it hangs (a race whose loser is not "
          + "cancelled, a tick that never comes?)"
        Issue.record(Comment(rawValue: message))
        Task.detached {
          try? await Task.sleep(for: grace)
          guard !finished.value else { return }
          let notice =
            "\nHangLimit: \(message); still running \(grace) after it was cancelled, so the "
            + "test run ends here.\n"
          FileHandle.standardError.write(Data(notice.utf8))
          exit(1)
        }
      }
    }
  }
}

extension Trait where Self == HangLimit {
  /// Fails each test that runs longer than `limit` on the real clock, cancels it, and ends the
  /// test process when the test still runs `grace` later.
  public static func hangLimit(_ limit: Duration, grace: Duration = .seconds(5)) -> Self {
    HangLimit(limit: limit, grace: grace)
  }
}

/// One thread that ends the test process when a test outlives its hang limit and grace, for the
/// hangs the limit's own race cannot see: a loop that never awaits keeps the task pool's threads
/// (two on a 2-core machine), so the race's timer never runs. Found by scripts/mutate: a write
/// loop whose `<` became `<=` spun forever, and the run ended only at the runner's time limit.
final class HangWatchdog: Sendable {
  static let shared = HangWatchdog()

  private struct State {
    var next = 0
    var deadlines: [Int: (name: String, deadline: ContinuousClock.Instant)] = [:]
    var running = false
  }

  private let state = WatchdogBox(State())

  func watch(_ name: String, within limit: Duration) -> Int {
    let (id, start) = state.withValue { state in
      defer { state.next += 1 }
      state.deadlines[state.next] = (name, .now + limit)
      let start = !state.running
      state.running = true
      return (state.next, start)
    }
    if start { Thread.detachNewThread { self.run() } }
    return id
  }

  func end(_ id: Int) {
    state.withValue { _ = $0.deadlines.removeValue(forKey: id) }
  }

  private func run() {
    while true {
      Thread.sleep(forTimeInterval: 0.5)
      let now = ContinuousClock.now
      guard let overdue = state.value.deadlines.values.first(where: { $0.deadline < now }) else {
        continue
      }
      let notice =
        "\nHangLimit: \(overdue.name) did not finish within its limit and grace and does not "
        + "yield (a loop that never awaits?), so the test run ends here.\n"
      FileHandle.standardError.write(Data(notice.utf8))
      exit(1)
    }
  }
}

/// The watchdog's own lock box. Not Core's `Locked`: a mutant of `Locked` that never unlocks
/// (scripts/mutate) deadlocked the watchdog with the test it watched, and the run ended only
/// at the runner's time limit, with no named hang.
final class WatchdogBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) {
    stored = value
  }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&stored)
  }
}
