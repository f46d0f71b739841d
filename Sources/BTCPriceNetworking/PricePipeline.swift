import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What every front end ticks through, wired in one place: the source chain for a currency (its
/// deadlines and breakers, and the limits earlier runs left in the state file), the feed with
/// its last known value, and the cache. The command line and `serve` build it over SwiftNIO, the
/// iPhone app over URLSession; nothing else differs.
public struct PricePipeline: Sendable {
  /// Which sources, where and in which currency, and how long the first may take.
  public struct Configuration: Sendable {
    public var currency: Currency
    /// The chain, in order.
    public var sources: [PriceSourceDefinition]
    /// Endpoint overrides by source id; the chain sets their pair for the currency.
    public var urls: [String: URL]
    /// API keys by source id, each sent to its own source only.
    public var apiKeys: [String: String]
    public var primaryTimeout: Duration

    /// - Parameter sources: by default every source that serves `currency`, in the default order.
    public init(
      currency: Currency = .usd, sources: [PriceSourceDefinition]? = nil,
      urls: [String: URL] = [:], apiKeys: [String: String] = [:], primaryTimeout: Duration
    ) {
      self.currency = currency
      self.sources = sources ?? PriceSourceRegistry.serving(currency)
      self.urls = urls
      self.apiKeys = apiKeys
      self.primaryTimeout = primaryTimeout
    }

    /// What this run asks each source: a limit an earlier run kept applies only to the same
    /// endpoint, asked with a key or without one alike.
    public var limitTargets: [String: SourceLimits.Target] {
      Dictionary(
        uniqueKeysWithValues: sources.map { definition in
          let id = definition.source.id
          return (
            id,
            SourceLimits.Target(
              urls[id] ?? definition.defaultURL, apiKeyGiven: apiKeys[id] != nil)
          )
        })
    }
  }

  public let feed: PriceFeed
  /// Bans and refusals kept across runs; nil when they are kept in memory only.
  public let limits: SourceLimits?

  /// The cache, for the ways out that must write it without waiting for the feed.
  public var cache: PriceCache? { feed.cache }

  /// - Parameters:
  ///   - store: where the last price is kept; nil runs without a cache.
  ///   - limitStore: where bans and refusals are kept across runs; nil keeps them for this run.
  ///   - cacheWriteInterval: the least time between two cache writes while the price changes;
  ///     nil for the cache's own default.
  ///   - warn: a cache or state file that cannot be read or written, in words.
  ///   - onEvent: every source event, after the limits have seen it (for reports and metrics).
  public init(
    _ configuration: Configuration, client: any HTTPClient, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, store: (any PriceStore)?,
    limitStore: (any SourceLimitStore)?, cacheWriteInterval: Duration? = nil,
    warn: @escaping @Sendable (String) -> Void,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    let limits = limitStore.map {
      SourceLimits(store: $0, targets: configuration.limitTargets, now: now, warn: warn)
    }
    let chain = PriceSourceChain.remote(
      configuration.sources, urls: configuration.urls, currency: configuration.currency,
      apiKeys: configuration.apiKeys, client: client,
      primaryTimeout: configuration.primaryTimeout, clock: clock, now: now,
      inheritedLimits: limits?.restore() ?? [:]
    ) { event in
      limits?.record(event)
      onEvent(event)
    }
    let feedWarn: @Sendable (PriceFeedWarning) -> Void = { warn($0.text) }
    let cache = store.map { store in
      cacheWriteInterval.map {
        PriceCache(store: store, clock: clock, minimumInterval: $0, warn: feedWarn)
      } ?? PriceCache(store: store, clock: clock, warn: feedWarn)
    }
    self.feed = PriceFeed(chain: chain, cache: cache, warn: feedWarn)
    self.limits = limits
  }
}
