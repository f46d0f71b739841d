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
/// A stream is part of its source: the exchange's ``PriceSourceDefinition`` holds it
/// (``PriceSourceDefinition/stream``), which gives it its name, its options and its place in the
/// chain. Its connection is ``PriceSourceDefinition/streamEndpoint(for:base:)``.
public struct PriceStreamDefinition: Sendable {
  /// Reads one message (already checked as a JSON object) of the stream of `market`.
  public typealias Reader =
    @Sendable (_ json: JSONObjectView, _ market: String) throws(PriceStreamError) ->
    PriceStreamMessage

  /// What the client says on a quiet connection, for an exchange that wants it to: OKX closes a
  /// connection that has pushed nothing for 30 s unless the client sends `ping`; Bitstamp answers
  /// `bts:heartbeat`. ``PriceStreamRunner`` sends ``message`` once the connection has been silent
  /// for its silence limit, and ends it only if nothing answers within one more limit.
  public struct KeepAlive: Sendable, Equatable {
    /// The text sent.
    public let message: String
    /// The exchange's answer when it is not JSON (OKX's `pong`), read as a sign of life; nil
    /// when the answer is JSON its mapper reads.
    public let plainReply: String?

    public init(message: String, plainReply: String? = nil) {
      self.message = message
      self.plainReply = plainReply
    }
  }

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
  /// What to say on a quiet connection; nil for an exchange that keeps its connections alive by
  /// itself (a heartbeat, a ping frame).
  public let keepAlive: KeepAlive?
  let reader: Reader

  public init(
    defaultURL: URL, markets: [Currency: String], silenceBound: Duration,
    pathSuffix: String? = nil, subscriptions: @escaping @Sendable (String) -> [String],
    keepAlive: KeepAlive? = nil, read: @escaping Reader
  ) {
    self.keepAlive = keepAlive
    self.defaultURL = defaultURL
    self.markets = markets
    self.silenceBound = silenceBound
    self.pathSuffix = pathSuffix
    self.subscriptions = subscriptions
    self.reader = read
  }

  /// The connection `source` opens for BTC in `currency`, from `base` (default: the real
  /// endpoint).
  func endpoint(of source: PriceSource, for currency: Currency, base: URL?)
    throws(PriceSourceDefinition.MarketError) -> PriceStreamEndpoint
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
      silenceBound: silenceBound, keepAlive: keepAlive, reader: reader)
  }
}

extension PriceSourceDefinition {
  /// The stream connection for BTC in `currency`, from `base` (default: the stream's real
  /// endpoint); refused for a source without a stream and for a currency its stream lacks.
  public func streamEndpoint(for currency: Currency, base: URL? = nil)
    throws(MarketError) -> PriceStreamEndpoint
  {
    guard let stream else { throw .noStream(sourceID: source.id) }
    return try stream.endpoint(of: source, for: currency, base: base)
  }

  /// The option that points this source's stream at another server: `binance-stream-url`.
  public var streamURLOptionName: String { "\(source.id)-stream-url" }

  /// The environment variable with the same meaning: `BTC_PRICE_BINANCE_STREAM_URL`.
  public var streamURLEnvironmentVariable: String {
    "BTC_PRICE_\(source.id.uppercased())_STREAM_URL"
  }
}
