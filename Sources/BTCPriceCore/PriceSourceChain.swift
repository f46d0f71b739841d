import Foundation

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

  public let links: [Link]
  private let run: @Sendable (Duration) async throws -> PriceQuote

  /// - Parameters:
  ///   - breakers: when to leave a failing source alone; `nil` asks every source on every tick.
  ///   - onEvent: every attempt, skip and circuit change, as it happens (for `--verbose` and
  ///     advice). Called from the loading task; keep it quick.
  public init(
    _ links: [Link], clock: any Clock<Duration>, breakers: CircuitBreakerPolicy? = .standard,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    self.links = links
    self.run = Self.runner(links, clock: clock, breakers: breakers, onEvent: onEvent)
  }

  /// The first valid quote delivered within `budget`.
  ///
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(within budget: Duration) async throws -> PriceQuote {
    try await run(budget)
  }

  // Opens the existential clock once, so breakers can keep that clock's own instants.
  private static func runner<C: Clock<Duration>>(
    _ links: [Link], clock: C, breakers: CircuitBreakerPolicy?,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void
  ) -> @Sendable (Duration) async throws -> PriceQuote {
    let runner = ChainRunner(links: links, clock: clock, policy: breakers, onEvent: onEvent)
    return { budget in try await runner.load(within: budget) }
  }
}

/// Something that happened to one source during a tick.
public enum PriceSourceEvent: Equatable, Sendable {
  case delivered(PriceSource, PriceQuote, latency: Duration)
  case failed(PriceSource, PriceSourceError, latency: Duration)
  /// Not asked: its circuit is open, or the tick had no time left.
  case skipped(PriceSource, PriceSourceError)
  case circuitChanged(PriceSource, CircuitTransition)
}

private final class ChainRunner<C: Clock<Duration>>: Sendable where C.Instant: Sendable {
  private let links: [PriceSourceChain.Link]
  private let clock: C
  private let onEvent: @Sendable (PriceSourceEvent) -> Void
  /// One breaker per link, or none when breakers are off.
  private let breakers: Protected<[CircuitBreaker<C.Instant>]>?

  init(
    links: [PriceSourceChain.Link], clock: C, policy: CircuitBreakerPolicy?,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void
  ) {
    self.links = links
    self.clock = clock
    self.onEvent = onEvent
    self.breakers = policy.map { policy in
      Protected(links.map { _ in CircuitBreaker(policy: policy) })
    }
  }

  func load(within budget: Duration) async throws -> PriceQuote {
    let end = clock.now.advanced(by: budget)
    var failures: [PriceFetchFailure.SourceFailure] = []
    for (index, link) in links.enumerated() {
      if let reason = skipReason(index, before: end) {
        onEvent(.skipped(link.source, reason))
        failures.append(.init(source: link.source, error: reason))
        continue
      }
      let started = clock.now
      let granted =
        link.timeout.map { min($0, started.duration(to: end)) }
        ?? started.duration(to: end)
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
  private func skipReason(_ index: Int, before end: C.Instant) -> PriceSourceError? {
    let now = clock.now
    if let breakers {
      let (decision, rest) = breakers.withValue { breakers in
        (breakers[index].admit(at: now), breakers[index].rest(at: now))
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
    _ index: Int, _ change: (inout CircuitBreaker<C.Instant>) -> CircuitTransition?
  ) {
    guard let transition = breakers?.withValue({ change(&$0[index]) }) else { return }
    onEvent(.circuitChanged(links[index].source, transition))
  }
}

/// A value behind a lock, for state that concurrent callers share.
final class Protected<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}

/// Every source in the chain failed; one entry per source, in chain order.
public struct PriceFetchFailure: Error, Equatable, Sendable, CustomStringConvertible {
  public struct SourceFailure: Equatable, Sendable {
    public let source: PriceSource
    public let error: PriceSourceError

    public init(source: PriceSource, error: PriceSourceError) {
      self.source = source
      self.error = error
    }
  }

  public let failures: [SourceFailure]

  public init(failures: [SourceFailure]) {
    self.failures = failures
  }

  /// A short reason for logs and `--json`: `binance: timed out after 800 ms; cryptocompare: HTTP 401`.
  public var description: String {
    failures.isEmpty
      ? "no price sources configured"
      : failures.map { "\($0.source.id): \($0.error)" }.joined(separator: "; ")
  }
}
