import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything the product knows about one price source, in one value: its name, its real
/// endpoint, how a request to it is built, how its answer is read, what to tell the user when
/// it refuses us, and its public trade stream if it has one. ``PriceSourceRegistry/all`` lists
/// them; the command-line options, the settings keys, the environment variables, `--help`, the
/// cache's display names and the tests' fake exchange are all derived from that list.
public struct PriceSourceDefinition: Sendable {
  /// Reads a source's answer into a price for one pair, or says why it is not one.
  public typealias PairMapper =
    @Sendable (BTCHTTPResponse, MarketPair) throws(PriceSourceError) ->
    Decimal

  /// Why a source cannot be asked for a currency.
  public enum MarketError: Error, Equatable, CustomStringConvertible {
    /// The source has no pair for this currency.
    case notServed(sourceID: String, currency: Currency)
    /// The URL has no part that names a pair, so the currency cannot be set in it.
    case noPairPart(sourceID: String, expected: String)
    /// The source has no stream we read.
    case noStream(sourceID: String)

    public var description: String {
      switch self {
      case .notServed(let sourceID, let currency):
        return "\(sourceID) has no BTC/\(currency.code) market"
      case .noPairPart(let sourceID, let expected):
        return "the \(sourceID) URL has no \(expected) to set the currency in"
      case .noStream(let sourceID):
        return "\(sourceID) has no stream"
      }
    }
  }

  /// The warning for a refusal with this status, or nil for the general one. `evidence` is how
  /// the source said it (`HTTP 401`), `pause` how long it is left alone.
  public typealias SpecificAdvice =
    @Sendable (
      _ status: Int, _ evidence: String, _ pause: String, _ apiKeyGiven: Bool
    ) -> String?

  /// How a source that takes an API key wants it sent.
  public struct APIKeyUse: Sendable {
    /// The header the key goes in, e.g. `Authorization`.
    public let header: String
    /// What precedes the key in that header, e.g. `Apikey `.
    public let prefix: String
    /// The environment variable the command-line tool reads the key from.
    public let environmentVariable: String
  }

  public let source: PriceSource
  /// The real endpoint.
  public let defaultURL: URL
  /// How the source takes an API key; nil for keyless sources, which are never sent one.
  public let apiKey: APIKeyUse?
  /// The pair the source names BTC in, for each currency it serves. Only pairs confirmed in
  /// public material are listed (docs/CURRENCIES.md); a source is left out of the chain for a
  /// currency it has no pair for.
  public let markets: [Currency: MarketPair]
  /// Where its URL names the pair.
  public let pairPlacement: PairPlacement
  /// Reads its answer for a pair; an answer for another pair is invalid data.
  private let mapPair: PairMapper
  /// What the user can do when this source refuses us, where that says more than the general
  /// advice (see ``advice(for:coolDown:apiKeyGiven:)``); nil for the general advice.
  let specificAdvice: SpecificAdvice
  /// The exchange's public trade stream, which the ticks read before asking REST; nil when we
  /// read none (docs/STREAMS.md).
  public let stream: PriceStreamDefinition?
  /// The exchange's candles, which the chart and the 24-hour change are drawn from; nil when we
  /// read none (docs/HISTORY.md).
  public let candles: CandleSourceDefinition?

  public init(
    source: PriceSource, defaultURL: URL, apiKey: APIKeyUse? = nil,
    markets: [Currency: MarketPair], pairPlacement: PairPlacement, map: @escaping PairMapper,
    specificAdvice: @escaping SpecificAdvice = { _, _, _, _ in nil },
    stream: PriceStreamDefinition? = nil, candles: CandleSourceDefinition.Endpoint? = nil
  ) {
    self.source = source
    self.defaultURL = defaultURL
    self.apiKey = apiKey
    self.markets = markets
    self.pairPlacement = pairPlacement
    self.mapPair = map
    self.specificAdvice = specificAdvice
    self.stream = stream
    self.candles = candles.map {
      CandleSourceDefinition(source: source, endpoint: $0, priceMarkets: markets)
    }
  }

  /// The currencies this source serves, in ``Currency/supported`` order.
  public var currencies: [Currency] {
    Currency.supported.filter { markets[$0] != nil }
  }

  /// The price in its answer for BTC in `currency` (by default USD, the currency of its default
  /// URL); an answer for another pair is invalid data, and so is any answer in a currency the
  /// source has no market for.
  public func map(_ response: BTCHTTPResponse, in currency: Currency = .usd)
    throws(PriceSourceError)
    -> Decimal
  {
    guard let pair = markets[currency] else {
      throw .invalidData(MarketError.notServed(sourceID: source.id, currency: currency).description)
    }
    return try mapPair(response, pair)
  }

  /// The URL that asks this source for BTC in `currency`, built from `base` (default: the real
  /// endpoint). The base is taken whole (scheme, host, port, path, other query items); only its
  /// pair part is set from the currency, so every USD URL stays as it was, byte for byte. A base
  /// without a pair part is used as it is for USD, and refused for another currency: it would
  /// get prices the mapper rejects on every tick.
  public func url(for currency: Currency, base: URL? = nil) throws(MarketError) -> URL {
    let base = base ?? defaultURL
    guard let pair = markets[currency] else {
      throw .notServed(sourceID: source.id, currency: currency)
    }
    if let url = pairPlacement.url(base, settingPairTo: pair.request) { return url }
    guard currency == .usd else {
      throw .noPairPart(sourceID: source.id, expected: pairPlacement.expected)
    }
    return base
  }

  /// The option that points this source at another server: `binance-url`.
  public var urlOptionName: String { "\(source.id)-url" }

  /// The environment variable with the same meaning: `BTC_PRICE_BINANCE_URL`.
  public var urlEnvironmentVariable: String { "BTC_PRICE_\(source.id.uppercased())_URL" }

  /// The option that points this source's candles at another server: `binance-candles-url`.
  public var candlesURLOptionName: String { "\(source.id)-candles-url" }

  /// The environment variable with the same meaning: `BTC_PRICE_BINANCE_CANDLES_URL`.
  public var candlesURLEnvironmentVariable: String {
    "BTC_PRICE_\(source.id.uppercased())_CANDLES_URL"
  }

  /// The request for one price: `User-Agent: btc-price/<version>` always, and the API key only
  /// to a source that takes one, and only when it is not empty.
  public func request(url: URL? = nil, apiKey key: String? = nil) -> BTCHTTPRequest {
    var headers = [(name: "User-Agent", value: BTCPriceVersion.userAgent)]
    if let apiKey, let key, !key.isEmpty {
      headers.append((name: apiKey.header, value: apiKey.prefix + key))
    }
    return BTCHTTPRequest(url: url ?? defaultURL, headers: headers)
  }
}
