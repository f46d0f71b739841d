/// Asks each price source in order until one delivers a valid price within its deadline: a
/// ``SourceChain`` of ``PriceLoader``s, whose deliveries are reported as
/// ``PriceSourceEvent/delivered(_:_:latency:)``.
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

  /// A limit a source set in an earlier run that still holds: a ban, a rate limit, a refusal.
  public struct InheritedLimit: Equatable, Sendable {
    public let remaining: Duration
    public let cause: PriceSourceError

    public init(remaining: Duration, cause: PriceSourceError) {
      self.remaining = remaining
      self.cause = cause
    }
  }

  private let chain: SourceChain<Void, PriceQuote>

  /// - Parameters:
  ///   - breakers: when to leave a failing source alone; `nil` asks every source on every tick.
  ///   - inheritedLimits: by source id, limits an earlier run was told about; each source is
  ///     left alone until its limit ends.
  ///   - onEvent: every attempt, skip and circuit change, as it happens (for `--verbose` and
  ///     advice). Called from the loading task; keep it quick.
  public init(
    _ links: [Link], clock: any Clock<Duration>, breakers: CircuitBreakerPolicy? = .standard,
    inheritedLimits: [String: InheritedLimit] = [:],
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    chain = SourceChain(
      links.map { link in
        SourceChain.Link(source: link.source, timeout: link.timeout) {
          [loader = link.loader] _ in try await loader.load()
        }
      }, clock: clock, breakers: breakers, inheritedLimits: inheritedLimits, onEvent: onEvent,
      onDelivered: { source, quote, latency in
        onEvent(.delivered(source, quote, latency: latency))
      })
  }

  /// The first valid quote delivered within `budget`.
  ///
  /// - Parameter skipping: sources not asked this time, silently (a referee is never one of the
  ///   two sources it settles).
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(within budget: Duration, skipping: Set<PriceSource> = []) async throws
    -> PriceQuote
  {
    try await chain.load((), within: budget, skipping: skipping)
  }

  /// Leaves the source with id `sourceID` alone as if its last request had failed with `cause`:
  /// a refusal told by another way to the same exchange (its stream's handshake). The circuit
  /// change is reported as any other, so the limits kept across runs see it.
  public func respect(_ cause: PriceSourceError, from sourceID: String) {
    chain.respect(cause, from: sourceID)
  }
}
