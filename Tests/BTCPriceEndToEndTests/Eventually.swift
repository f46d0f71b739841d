import Testing

/// Waits in real time, up to `timeout`, for something the built binary does on its own schedule
/// (a command it started, a webhook retry after its back-off); records an issue when it never
/// happens. `waitUntil` only yields, which is too short for another process.
func eventually(
  within timeout: Duration = .seconds(15), _ condition: () -> Bool, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return }
    try? await Task.sleep(for: .milliseconds(20))
  }
  if condition() { return }
  Issue.record(comment ?? "condition never became true", sourceLocation: sourceLocation)
}
