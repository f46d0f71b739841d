/// Runs work on a fixed-rate grid: tick *n* starts at `start + n × interval`.
///
/// The schedule is computed from an anchor instant, never by sleeping an interval after the work,
/// so request time never accumulates into drift. Ticks never overlap.
///
/// A tick that starts late by more than ``lateStartTolerance`` (the process was stopped with
/// Ctrl-Z, the laptop slept, the machine stalled, or the previous tick ran long) re-plans the grid
/// from now: it gets a full interval, and the slots that passed meanwhile are skipped, never run in
/// a burst. Without that, the tick would wake with its slot's budget already spent and report a
/// failure the sources never made.
public struct PriceTicker: Sendable {
  public let interval: Duration
  private let clock: ElapsedClock

  public init(interval: Duration, clock: any Clock<Duration>) {
    precondition(interval > .zero, "the tick interval must be positive")
    self.interval = interval
    self.clock = ElapsedClock(clock)
  }

  /// How late a tick may start and still keep the grid: a tenth of the interval, at most 100 ms.
  /// Timer jitter stays far below it; a suspension or a sleep is far above it.
  public var lateStartTolerance: Duration {
    min(interval / 10, .milliseconds(100))
  }

  /// Calls `tick` on the grid until `count` ticks have run (forever when `nil`).
  ///
  /// `tick` receives the slot number and its budget: the time left until its slot ends. It is
  /// expected to finish within that budget. Returns after the last tick.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled (a tick in flight sees the
  ///   cancellation too), or what `tick` throws, which ends the run.
  public func run(
    count: Int? = nil,
    _ tick: @Sendable (_ slot: Int, _ budget: Duration) async throws -> Void
  ) async throws {
    var anchor = clock.now
    var anchorSlot = 0
    var slot = 0
    var ran = 0
    while count.map({ ran < $0 }) ?? true {
      var slotStart = anchor.advanced(by: interval * (slot - anchorSlot))
      if slotStart > clock.now {
        try await clock.sleep(until: slotStart, tolerance: nil)
      }
      let now = clock.now
      if slotStart.duration(to: now) > lateStartTolerance {
        (anchor, anchorSlot, slotStart) = (now, slot, now)
      }
      try await tick(slot, now.duration(to: slotStart.advanced(by: interval)))
      ran += 1
      try Task.checkCancellation()
      let slotsElapsed = Int(anchor.duration(to: clock.now) / interval)
      slot = max(slot + 1, anchorSlot + slotsElapsed)
    }
  }
}
