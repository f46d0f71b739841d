import Testing

/// Yields until `condition` holds, so a test can let concurrent work reach a known point (a task
/// has started, a stub was called) before it advances a test clock. Never sleeps; records an
/// issue instead of hanging when the condition never comes true.
public func waitUntil(
  _ condition: () -> Bool,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  for _ in 0..<1_000_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record(comment ?? "condition never became true", sourceLocation: sourceLocation)
}
