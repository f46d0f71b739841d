/// A timer set on a clock that rings once, with no task waiting for it.
///
/// Rings `true` when its time comes, or `false` when called off first (or when its clock stops
/// keeping time: an event loop that shut down): exactly once either way.
package protocol Alarm: Sendable {
  /// Ends the alarm: if it has not rung, it rings `false` (at once on a clock's own timer, as soon
  /// as its task sees the cancel on a sleeping one) and not at its time.
  func callOff()
}

/// A clock that keeps timers of its own (an event loop's), so that an alarm costs no task.
/// ``ElapsedClock`` sets its alarms there; on any other clock an alarm is a task that sleeps.
package protocol AlarmClock: Sendable {
  /// Sets an alarm that rings once `delay` has passed (at once for a delay of zero or less).
  func setAlarm(in delay: Duration, ring: @escaping @Sendable (_ onTime: Bool) -> Void)
    -> any Alarm
}
