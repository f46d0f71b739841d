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
  /// alone for the week too.
  ///
  /// - Parameters:
  ///   - definitions: the exchanges to ask, in order; by default every one with candles in
  ///     `currency`. One without, or whose URL cannot be pointed at the currency, is left out.
  ///   - urls: endpoint overrides by source id.
  ///   - inheritedLimit: a limit an earlier run kept for a source at this URL's endpoint (a ban
  ///     on `api.binance.com` holds for its klines as for its ticker).
  ///   - onLimit: a limit a source set (a rate limit, a ban, a refusal) with how long it holds,
  ///     for the limits kept across runs, under the endpoint it was set on.
  ///   - onEvent: every failure, skip and circuit change, as prices report theirs.
  public static func remoteLoader(
    _ definitions: [CandleSourceDefinition]? = nil,
    currency: Currency,
    urls: [String: URL] = [:],
    client: any BTCHTTPClient,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date,
    timeout: Duration = PriceDefaults.historySourceTimeout,
    budget: Duration = PriceDefaults.historyBudget,
    breakers: CircuitBreakerPolicy = .standard,
    inheritedLimit: @escaping @Sendable (PriceSource, URL) -> PriceSourceChain.InheritedLimit? = {
      _, _ in nil
    },
    onLimit: @escaping @Sendable (PriceSource, URL, PriceSourceError, Duration) -> Void = {
      _, _, _, _ in
    },
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> Loader {
    let loaders = (definitions ?? CandleSourceDefinition.serving(currency)).compactMap {
      try? RemoteCandleLoader(
        client: client, definition: $0, currency: currency, url: urls[$0.source.id], now: now)
    }
    let endpoints = Dictionary(
      loaders.map { ($0.definition.source.id, $0.url) }, uniquingKeysWith: { first, _ in first })
    var inherited: [String: PriceSourceChain.InheritedLimit] = [:]
    for loader in loaders {
      inherited[loader.definition.source.id] = inheritedLimit(loader.definition.source, loader.url)
    }
    let chain = SourceChain<ChartRange, CandleSeries>(
      loaders.map { loader in
        SourceChain.Link(source: loader.definition.source, timeout: timeout) { range in
          try await loader.load(range)
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
    return { range in try await chain.load(range, within: budget) }
  }
}
