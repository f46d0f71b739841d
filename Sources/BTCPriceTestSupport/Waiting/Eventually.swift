import Testing

/// Waits in real time, up to `timeout`, for something that happens on its own schedule: another
/// process (the built binary, a webhook retry after its back-off) or a real socket. Records an
/// issue when it never happens. ``waitUntil(_:_:sourceLocation:)`` only yields, which is too short
/// for either.
///
/// - Parameter timeout: no default: a real socket on 127.0.0.1 answers within milliseconds (the
///   integration tests give it 5 s), a process under a loaded machine needs longer (15 s).
public func eventually(
  within timeout: Duration, _ condition: () -> Bool, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return }
    try? await Task.sleep(for: .milliseconds(5))
  }
  if condition() { return }
  Issue.record(comment ?? "condition never became true", sourceLocation: sourceLocation)
}
