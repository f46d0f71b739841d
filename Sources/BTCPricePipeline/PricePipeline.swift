import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources

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
    /// Whether ticks read the exchanges' streams first (REST as the fall back and referee).
    public var stream: Bool
    /// The ticks' interval, which bounds how long a silent stream is still read (see
    /// ``StreamFirstPriceLoader/Stream/aliveBound(silenceBound:interval:)``).
    public var interval: Duration
    /// Stream endpoint overrides by source id (`--<name>-stream-url`).
    public var streamURLs: [String: URL]
    /// Whether the run keeps the price history (`--history`/`--no-history`); a pipeline keeps
    /// one only when it is also built with `history: true`.
    public var history: Bool
    /// Candle endpoint overrides by source id (`--<name>-candles-url`).
    public var candlesURLs: [String: URL]

    /// - Parameter sources: by default every source that serves `currency`, in the default order.
    public init(
      currency: Currency = .usd, sources: [PriceSourceDefinition]? = nil,
      urls: [String: URL] = [:], apiKeys: [String: String] = [:], primaryTimeout: Duration,
      stream: Bool = PriceDefaults.stream, streamURLs: [String: URL] = [:],
      interval: Duration = PriceDefaults.interval, history: Bool = PriceDefaults.history,
      candlesURLs: [String: URL] = [:]
    ) {
      self.currency = currency
      self.sources = sources ?? PriceSourceRegistry.serving(currency)
      self.urls = urls
      self.apiKeys = apiKeys
      self.primaryTimeout = primaryTimeout
      self.stream = stream
      self.streamURLs = streamURLs
      self.interval = interval
      self.history = history
      self.candlesURLs = candlesURLs
    }

    /// Where each source of the chain is asked for BTC in ``currency``, by source id: its URL
    /// (the override, or its real endpoint) with the pair part set for the currency
    /// (``PriceSourceDefinition/url(for:base:)``), or why it cannot be. The one place that
    /// decides it: the command line refuses a run on the first failure in chain order, the chain
    /// asks these URLs (`PriceSourceChain.remote`), and `doctor` shows them.
    public var marketURLs: [String: Result<URL, PriceSourceDefinition.MarketError>] {
      Dictionary(
        uniqueKeysWithValues: sources.map { definition in
          let id = definition.source.id
          return (
            id,
            Result { () throws(PriceSourceDefinition.MarketError) in
              try definition.url(for: currency, base: urls[id])
            }
          )
        })
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

  /// What the streams did, for `--verbose`.
  public enum StreamReport: Equatable, Sendable {
    /// A connection opened, closed, backed off or was handed over.
    case connection(PriceStreamEvent)
    /// A tick passed over a silent stream, fell back to REST, settled a cross-check, or where
    /// its price came from.
    case tick(StreamFirstPriceLoader.Event)
  }

  /// What the pipeline was built for.
  public let configuration: Configuration
  public let feed: PriceFeed
  /// The streams the feed reads first, when the configuration asks for streams, a connector was
  /// given and a source of the chain has a stream in the currency; nil ticks over REST alone.
  public let streams: PriceStreamSet?
  /// The price history (the chart and the 24-hour change), asked of the chain's exchanges that
  /// have candles, under the same limits; nil when the pipeline was built without one.
  public let history: CandleHistory?
  /// Where the history's candles are asked (empty without a history), e.g. for whether the run
  /// uses TLS.
  public let historyEndpoints: [URL]
  private let clock: any Clock<Duration>
  /// Bans and refusals kept across runs; nil when they are kept in memory only.
  public let limits: SourceLimits?

  /// The cache, for the ways out that must write it without waiting for the feed.
  public var cache: PriceCache? { feed.cache }

  /// - Parameters:
  ///   - store: where the last price is kept; nil runs without a cache.
  ///   - limitStore: where bans and refusals are kept across runs; nil keeps them for this run.
  ///   - cacheWriteInterval: the least time between two cache writes while the price changes;
  ///     nil for the cache's own default.
  ///   - storeWriter: where the cache's and the limits' writes run (the command-line tool: a
  ///     thread of their own, never its event loop).
  ///   - warn: a cache or state file that cannot be read or written, in words.
  ///   - onEvent: every source event, after the limits have seen it (for reports and metrics).
  ///   - streamConnector: how streams are opened; streams run only when the configuration asks
  ///     for them and this is given (a `--once` run leaves it out: it never waits for a trade).
  ///   - onStream: what the streams and the stream-first ticks did.
  ///   - history: whether to keep the price history (``history``); `candleStore` keeps it
  ///     across runs, beside the price.
  public init(
    _ configuration: Configuration, client: any BTCHTTPClient, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, store: (any PriceStore)?,
    limitStore: (any SourceLimitStore)?, cacheWriteInterval: Duration? = nil,
    storeWriter: StoreWriter = .here, streamConnector: (any WebSocketConnector)? = nil,
    warn: @escaping @Sendable (String) -> Void,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in },
    onStream: @escaping @Sendable (StreamReport) -> Void = { _ in },
    history: Bool = false, candleStore: (any CandleStore)? = nil,
    onHistoryEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    let limits = limitStore.map {
      SourceLimits(
        store: $0, targets: configuration.limitTargets, now: now, writer: storeWriter, warn: warn)
    }
    let inherited = limits?.restore() ?? [:]
    let remote: @Sendable ([PriceSourceDefinition]) -> PriceSourceChain = { sources in
      PriceSourceChain.remote(
        configuration, sources: sources, client: client, clock: clock, now: now,
        inheritedLimits: inherited
      ) { event in
        limits?.record(event)
        onEvent(event)
      }
    }
    // The history asks the chain's own exchanges, under the same limits: a limit kept for an
    // endpoint (a ban of api.binance.com) holds for its candles as for its price, and a limit
    // the candles meet rests the price asked at the same endpoint (`respect`, once the chain
    // below exists).
    let priceChain = Locked<PriceSourceChain?>(nil)
    let priceEndpoints = configuration.limitTargets.mapValues(\.endpoint)
    let candles =
      history && configuration.history
      ? CandleHistory.RemoteChain(
        CandleSourceDefinition.serving(configuration.currency, from: configuration.sources),
        currency: configuration.currency, urls: configuration.candlesURLs, client: client,
        clock: clock, now: now,
        inheritedLimit: { source, url in limits?.streamLimit(source: source.id, url: url) },
        onLimit: { source, url, cause, coolDown in
          limits?.recordStreamLimit(source: source.id, url: url, cause: cause, coolDown: coolDown)
          let endpoint = SourceLimits.Target(url, apiKeyGiven: false).endpoint
          if priceEndpoints[source.id] == endpoint {
            priceChain.value?.respect(cause, from: source.id)
          }
        },
        onEvent: onHistoryEvent) : nil
    let chain = remote(configuration.sources)
    priceChain.withValue { $0 = chain }
    let feedWarn: @Sendable (PriceFeedWarning) -> Void = { warn($0.text) }
    let cache = store.map { store in
      cacheWriteInterval.map {
        PriceCache(
          store: store, clock: clock, minimumInterval: $0, writer: storeWriter, warn: feedWarn)
      } ?? PriceCache(store: store, clock: clock, writer: storeWriter, warn: feedWarn)
    }
    self.limits = limits
    self.clock = clock
    self.history = candles.map { candles in
      CandleHistory(
        currency: configuration.currency, store: candleStore, load: candles.load, clock: clock,
        now: now, writer: storeWriter, warn: warn)
    }
    self.historyEndpoints = candles.map { Array($0.endpoints.values) } ?? []
    self.configuration = configuration
    let streams =
      configuration.stream
      ? streamConnector.map { connector in
        PriceStreamSet(
          sources: configuration.sources, currency: configuration.currency,
          urls: configuration.streamURLs, interval: configuration.interval,
          connector: connector, clock: clock, now: now,
          inheritedLimit: { source, url in limits?.streamLimit(source: source.id, url: url) },
          onRefusal: { source, url, cause, coolDown in
            limits?.recordStreamLimit(source: source.id, url: url, cause: cause, coolDown: coolDown)
            // A region block or a ban holds for the exchange's REST too (StreamRefusal says why).
            if StreamRefusal.limitsREST(cause) { chain.respect(cause, from: source.id) }
          },
          onEvent: { onStream(.connection($0)) })
      } : nil
    // No source of the chain has a stream in the currency: every tick asks REST, as without
    // streams, and says nothing about streams it never had.
    guard let streams, !streams.streams.isEmpty else {
      self.streams = nil
      self.feed = PriceFeed(chain: chain, cache: cache, warn: feedWarn)
      return
    }
    // The referee must be a third opinion: the chain's exchanges other than the kept streams'
    // own (the standby's REST stays in: it referees the two kept streams, and the loader never
    // asks it to settle a disagreement of its own stream).
    let streamed = Set(streams.runners.map(\.source))
    let others = configuration.sources.filter { !streamed.contains($0.source) }
    let loader = streams.loader(
      chain: chain, referee: others.isEmpty ? nil : remote(others),
      onEvent: { onStream(.tick($0)) })
    self.streams = streams
    self.feed = PriceFeed(loadAfter: loader.load, cache: cache, warn: feedWarn)
  }

  /// Keeps the price history of `ranges` fetched at their pace (by default the day's) until
  /// the task is cancelled; returns at once without a history.
  public func runHistory(_ ranges: [ChartRange] = [.day]) async {
    await history?.run(ranges)
  }

  /// Waits until the history has been read and, when due, fetched once, or
  /// ``PriceDefaults/historyFirstTickWait`` has passed. Returns at once without a history.
  public func waitForHistory() async {
    await history?.waitForFirstLook(atMost: PriceDefaults.historyFirstTickWait)
  }

  /// Keeps the streams connected until the task is cancelled; returns at once without streams.
  public func runStreams() async {
    await streams?.run()
  }

  /// Waits until every stream has a price or has failed, or `limit` has passed
  /// (``PriceStreamSet/waitForFirstPrice(atMost:clock:)``). Returns at once without streams.
  public func waitForFirstStreamPrice(atMost limit: Duration) async {
    await streams?.waitForFirstPrice(atMost: limit, clock: clock)
  }

  /// The wait before the first tick after the streams open: up to the first source's timeout,
  /// as long as that tick would give REST.
  public func waitForFirstStreamPrice() async {
    await waitForFirstStreamPrice(atMost: configuration.primaryTimeout)
  }

}
