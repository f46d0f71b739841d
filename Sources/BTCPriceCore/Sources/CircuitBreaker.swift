/// One source's circuit breaker: a pure state machine over the instants of some clock.
///
/// - Closed: every call goes through. `failureThreshold` ordinary failures in a row open it for
///   `firstCoolDown`. A rate limit or a refusal opens it at once, for as long as the source asked
///   (`Retry-After`) or the policy's long cool-down.
/// - Open: calls are skipped until the cool-down ends, then one probe is let through (half-open).
/// - Half-open: success closes it; an ordinary failure opens it again for twice as long as last
///   time (up to `longestCoolDown`).
public struct CircuitBreaker<Instant: InstantProtocol>: Sendable
where Instant.Duration == Duration, Instant: Sendable {
  public enum State: Equatable, Sendable {
    case closed(failures: Int)
    case open(until: Instant, cause: PriceSourceError)
    case halfOpen
  }

  public private(set) var state: State = .closed(failures: 0)
  public let policy: CircuitBreakerPolicy
  /// Openings after ordinary failures since the last success; grows the cool-down.
  private var trips = 0

  public init(policy: CircuitBreakerPolicy = .standard) {
    self.policy = policy
  }

  public var phase: CircuitPhase {
    switch state {
    case .closed: .closed
    case .open: .open
    case .halfOpen: .halfOpen
    }
  }

  /// Whether the source may be asked at `now`. An open circuit whose cool-down is over becomes
  /// half-open here (the transition is returned) and lets this one call through.
  public mutating func admit(at now: Instant) -> (admitted: Bool, transition: CircuitTransition?) {
    guard case .open(let until, _) = state else { return (true, nil) }
    guard now >= until else { return (false, nil) }
    state = .halfOpen
    return (true, CircuitTransition(from: .open, to: .halfOpen))
  }

  /// How long an open circuit stays open after `now`, and why; nil unless open.
  public func remainingCoolDown(at now: Instant) -> (remaining: Duration, cause: PriceSourceError)?
  {
    guard case .open(let until, let cause) = state else { return nil }
    return (max(now.duration(to: until), .zero), cause)
  }

  /// Opens the circuit until `remaining` after `now`, for a limit that outlives a run: a ban or
  /// a refusal an earlier run was told about.
  public mutating func respect(limit remaining: Duration, cause: PriceSourceError, at now: Instant)
  {
    state = .open(until: now.advanced(by: remaining), cause: cause)
  }

  public mutating func recordSuccess() -> CircuitTransition? {
    let from = phase
    state = .closed(failures: 0)
    trips = 0
    return from == .closed ? nil : CircuitTransition(from: from, to: .closed)
  }

  public mutating func recordFailure(_ error: PriceSourceError, at now: Instant)
    -> CircuitTransition?
  {
    let from = phase
    if let coolDown = policy.mandatoryCoolDown(after: error) {
      return open(from: from, for: coolDown, at: now, cause: error)
    }
    switch state {
    case .closed(let failures) where failures + 1 < policy.failureThreshold:
      state = .closed(failures: failures + 1)
      return nil
    case .closed, .halfOpen:
      trips += 1
      return open(from: from, for: policy.coolDown(afterTrips: trips), at: now, cause: error)
    case .open:
      // Only a call that was admitted can fail; an open circuit admitted nothing.
      return nil
    }
  }

  private mutating func open(
    from: CircuitPhase, for coolDown: Duration, at now: Instant, cause: PriceSourceError
  ) -> CircuitTransition {
    state = .open(until: now.advanced(by: coolDown), cause: cause)
    return CircuitTransition(from: from, to: .open, coolDown: coolDown, cause: cause)
  }
}
