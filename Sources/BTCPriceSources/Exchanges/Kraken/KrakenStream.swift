import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceStreamDefinition {
  /// Kraken's v2 feed, `wss://ws.kraken.com/v2`: the `ticker` channel on every trade, a heartbeat
  /// about once a second when nothing else is sent.
  public static let kraken = PriceStreamDefinition(
    defaultURL: URL(string: "wss://ws.kraken.com/v2")!,
    // v2 names BTC `BTC`, where REST and v1 say `XBT`.
    markets: [.usd: "BTC/USD", .eur: "BTC/EUR", .gbp: "BTC/GBP"],
    silenceBound: .milliseconds(2_500),
    subscriptions: { market in
      [
        #"{"method":"subscribe","params":{"channel":"ticker","symbol":["#
          + StreamPrice.quoted(market) + "]}}"
      ]
    },
    read: { json, market throws(PriceStreamError) in
      try KrakenStreamMapper.read(json, market: market)
    })
}

/// Reads `{"channel":"ticker","type":"update","data":[{"symbol":"BTC/USD","last":68870.1,...}]}`
/// (`last` a JSON **number**, read as its literal text), heartbeats, and the subscription's
/// answer.
public enum KrakenStreamMapper {
  public static func read(_ json: JSONObjectView, market: String) throws(PriceStreamError)
    -> PriceStreamMessage
  {
    if json["method"]?.stringValue == "subscribe", json["success"] == .bool(false) {
      throw .subscriptionRefused(UntrustedText.excerpt(json["error"]?.stringValue ?? "no reason"))
    }
    guard json["channel"]?.stringValue == "ticker" else { return .alive }
    guard let last = json["data"]?.arrayValue?.last else {
      throw .invalidMessage("ticker without data")
    }
    try StreamPrice.expect(last["symbol"]?.stringValue, market)
    return try StreamPrice.parse(number: last["last"]?.numberText)
  }
}
