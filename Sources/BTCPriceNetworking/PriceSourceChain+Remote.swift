import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceChain {
  /// A chain of remote sources over one HTTP client, asked in the given order for BTC in
  /// `currency`. The first source gets `primaryTimeout`; each next one gets what is left of the
  /// tick. A source without a market in `currency`, or whose URL cannot be pointed at it, is left
  /// out: callers that take URLs from people check them first with
  /// ``PriceSourceDefinition/url(for:base:)`` to say why.
  ///
  /// - Parameters:
  ///   - urls: overrides by source id; the others use their real endpoint. The pair part of each
  ///     is set for `currency`.
  ///   - apiKeys: by source id; each is sent only to its own source, if it takes a key.
  public static func remote(
    _ definitions: [PriceSourceDefinition] = PriceSourceRegistry.all,
    urls: [String: URL] = [:],
    currency: Currency = .usd,
    apiKeys: [String: String] = [:],
    client: any BTCHTTPClient,
    primaryTimeout: Duration,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date,
    inheritedLimits: [String: PriceSourceChain.InheritedLimit] = [:],
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> PriceSourceChain {
    let loaders = definitions.compactMap { definition in
      try? RemotePriceLoader(
        client: client, definition: definition, currency: currency,
        url: urls[definition.source.id], apiKey: apiKeys[definition.source.id], now: now)
    }
    let links = loaders.enumerated().map { index, loader in
      PriceSourceChain.Link(
        source: loader.source, loader: loader, timeout: index == 0 ? primaryTimeout : nil)
    }
    return PriceSourceChain(
      links, clock: clock, inheritedLimits: inheritedLimits, onEvent: onEvent)
  }
}
