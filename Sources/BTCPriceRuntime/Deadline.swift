/// Thrown by ``race(_:until:on:)`` when the deadline passes first.
package struct DeadlineExceeded: Error {
  package init() {}
}

/// Runs `operation` until it returns or `deadline` passes on `clock`, whichever comes first.
///
/// The loser is cancelled. This is how every deadline in the product is enforced: in Core, on the
/// injected clock, never through a transport timeout (FoundationNetworking rounds those to whole
/// seconds). The operation must honour cancellation for the race to return promptly.
package func race<C: Clock, T: Sendable>(
  _ operation: @escaping @Sendable () async throws -> T,
  until deadline: C.Instant,
  on clock: C
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await clock.sleep(until: deadline, tolerance: nil)
      return nil
    }
    defer { group.cancelAll() }
    guard let first = try await group.next(), let value = first else {
      throw DeadlineExceeded()
    }
    return value
  }
}
