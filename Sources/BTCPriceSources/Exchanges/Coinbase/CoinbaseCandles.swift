import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleSourceDefinition.Endpoint {
  /// Coinbase Exchange's candles, `GET https://api.exchange.coinbase.com/products/BTC-USD/candles
  /// ?granularity=300`: up to 300 ending now, newest first (docs/HISTORY.md). Another host than
  /// the spot price's (`api.coinbase.com`), with its own limits: 10 requests a second per IP.
  public static let coinbase = CandleSourceDefinition.Endpoint(
    defaultURL: URL(string: "https://api.exchange.coinbase.com/products/BTC-USD/candles")!,
    // The exchange's BTC products (the spot price has every fiat currency, from its rates).
    markets: [
      .usd: MarketPair(request: "BTC-USD", answers: []),
      .eur: MarketPair(request: "BTC-EUR", answers: []),
      .gbp: MarketPair(request: "BTC-GBP", answers: []),
    ],
    pairPlacement: .pathSegment(separator: "-"),
    // Its granularities are 60, 300, 900, 3600, 21600 and 86400 seconds; these are the ones a
    // range asks for.
    periods: [.seconds(300), .seconds(3_600), .seconds(21_600)],
    // Without start and end it sends the 300 candles that end now: more than any range needs
    // (25 hours of 5 minutes, 12½ days of hours, 75 days of 6 hours).
    query: { period, _, _ in [("granularity", String(period.components.seconds))] },
    map: { response, pair, period throws(PriceSourceError) in
      try CoinbaseCandles.map(response, pair: pair, period: period)
    })
}

/// Reads Coinbase Exchange's candles, `[[1710327600,73241.5,73402.47,73243.33,73370.65,
/// 1.56794406],...]`: time in seconds, then **low, high**, open, close, volume, all JSON numbers
/// (their literal text is read), the newest first. The answer does not name its product.
public enum CoinbaseCandles {
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    // Errors: `{"message":"NotFound"}` with a 4xx status (the Exchange API's shape, not the
    // retail API's `errors` list).
    let json = try SourceAnswer.json(
      response, from: PriceSourceDefinition.coinbase.source,
      errorMessage: { $0["message"]?.stringValue })
    let row = CandleFields.Row(
      open: 3, high: 2, low: 1, close: 4, unit: .seconds, time: \.numberText, price: \.numberText)
    let candles = try CandleFields.candles(json, row, in: "candles")
    return try CandleFields.ordered(candles, newestFirst: true, period: period)
  }
}
