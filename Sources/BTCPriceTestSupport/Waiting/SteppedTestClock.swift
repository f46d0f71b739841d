import BTCPriceCore
import BTCPriceRuntime
import Clocks
import Testing

/// swift-clocks' `TestClock`, plus a count of the sleeps that started on it, so a test can advance
/// time only once the code under test has reached the sleep it expects.
///
/// `TestClock.advance` resumes only the sleeps registered when it runs; under load the code under
/// test may not have got there yet, and the test then hangs or sees a late start. Tests drive time
/// in steps with ``advance(to:afterSleeps:)`` instead: "once k sleeps have started, move to t".
public final class SteppedTestClock: Clock, Sendable {
  public typealias Duration = Swift.Duration
  public typealias Instant = TestClock<Duration>.Instant

  private let base = TestClock<Duration>()
  private let started = Locked(0)
  private let suspension = Locked<Range<Instant>?>(nil)
  /// The instant the clock was created; step targets are offsets from it.
  public let origin: Instant

  public init() {
    origin = base.now
  }

  public var now: Instant { base.now }
  public var minimumResolution: Duration { base.minimumResolution }

  /// Time since ``origin``.
  public var elapsed: Duration { origin.duration(to: now) }

  /// How many sleeps have started so far, including those that returned at once.
  public var sleepsStarted: Int { started.value }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    started.withValue { $0 += 1 }
    let wake = suspension.value.flatMap { $0.contains(deadline) ? $0.upperBound : nil } ?? deadline
    // `TestClock` keeps a sleep until the current instant as a suspension that only a later
    // advance resumes, so a sleep that starts after an advance to its own deadline would hang.
    // A real clock returns at once, and so does this one.
    if wake <= base.now {
      try Task.checkCancellation()
      return
    }
    try await base.sleep(until: wake, tolerance: tolerance)
  }

  /// Stops the code under test from `origin + from` to `origin + until`, as Ctrl-Z and `fg` do, or
  /// a laptop's sleep: a sleep due in between wakes only at `until`, and finds the clock far past
  /// the instant it asked for.
  public func suspend(from: Duration, until: Duration) {
    suspension.withValue { $0 = origin.advanced(by: from)..<origin.advanced(by: until) }
  }

  /// Waits until `count` sleeps have started in total, then advances to `origin + offset`,
  /// resuming every sleep due by then in deadline order.
  public func advance(
    to offset: Duration, afterSleeps count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await waitUntil(
      { self.sleepsStarted >= count }, "\(count) sleeps never started",
      sourceLocation: sourceLocation)
    await base.advance(to: origin.advanced(by: offset))
  }

  /// Advances without waiting for any sleep: for steps where nothing new is expected to sleep.
  public func advance(to offset: Duration) async {
    await base.advance(to: origin.advanced(by: offset))
  }
}
