import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleHistory {
  /// The exchanges' candles as a history's ``CandleHistory/Loader``: one ``SourceChain`` over
  /// the exchanges with candles in `currency`, so a range comes from the first that answers with
  /// drawable candles, each within its timeout, with the breakers, limits and reasons prices have.
  /// One breaker per exchange serves every range: a source that rate-limits the day is left
  /// alone for the week too. A pipeline wires it beside the price's chain (``PricePipeline``).
  public struct RemoteChain: Sendable {
    public let chain: SourceChain<ChartRange, CandleSeries>
    /// Where each source's candles are asked, by source id: where a limit it sets holds.
    public let endpoints: [String: URL]
    private let budget: Duration

    /// - Parameters:
    ///   - definitions: the exchanges to ask, in order (``CandleSourceDefinition/serving(_:from:)``).
    ///     One without candles in `currency`, or whose URL cannot be pointed at it, is left out.
    ///   - urls: endpoint overrides by source id.
    ///   - inheritedLimit: a limit kept for a source at this URL's endpoint, by an earlier run or
    ///     this one's prices (a ban on `api.binance.com` holds for its klines as for its ticker);
    ///     asked before each request.
    ///   - onLimit: a limit a source set (a rate limit, a ban, a refusal) with how long it holds,
    ///     for the limits kept across runs, under the endpoint it was set on.
    ///   - onEvent: every failure, skip and circuit change, as prices report theirs.
    public init(
      _ definitions: [CandleSourceDefinition],
      currency: Currency,
      urls: [String: URL] = [:],
      client: any BTCHTTPClient,
      clock: any Clock<Duration>,
      now: @escaping @Sendable () -> Date,
      timeout: Duration = PriceDefaults.historySourceTimeout,
      budget: Duration = PriceDefaults.historyBudget,
      breakers: CircuitBreakerPolicy = .standard,
      inheritedLimit: @escaping @Sendable (PriceSource, URL) -> PriceSourceChain.InheritedLimit? =
        { _, _ in nil },
      onLimit: @escaping @Sendable (PriceSource, URL, PriceSourceError, Duration) -> Void = {
        _, _, _, _ in
      },
      onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
    ) {
      let loaders = definitions.filter { $0.markets[currency] != nil }.compactMap {
        try? RemoteCandleLoader(
          client: client, definition: $0, currency: currency, url: urls[$0.source.id], now: now)
      }
      let endpoints = Dictionary(
        loaders.map { ($0.definition.source.id, $0.url) }, uniquingKeysWith: { first, _ in first })
      var inherited: [String: PriceSourceChain.InheritedLimit] = [:]
      for loader in loaders {
        inherited[loader.definition.source.id] = inheritedLimit(
          loader.definition.source, loader.url)
      }
      self.chain = SourceChain<ChartRange, CandleSeries>(
        loaders.map { loader in
          SourceChain.Link(source: loader.definition.source, timeout: timeout) { range in
            // A limit set since the chain was made (the price met a ban at the same endpoint):
            // asking again during a ban lengthens it.
            if let limit = inheritedLimit(loader.definition.source, loader.url) {
              throw PriceSourceError.skipped(
                "left alone for \(limit.remaining.humanText) after: \(limit.cause)")
            }
            return try await loader.load(range)
          }
        }, clock: clock, breakers: breakers, inheritedLimits: inherited,
        onEvent: { event in
          if case .circuitChanged(let source, let transition) = event, transition.to == .open,
            let cause = transition.cause, let coolDown = transition.coolDown,
            breakers.mandatoryCoolDown(after: cause) != nil, let url = endpoints[source.id]
          {
            onLimit(source, url, cause, coolDown)
          }
          onEvent(event)
        })
      self.endpoints = endpoints
      self.budget = budget
    }

    /// The history of `range` from the first source that has it: a history's
    /// ``CandleHistory/Loader``.
    @Sendable public func load(_ range: ChartRange) async throws -> CandleSeries {
      try await chain.load(range, within: budget)
    }
  }
}
