import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceChain {
  /// A chain of remote sources over one HTTP client, asked in the given order. The first source
  /// gets `primaryTimeout`; each next one gets what is left of the tick.
  ///
  /// - Parameters:
  ///   - urls: overrides by source id; the others use their real endpoint.
  ///   - apiKeys: by source id; each is sent only to its own source, if it takes a key.
  public static func remote(
    _ definitions: [PriceSourceDefinition] = PriceSourceRegistry.all,
    urls: [String: URL] = [:],
    apiKeys: [String: String] = [:],
    client: any HTTPClient,
    primaryTimeout: Duration,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> PriceSourceChain {
    let links = definitions.enumerated().map { index, definition in
      PriceSourceChain.Link(
        source: definition.source,
        loader: RemotePriceLoader(
          client: client, definition: definition, url: urls[definition.source.id],
          apiKey: apiKeys[definition.source.id], now: now),
        timeout: index == 0 ? primaryTimeout : nil)
    }
    return PriceSourceChain(links, clock: clock, onEvent: onEvent)
  }
}
