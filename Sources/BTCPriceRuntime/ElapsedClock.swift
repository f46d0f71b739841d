/// Any injected clock, seen as the time elapsed since it was wrapped.
///
/// Core takes `any Clock<Duration>`, whose instants cannot be stored or compared without opening
/// the existential. Wrapping it once gives a concrete clock whose instants are plain offsets, so
/// that the ticker, the deadlines and the circuit breakers need not be generic over the clock.
package struct ElapsedClock: Clock {
  /// Time since the clock was wrapped.
  package struct Instant: InstantProtocol {
    package var offset: Duration

    package func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    package func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    package static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let elapsed: @Sendable () -> Duration
  private let sleepUntil:
    @Sendable (_ offset: Duration, _ tolerance: Duration?) async throws -> Void
  private let alarmAt:
    @Sendable (_ offset: Duration, _ ring: @escaping @Sendable (Bool) -> Void) -> any Alarm
  package let minimumResolution: Duration

  package init(_ clock: any Clock<Duration>) {
    self = Self.wrapping(clock)
  }

  private init(
    elapsed: @escaping @Sendable () -> Duration,
    sleepUntil: @escaping @Sendable (Duration, Duration?) async throws -> Void,
    alarmAt: @escaping @Sendable (Duration, @escaping @Sendable (Bool) -> Void) -> any Alarm,
    minimumResolution: Duration
  ) {
    self.elapsed = elapsed
    self.sleepUntil = sleepUntil
    self.alarmAt = alarmAt
    self.minimumResolution = minimumResolution
  }

  private static func wrapping<C: Clock<Duration>>(_ clock: C) -> ElapsedClock {
    let origin = clock.now
    return ElapsedClock(
      elapsed: { origin.duration(to: clock.now) },
      sleepUntil: { offset, tolerance in
        try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
      },
      alarmAt: { offset, ring in
        // Cast when an alarm is set, not when the clock is wrapped: a type's first cast scans the
        // binary's conformance records, and a one-shot never sets an alarm (docs/PERFORMANCE.md,
        // "The one-shot's conformance scans"). Later casts are the runtime's cache.
        if let timers = clock as? any AlarmClock {
          return timers.setAlarm(in: offset - origin.duration(to: clock.now), ring: ring)
        }
        return SleepingAlarm(
          task: Task {
            do {
              try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
            } catch {
              ring(false)
              return
            }
            ring(true)
          })
      },
      minimumResolution: clock.minimumResolution)
  }

  package var now: Instant {
    Instant(offset: elapsed())
  }

  package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await sleepUntil(deadline.offset, tolerance)
  }

  /// Sets an alarm for `deadline` (``Alarm``): one of the wrapped clock's own timers if it keeps
  /// them (``AlarmClock``), else a task that sleeps until then.
  package func setAlarm(
    at deadline: Instant, ring: @escaping @Sendable (_ onTime: Bool) -> Void
  ) -> any Alarm {
    alarmAt(deadline.offset, ring)
  }
}

/// The alarm of a clock without timers of its own: a task asleep until its time. Called off, its
/// sleep ends with a cancellation and it rings `false`.
private struct SleepingAlarm: Alarm {
  let task: Task<Void, Never>

  func callOff() {
    task.cancel()
  }
}
