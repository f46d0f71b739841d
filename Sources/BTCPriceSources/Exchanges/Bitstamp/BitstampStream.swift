import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceStreamDefinition {
  /// Bitstamp's v2 feed, `wss://ws.bitstamp.net`: `live_trades_btcusd` after `bts:subscribe`.
  public static let bitstamp = PriceStreamDefinition(
    defaultURL: URL(string: "wss://ws.bitstamp.net")!,
    markets: [.usd: "btcusd", .eur: "btceur", .gbp: "btcgbp"],
    // No server heartbeat, and Bitstamp's BTC/USD can go several seconds without a trade.
    silenceBound: .seconds(30),
    subscriptions: { market in
      [
        #"{"event":"bts:subscribe","data":{"channel":"#
          + StreamPrice.quoted("live_trades_" + market) + "}}"
      ]
    },
    // Asked after a minute without a trade, so a quiet market is not redialled; the answer,
    // `{"event":"bts:heartbeat","channel":"","data":{"status":"success"}}`, reads as alive.
    keepAlive: .init(message: #"{"event":"bts:heartbeat"}"#),
    read: { json, market throws(PriceStreamError) in
      try BitstampStreamMapper.read(json, market: market)
    })
}

/// Reads `{"event":"trade","channel":"live_trades_btcusd","data":{"price_str":"68875",...}}`
/// (`price_str` the text, `price` a number beside it), the subscription's answers, the
/// heartbeat's answer and `bts:request_reconnect`.
public enum BitstampStreamMapper {
  public static func read(_ json: JSONObjectView, market: String) throws(PriceStreamError)
    -> PriceStreamMessage
  {
    switch json["event"]?.stringValue {
    case "trade":
      try StreamPrice.expect(json["channel"]?.stringValue, "live_trades_" + market)
      return try StreamPrice.parse(string: json["data"]?["price_str"]?.stringValue)
    case "bts:error":
      throw .subscriptionRefused(
        UntrustedText.excerpt(json["data"]?["message"]?.stringValue ?? "no reason"))
    case "bts:request_reconnect":
      return .reconnectSoon
    default:
      return .alive
    }
  }
}
