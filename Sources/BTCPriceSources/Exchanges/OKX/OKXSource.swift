import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PriceSourceDefinition {
  /// OKX's spot ticker, `GET /api/v5/market/ticker?instId=BTC-USDT`, and its public stream
  /// (``PriceStreamDefinition/okx``). Keyless. USDT is shown as USD (1:1), as for Binance.
  ///
  /// Its place, after Bitstamp and before Gemini: its limit (20 requests per 2 s per IP) is ten
  /// times what a 1 Hz chain asks and Gemini's one a second is not, so it goes ahead of Gemini;
  /// but it quotes USDT, which Binance already gives the chain, not the true USD (and EUR, GBP)
  /// of Coinbase, Kraken and Bitstamp, and OKX serves some regions (the US, the EEA) through
  /// other hosts and other markets, so the fiat exchanges go first. Its stream is then the
  /// fifth: the two a run opens and the standby stay Binance's, Coinbase's and Kraken's unless
  /// `--sources` puts OKX earlier (docs/STREAMS.md).
  public static let okx = PriceSourceDefinition(
    source: PriceSource(id: "okx", displayName: "OKX"),
    defaultURL: URL(string: "https://www.okx.com/api/v5/market/ticker?instId=BTC-USDT")!,
    // BTC-USDT, OKX's main bitcoin market: USDT (Tether) is shown as USD, 1:1. No other pair
    // is confirmed on this host (docs/CURRENCIES.md).
    markets: [.usd: MarketPair(request: "BTC-USDT", answers: ["BTC-USDT"])],
    pairPlacement: .query("instId"),
    map: { response, pair throws(PriceSourceError) in
      try OKXMapper.map(response, pair: pair)
    },
    stream: .okx, candles: .okx)
}

/// Maps OKX's `{"code":"0","msg":"","data":[{"instType":"SPOT","instId":"BTC-USDT","last":
/// "9999.99",...}]}` (every number a string) to the last trade's price.
public enum OKXMapper {
  /// The last trade's price, when the answer holds one ticker, for the pair asked for; an
  /// answer for another instrument is invalid data.
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair) throws(PriceSourceError)
    -> Decimal
  {
    let json = try SourceAnswer.json(
      response, from: .okx, errorMessage: errorMessage, bodyError: bodyError)
    guard let data = json["data"]?.arrayValue else { throw .invalidData("no data array") }
    guard data.count == 1, let ticker = data.first else {
      throw .invalidData("\(data.count) tickers, not one")
    }
    guard let instrument = ticker["instId"]?.stringValue, pair.answers.contains(instrument)
    else {
      throw .invalidData("ticker is not for \(pair.request)")
    }
    guard let text = ticker["last"]?.stringValue else { throw .invalidData("last is not a string") }
    return try PositivePrice.parse(string: text)
  }

  /// OKX answers every request with `code` ("0" when it succeeded) and `msg`: with HTTP 200 for
  /// an unknown instrument (`{"code":"51001","msg":"Instrument ID does not exist","data":[]}`),
  /// with 429 when it is asked too often (`{"msg":"Too Many Requests","code":"50011"}`, once with
  /// a JSON number for `code`).
  static func errorMessage(in json: JSONValue) -> String? {
    guard let code = json["code"]?.stringValue ?? json["code"]?.numberText, code != "0" else {
      return nil
    }
    let message = json["msg"]?.stringValue ?? ""
    // The code first: a long message is clipped, and the code says most.
    return message.isEmpty ? "code \(code)" : "code \(code): \(message)"
  }

  /// Its error table also lists 50011, "too many requests", with HTTP 200: a rate limit however
  /// it comes. Any other error in a 200 body is invalid data.
  static func bodyError(_ message: String) -> PriceSourceError {
    if message == "code 50011" || message.hasPrefix("code 50011:") {
      return .rateLimited(status: nil, retryAfter: nil, message: message)
    }
    return .invalidData("\(PriceSourceDefinition.okx.source.displayName) error: \(message)")
  }
}
