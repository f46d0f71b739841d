import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceStreamDefinition {
  /// Binance's trade stream, `wss://data-stream.binance.vision/ws/btcusdt@trade`: every trade,
  /// the market named in the path, no subscription message. USDT is shown as USD, as in REST.
  public static let binance = PriceStreamDefinition(
    defaultURL: URL(string: "wss://data-stream.binance.vision/ws/btcusdt@trade")!,
    markets: [.usd: "btcusdt", .eur: "btceur", .jpy: "btcjpy"],
    // BTCUSDT trades many times a second; 2.5 s without a trade or a ping is a stream in trouble.
    silenceBound: .milliseconds(2_500),
    pathSuffix: "@trade",
    subscriptions: { _ in [] },
    read: { json, market throws(PriceStreamError) in
      try BinanceStreamMapper.read(json, market: market)
    })
}

/// Reads `{"e":"trade","s":"BTCUSDT","p":"68901.23000000",...}` (price a string) and
/// `{"e":"serverShutdown",...}`.
public enum BinanceStreamMapper {
  public static func read(_ json: JSONObjectView, market: String) throws(PriceStreamError)
    -> PriceStreamMessage
  {
    switch json["e"]?.stringValue {
    case "trade", "aggTrade":
      try StreamPrice.expect(json["s"]?.stringValue, market)
      return try StreamPrice.parse(string: json["p"]?.stringValue)
    case "serverShutdown":
      return .reconnectSoon
    default:
      // `{"result":null,"id":1}` and any event Binance adds: the stream is alive.
      return .alive
    }
  }
}
