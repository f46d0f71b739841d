import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceStreamDefinition {
  /// Coinbase Exchange's feed, `wss://ws-feed.exchange.coinbase.com`: `ticker` on every trade and
  /// `heartbeat` once a second, subscribed to within 5 s of connecting.
  public static let coinbase = PriceStreamDefinition(
    defaultURL: URL(string: "wss://ws-feed.exchange.coinbase.com")!,
    markets: [.usd: "BTC-USD", .eur: "BTC-EUR", .gbp: "BTC-GBP"],
    // A heartbeat a second: 2.5 s is one lost heartbeat and some network jitter.
    silenceBound: .milliseconds(2_500),
    subscriptions: { market in
      [
        #"{"type":"subscribe","product_ids":["# + StreamPrice.quoted(market)
          + #"],"channels":["ticker","heartbeat"]}"#
      ]
    },
    read: { json, market throws(PriceStreamError) in
      try CoinbaseStreamMapper.read(json, market: market)
    })
}

/// Reads `{"type":"ticker","product_id":"BTC-USD","price":"68880.55",...}` (price a string),
/// heartbeats, the subscription's acknowledgement and its refusal.
public enum CoinbaseStreamMapper {
  public static func read(_ json: JSONObjectView, market: String) throws(PriceStreamError)
    -> PriceStreamMessage
  {
    switch json["type"]?.stringValue {
    case "ticker":
      try StreamPrice.expect(json["product_id"]?.stringValue, market)
      return try StreamPrice.parse(string: json["price"]?.stringValue)
    case "error":
      let reason = [json["message"]?.stringValue, json["reason"]?.stringValue]
        .compactMap { $0 }.joined(separator: ": ")
      throw .subscriptionRefused(UntrustedText.excerpt(reason))
    default:
      // heartbeat, subscriptions, and "new message types can be added at any time".
      return .alive
    }
  }
}
