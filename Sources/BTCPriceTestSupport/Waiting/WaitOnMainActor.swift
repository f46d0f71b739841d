import Testing

/// ``waitUntil(_:_:sourceLocation:)`` for conditions on main-actor state, such as a view model's
/// properties: yields the main actor until `condition` holds, recording an issue instead of
/// hanging when it has not after `timeout` of real time (work over real HTTP takes real time).
@MainActor
public func waitOnMainActor(
  until condition: () -> Bool,
  _ comment: Comment? = nil,
  timeout: Duration = .seconds(10),
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return }
    await Task.yield()
  }
  if condition() { return }
  Issue.record(comment ?? "condition never became true", sourceLocation: sourceLocation)
}
