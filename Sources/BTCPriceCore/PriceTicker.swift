/// Runs work on a fixed-rate grid: tick *n* starts at `start + n × interval`.
///
/// The schedule is computed from the start instant, never by sleeping an interval after the
/// work, so request time never accumulates into drift. Ticks never overlap: a tick that runs past
/// the end of its slot delays the next one to the slot the clock is now in (starting at once, with
/// what is left of that slot); slots that passed entirely are skipped, never run in a burst.
public struct PriceTicker: Sendable {
  public let interval: Duration
  private let clock: ElapsedClock

  public init(interval: Duration, clock: any Clock<Duration>) {
    precondition(interval > .zero, "the tick interval must be positive")
    self.interval = interval
    self.clock = ElapsedClock(clock)
  }

  /// Calls `tick` on the grid until `count` ticks have run (forever when `nil`).
  ///
  /// `tick` receives the slot number and the time left in its slot; it is expected to finish
  /// within that budget. Returns after the last tick.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled; a tick in flight sees the
  ///   cancellation too.
  public func run(
    count: Int? = nil,
    _ tick: @Sendable (_ slot: Int, _ budget: Duration) async -> Void
  ) async throws {
    let start = clock.now
    var slot = 0
    var ran = 0
    while count.map({ ran < $0 }) ?? true {
      let slotStart = start.advanced(by: interval * slot)
      if slotStart > clock.now {
        try await clock.sleep(until: slotStart, tolerance: nil)
      }
      let budget = clock.now.duration(to: slotStart.advanced(by: interval))
      await tick(slot, budget)
      ran += 1
      try Task.checkCancellation()
      let slotsElapsed = Int(start.duration(to: clock.now) / interval)
      slot = max(slot + 1, slotsElapsed)
    }
  }
}
