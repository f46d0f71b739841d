import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceStreamDefinition {
  /// OKX's public WebSocket, `wss://ws.okx.com:8443/ws/v5/public`: the `tickers` channel of
  /// `BTC-USDT` (USDT shown as USD, as in REST), pushed on every trade and every change of the
  /// best bid or ask, at most once every 100 ms; its `last` is the last trade's price.
  /// `tickers` rather than `trades`: the same last price, its pushes bounded at ten a second,
  /// and a change of the book keeps a market without trades talking.
  public static let okx = PriceStreamDefinition(
    defaultURL: URL(string: "wss://ws.okx.com:8443/ws/v5/public")!,
    markets: [.usd: "BTC-USDT"],
    // BTC-USDT's best bid or ask changes many times a second, each change a push: 2.5 s without
    // one is a stream in trouble.
    silenceBound: .milliseconds(2_500),
    subscriptions: { market in
      [
        #"{"op":"subscribe","args":[{"channel":"tickers","instId":"#
          + StreamPrice.quoted(market) + "}]}"
      ]
    },
    // OKX cuts a connection that has pushed nothing for 30 s; a client with nothing to read
    // sends the text `ping` and gets `pong`. The runner asks after its 5 s silence limit.
    keepAlive: .init(message: "ping", plainReply: "pong"),
    read: { json, market throws(PriceStreamError) in
      try OKXStreamMapper.read(json, market: market)
    })
}

/// Reads `{"arg":{"channel":"tickers","instId":"BTC-USDT"},"data":[{"instId":"BTC-USDT",
/// "last":"9999.99",...}]}` (`last` a string), the subscription's answer
/// `{"event":"subscribe",...}`, its refusal `{"event":"error","code":"60018","msg":...}`, and the
/// notice of a restart `{"event":"notice","code":"64008",...}`.
public enum OKXStreamMapper {
  public static func read(_ json: JSONObjectView, market: String) throws(PriceStreamError)
    -> PriceStreamMessage
  {
    switch json["event"]?.stringValue {
    case "error":
      let code = json["code"]?.stringValue ?? json["code"]?.numberText ?? "?"
      let message = json["msg"]?.stringValue ?? "no reason"
      throw .subscriptionRefused(UntrustedText.excerpt("code \(code): \(message)"))
    case "notice" where (json["code"]?.stringValue ?? json["code"]?.numberText) == "64008":
      // "The connection will soon be closed for a service upgrade", a minute ahead.
      return .reconnectSoon
    case .some:
      // subscribe, unsubscribe, and any event OKX adds.
      return .alive
    case nil:
      break
    }
    guard let data = json["data"], json["arg"]?["channel"]?.stringValue == "tickers" else {
      return .alive
    }
    try StreamPrice.expect(json["arg"]?["instId"]?.stringValue, market)
    guard let tickers = data.arrayValue, let last = tickers.last else {
      throw .invalidMessage("tickers without data")
    }
    for ticker in tickers { try StreamPrice.expect(ticker["instId"]?.stringValue, market) }
    return try StreamPrice.parse(string: last["last"]?.stringValue)
  }
}
