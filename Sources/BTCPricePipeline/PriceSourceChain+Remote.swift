import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceChain {
  /// A chain of remote sources over one HTTP client, asked in the configuration's order for BTC
  /// in its currency, each at its market URL (``PricePipeline/Configuration/marketURLs``). The
  /// first source gets the configuration's primary timeout; each next one gets what is left of
  /// the tick. A source whose URL cannot be pointed at the currency is left out: the command line
  /// refuses such a run before it starts, saying why.
  ///
  /// - Parameters:
  ///   - sources: the configuration's sources to ask (default: all of them, in its order).
  public static func remote(
    _ configuration: PricePipeline.Configuration,
    sources: [PriceSourceDefinition]? = nil,
    client: any BTCHTTPClient,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date,
    inheritedLimits: [String: PriceSourceChain.InheritedLimit] = [:],
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> PriceSourceChain {
    let markets = configuration.marketURLs
    let loaders = (sources ?? configuration.sources).compactMap { definition in
      let id = definition.source.id
      return (try? markets[id]?.get()).map { url in
        RemotePriceLoader(
          client: client, definition: definition, currency: configuration.currency, url: url,
          apiKey: configuration.apiKeys[id], now: now)
      }
    }
    let links = loaders.enumerated().map { index, loader in
      PriceSourceChain.Link(
        source: loader.source, loader: loader,
        timeout: index == 0 ? configuration.primaryTimeout : nil)
    }
    return PriceSourceChain(
      links, clock: clock, inheritedLimits: inheritedLimits, onEvent: onEvent)
  }
}
