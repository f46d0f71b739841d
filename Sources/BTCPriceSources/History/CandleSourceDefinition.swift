import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything the product knows about one exchange's candles (docs/HISTORY.md): its endpoint,
/// the pair it names BTC in per currency and where the URL names it, the candle periods it has
/// and how a request asks for one of them, and how its answer is read.
///
/// Held by the exchange's one ``PriceSourceDefinition`` (`candles:`), as its stream is: the
/// `<Name>Candles.swift` files write an ``Endpoint``, and the definition that holds it names the
/// source and, unless the endpoint names its own, the markets.
public struct CandleSourceDefinition: Sendable {
  /// Reads an answer into candles of `period`, oldest first and checked
  /// (``CandleSeries/checkOrder(_:period:)``), for one pair; an answer for another pair is
  /// invalid data.
  public typealias Mapper =
    @Sendable (_ response: BTCHTTPResponse, _ pair: MarketPair, _ period: Duration)
    throws(PriceSourceError) -> [Candle]

  /// What a request for candles of one period sets in the URL's query, besides the pair:
  /// `interval=5m&limit=290`. `count` candles reach back from `now`.
  public typealias Query =
    @Sendable (_ period: Duration, _ count: Int, _ now: Date) -> [(name: String, value: String)]

  /// An exchange's candle endpoint as its `<Name>Candles.swift` writes it, before the price
  /// definition that holds it names the source (so the two never refer to each other).
  public struct Endpoint: Sendable {
    let defaultURL: URL
    /// Its own markets where they differ from the price's (Coinbase's candles are on the
    /// exchange's host, whose products are not the spot price's currencies); nil: the price's.
    let markets: [Currency: MarketPair]?
    let pairPlacement: PairPlacement
    let periods: [Duration]
    let query: Query
    let map: Mapper

    public init(
      defaultURL: URL, markets: [Currency: MarketPair]? = nil, pairPlacement: PairPlacement,
      periods: [Duration], query: @escaping Query, map: @escaping Mapper
    ) {
      self.defaultURL = defaultURL
      self.markets = markets
      self.pairPlacement = pairPlacement
      self.periods = periods.sorted()
      self.query = query
      self.map = map
    }
  }

  public let source: PriceSource
  /// The real endpoint, for USD; its query is set per request.
  public let defaultURL: URL
  /// The pair it names BTC in, for each currency it has candles in.
  public let markets: [Currency: MarketPair]
  public let pairPlacement: PairPlacement
  /// The candle periods it has, shortest first.
  public let periods: [Duration]
  let query: Query
  let map: Mapper

  /// `endpoint` as the source's definition holds it: named `source`, in `endpoint`'s own markets
  /// or else `priceMarkets`.
  init(source: PriceSource, endpoint: Endpoint, priceMarkets: [Currency: MarketPair]) {
    self.source = source
    self.defaultURL = endpoint.defaultURL
    self.markets = endpoint.markets ?? priceMarkets
    self.pairPlacement = endpoint.pairPlacement
    self.periods = endpoint.periods
    self.query = endpoint.query
    self.map = endpoint.map
  }

  /// The period it draws `range` from: the longest it has up to the range's own, else its
  /// shortest (more candles, never a coarser chart than asked for).
  public func period(for range: ChartRange) -> Duration {
    periods.last { $0 <= range.period } ?? periods[0]
  }

  /// The request for `range` in `currency` at `now`, from `base` (default: the real endpoint),
  /// and the period it asks for. The base is taken whole; its pair part is set for the currency
  /// and its query items for the range, the others kept.
  public func request(
    for range: ChartRange, in currency: Currency, base: URL? = nil, now: Date
  ) throws(PriceSourceDefinition.MarketError) -> (request: BTCHTTPRequest, period: Duration) {
    guard let pair = markets[currency] else {
      throw .notServed(sourceID: source.id, currency: currency)
    }
    let base = base ?? defaultURL
    let marketURL: URL
    if let url = pairPlacement.url(base, settingPairTo: pair.request) {
      marketURL = url
    } else if currency == .usd {
      marketURL = base
    } else {
      throw .noPairPart(sourceID: source.id, expected: pairPlacement.expected)
    }
    let period = period(for: range)
    let items = query(period, range.candleCount(of: period), now)
    return (
      BTCHTTPRequest(
        url: Self.url(marketURL, setting: items),
        headers: [(name: "User-Agent", value: BTCPriceVersion.userAgent)],
        maxBodySize: Self.maxBodySize),
      period
    )
  }

  /// The candles in `response` for `currency`, in periods of `period`.
  public func candles(in response: BTCHTTPResponse, for currency: Currency, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    guard let pair = markets[currency] else {
      throw .invalidData(
        PriceSourceDefinition.MarketError.notServed(sourceID: source.id, currency: currency)
          .description)
    }
    return try map(response, pair, period)
  }

  /// 512 KiB: a range of candles is 20 to 80 KB (Kraken's 720 with their 5 decimals pass 64 KiB,
  /// Binance writes 12 fields a candle); a price answer's 64 KiB limit would cut them.
  static let maxBodySize = 512 * 1024

  /// `url` with each of `items` set (replacing one of the same name, else added at the end).
  private static func url(_ url: URL, setting items: [(name: String, value: String)]) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return url
    }
    var query = components.percentEncodedQueryItems ?? []
    for item in items {
      if let index = query.firstIndex(where: { $0.name == item.name }) {
        query[index].value = item.value
      } else {
        query.append(URLQueryItem(name: item.name, value: item.value))
      }
    }
    components.percentEncodedQueryItems = query
    return components.url ?? url
  }
}

extension CandleSourceDefinition {
  /// Every exchange whose candles this build reads, in the price chain's order
  /// (``PriceSourceRegistry/all``: the history of the exchange whose price is shown comes first).
  /// CryptoCompare and Gemini have no candles here.
  public static var all: [CandleSourceDefinition] { PriceSourceRegistry.all.compactMap(\.candles) }

  /// The exchanges of `sources` (by default the registry's) with candles in `currency`, in their
  /// order.
  public static func serving(
    _ currency: Currency, from sources: [PriceSourceDefinition] = PriceSourceRegistry.all
  ) -> [CandleSourceDefinition] {
    sources.compactMap(\.candles).filter { $0.markets[currency] != nil }
  }

  /// The candles of the source with this id, if it has any.
  public static func named(_ id: String) -> CandleSourceDefinition? {
    PriceSourceRegistry.definition(id: id)?.candles
  }
}
