import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything the product knows about one exchange's public trade stream (docs/STREAMS.md): its
/// endpoint, the pair it names BTC in per currency, what to send to subscribe, how to read each
/// message, and how long it may stay silent and still count as alive.
///
/// Beside ``PriceSourceDefinition`` (the same exchange's REST side), and found from it with
/// ``PriceSourceDefinition/stream``.
public struct PriceStreamDefinition: Sendable {
  /// Reads one message (already parsed as JSON) of the stream of `market`.
  public typealias Reader =
    @Sendable (_ json: JSONValue, _ market: String) throws(PriceStreamError) -> PriceStreamMessage

  public let source: PriceSource
  /// The real endpoint, for USD.
  public let defaultURL: URL
  /// The name the stream gives BTC's market in each currency it serves.
  public let markets: [Currency: String]
  /// How long the stream may say nothing and still count as alive (see docs/STREAMS.md for why
  /// each exchange's is what it is).
  public let silenceBound: Duration
  /// Whether the market is named in the URL's last path component (`/ws/btcusdt@trade`) rather
  /// than in a subscription message.
  let pathSuffix: String?
  let subscriptions: @Sendable (_ market: String) -> [String]
  let reader: Reader

  public init(
    source: PriceSource, defaultURL: URL, markets: [Currency: String], silenceBound: Duration,
    pathSuffix: String? = nil, subscriptions: @escaping @Sendable (String) -> [String],
    read: @escaping Reader
  ) {
    self.source = source
    self.defaultURL = defaultURL
    self.markets = markets
    self.silenceBound = silenceBound
    self.pathSuffix = pathSuffix
    self.subscriptions = subscriptions
    self.reader = read
  }

  /// The connection to open for BTC in `currency`, from `base` (default: the real endpoint).
  public func endpoint(for currency: Currency, base: URL? = nil) throws(PriceSourceDefinition
    .MarketError) -> PriceStreamEndpoint
  {
    guard let market = markets[currency] else {
      throw .notServed(sourceID: source.id, currency: currency)
    }
    var url = base ?? defaultURL
    if let pathSuffix, url.lastPathComponent.hasSuffix(pathSuffix) {
      url = url.deletingLastPathComponent().appendingPathComponent(market + pathSuffix)
    }
    return PriceStreamEndpoint(
      source: source, url: url, market: market, subscriptions: subscriptions(market),
      silenceBound: silenceBound, reader: reader)
  }

  /// The option that points this stream at another server: `binance-stream-url`.
  public var urlOptionName: String { "\(source.id)-stream-url" }

  /// The environment variable with the same meaning: `BTC_PRICE_BINANCE_STREAM_URL`.
  public var urlEnvironmentVariable: String { "BTC_PRICE_\(source.id.uppercased())_STREAM_URL" }
}

extension PriceSourceDefinition {
  /// This exchange's public trade stream, if it has one we read.
  public var stream: PriceStreamDefinition? {
    PriceStreamDefinition.all.first { $0.source == source }
  }
}

extension PriceStreamDefinition {
  /// Every stream this build reads, in the order a tick prefers them when the chain does not say.
  public static let all: [PriceStreamDefinition] = [.binance, .coinbase, .kraken, .bitstamp]
}
