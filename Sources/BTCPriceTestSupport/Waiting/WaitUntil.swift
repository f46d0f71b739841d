import Testing

/// Yields until `condition` holds, so a test can let concurrent work reach a known point (a task
/// has started, a stub was called) before it advances a test clock. Never sleeps; records an
/// issue instead of hanging when the condition has not come true within `bound` of real time.
///
/// The bound is of time, not of turns: a count of yields passes in seconds on a loaded 2-core
/// machine, before the work waited for has even been scheduled. A test that waits never takes
/// longer for it: the condition is looked at on every turn.
public func waitUntil(
  _ condition: () -> Bool,
  _ comment: Comment? = nil,
  within bound: Duration = .seconds(8),
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let deadline = ContinuousClock.now.advanced(by: bound)
  while ContinuousClock.now < deadline {
    for _ in 0..<1_000 {
      if condition() { return }
      await Task.yield()
    }
  }
  if condition() { return }
  Issue.record(comment ?? "condition never became true", sourceLocation: sourceLocation)
}
