/// Asks each source in order until one delivers a valid price within its deadline.
///
/// A source gets `min(its timeout, what is left of the budget)`; the last ones usually have no
/// timeout of their own and get whatever the earlier ones left. A source that errors, sends
/// invalid data or misses its deadline is cancelled and the next one is asked at once, so the
/// fallback only ever costs time when the primary fails.
///
/// Each source has a ``CircuitBreaker``: a source that keeps failing, rate-limits us or refuses us
/// is skipped for a while instead of costing its whole deadline on every tick. Copies of a chain
/// share the breakers.
public struct PriceSourceChain: Sendable {
  public struct Link: Sendable {
    public let source: PriceSource
    public let loader: any PriceLoader
    /// The longest this source may take; `nil` means "whatever is left of the budget".
    public let timeout: Duration?

    public init(source: PriceSource, loader: any PriceLoader, timeout: Duration? = nil) {
      self.source = source
      self.loader = loader
      self.timeout = timeout
    }
  }

  private let links: [Link]
  private let clock: ElapsedClock
  /// One breaker per link, in link order; nil when breakers are off.
  private let breakers: Locked<[CircuitBreaker<ElapsedClock.Instant>]>?
  private let onEvent: @Sendable (PriceSourceEvent) -> Void

  /// - Parameters:
  ///   - breakers: when to leave a failing source alone; `nil` asks every source on every tick.
  ///   - onEvent: every attempt, skip and circuit change, as it happens (for `--verbose` and
  ///     advice). Called from the loading task; keep it quick.
  public init(
    _ links: [Link], clock: any Clock<Duration>, breakers: CircuitBreakerPolicy? = .standard,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    self.links = links
    self.clock = ElapsedClock(clock)
    self.breakers = breakers.map { policy in
      Locked(links.map { _ in CircuitBreaker(policy: policy) })
    }
    self.onEvent = onEvent
  }

  /// The first valid quote delivered within `budget`.
  ///
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(within budget: Duration) async throws -> PriceQuote {
    let end = clock.now.advanced(by: budget)
    var failures: [PriceFetchFailure.SourceFailure] = []
    for (index, link) in links.enumerated() {
      if let reason = skipReason(index, before: end) {
        onEvent(.skipped(link.source, reason))
        failures.append(.init(source: link.source, error: reason))
        continue
      }
      let started = clock.now
      let granted = min(link.timeout ?? budget, started.duration(to: end))
      let failure: PriceSourceError
      do {
        let quote = try await race(
          { [loader = link.loader] in try await loader.load() },
          until: started.advanced(by: granted), on: clock)
        onEvent(.delivered(link.source, quote, latency: started.duration(to: clock.now)))
        record(index) { $0.recordSuccess() }
        return quote
      } catch is DeadlineExceeded {
        failure = .timedOut(after: granted)
      } catch let error as PriceSourceError {
        try Task.checkCancellation()
        failure = error
      } catch {
        try Task.checkCancellation()
        failure = .unreachable(String(describing: error))
      }
      onEvent(.failed(link.source, failure, latency: started.duration(to: clock.now)))
      failures.append(.init(source: link.source, error: failure))
      let now = clock.now
      record(index) { $0.recordFailure(failure, at: now) }
    }
    throw PriceFetchFailure(failures: failures)
  }

  /// Why link `index` is not asked now, or nil to ask it. May move its circuit to half-open.
  private func skipReason(_ index: Int, before end: ElapsedClock.Instant) -> PriceSourceError? {
    let now = clock.now
    if let breakers {
      let (decision, rest) = breakers.withValue { breakers in
        (breakers[index].admit(at: now), breakers[index].remainingCoolDown(at: now))
      }
      if let transition = decision.transition {
        onEvent(.circuitChanged(links[index].source, transition))
      }
      if !decision.admitted, let rest {
        return .skipped("cooling down for \(rest.remaining.humanText) after: \(rest.cause)")
      }
    }
    return now < end ? nil : .skipped("no time left in this tick")
  }

  private func record(
    _ index: Int, _ change: (inout CircuitBreaker<ElapsedClock.Instant>) -> CircuitTransition?
  ) {
    guard let transition = breakers?.withValue({ change(&$0[index]) }) else { return }
    onEvent(.circuitChanged(links[index].source, transition))
  }
}
