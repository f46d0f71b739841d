import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Testing

/// An alarm (a stream's watchdog waits on one) rings once: `true` at its time, `false` when
/// called off first. On a clock with timers of its own it is one of them; on any other clock, a
/// task that sleeps.
@Suite("Alarms on any clock", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct SetAnAlarmOnAnyClockTests {
  @Test func onAClockWithTimers_theAlarmIsItsTimer_forTheTimeLeftToTheDeadline() async {
    let timers = TimerClock()
    let clock = ElapsedClock(timers)
    let deadline = clock.now.advanced(by: .seconds(5))
    timers.base.withValue { $0 = $0.advanced(by: .seconds(3)) }

    let alarm = clock.setAlarm(at: deadline) { _ in }

    #expect(timers.delays.value == [.seconds(2)])
    #expect((alarm as? TimerClock.Timer) != nil, "the alarm is not the clock's own timer")
  }

  @Test func onAClockWithoutTimers_itRingsAtItsTime_andNotBefore() async {
    let stepped = SteppedTestClock()
    let clock = ElapsedClock(stepped)
    let rings = Locked<[Bool]>([])

    _ = clock.setAlarm(at: clock.now.advanced(by: .seconds(5))) { onTime in
      rings.withValue { $0.append(onTime) }
    }
    await stepped.advance(to: .milliseconds(4_999), afterSleeps: 1)
    for _ in 0..<1_000 { await Task.yield() }
    #expect(rings.value.isEmpty, "rang before its time")
    await stepped.advance(to: .seconds(5))

    await waitUntil({ !rings.value.isEmpty }, "never rang")
    #expect(rings.value == [true])
  }

  @Test func onAClockWithoutTimers_calledOff_itRingsFalseOnce_andNeverAtItsTime() async {
    let stepped = SteppedTestClock()
    let clock = ElapsedClock(stepped)
    let rings = Locked<[Bool]>([])
    let alarm = clock.setAlarm(at: clock.now.advanced(by: .seconds(5))) { onTime in
      rings.withValue { $0.append(onTime) }
    }
    await waitUntil({ stepped.sleepsStarted == 1 }, "the alarm never slept")

    alarm.callOff()
    await waitUntil({ !rings.value.isEmpty }, "called off, it never rang")
    alarm.callOff()
    await stepped.advance(to: .seconds(10))
    for _ in 0..<1_000 { await Task.yield() }

    #expect(rings.value == [false])
  }
}

/// A clock that keeps its own timers and records the delays it was asked for.
private final class TimerClock: Clock, AlarmClock {
  final class Timer: Alarm {
    func callOff() {}
  }

  let base = Locked(ContinuousClock.Instant.now)
  let delays = Locked<[Duration]>([])

  var now: ContinuousClock.Instant { base.value }
  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    Issue.record("an alarm slept on a clock that keeps timers")
  }

  func setAlarm(in delay: Duration, ring: @escaping @Sendable (Bool) -> Void) -> any Alarm {
    delays.withValue { $0.append(delay) }
    return Timer()
  }
}
