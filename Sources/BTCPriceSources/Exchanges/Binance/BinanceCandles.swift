import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleSourceDefinition.Endpoint {
  /// Binance's klines, `GET /api/v3/klines?symbol=BTCUSDT&interval=5m&limit=290`: weight 2,
  /// at most 1,000 a request, oldest first (docs/HISTORY.md).
  public static let binance = CandleSourceDefinition.Endpoint(
    defaultURL: URL(string: "https://api.binance.com/api/v3/klines?symbol=BTCUSDT")!,
    pairPlacement: .query("symbol"),
    periods: BinanceCandles.intervals.keys.map { $0 },
    query: { period, count, _ in
      [
        ("interval", BinanceCandles.intervals[period] ?? "5m"),
        ("limit", String(min(count, 1_000))),
      ]
    },
    map: { response, pair, period throws(PriceSourceError) in
      try BinanceCandles.map(response, pair: pair, period: period)
    })
}

/// Reads Binance's klines, `[[1499040000000,"0.01634790","0.80000000","0.01575800","0.01577100",
/// "148976.11427815",1499644799999,...]]`: the open time in milliseconds as a JSON number, then
/// open, high, low and close as strings. The answer does not name its symbol: the URL alone
/// decides the pair.
public enum BinanceCandles {
  /// Its intervals this build asks for, by period: the three ranges' own (``ChartRange/period``).
  static let intervals: [Duration: String] = [
    .seconds(300): "5m", .seconds(3_600): "1h", .seconds(6 * 3_600): "6h",
  ]

  public static func map(_ response: BTCHTTPResponse, pair: MarketPair, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    let json = try SourceAnswer.json(
      response, from: PriceSourceDefinition.binance.source, errorMessage: { $0["msg"]?.stringValue }
    )
    let row = CandleFields.Row(unit: .milliseconds, time: \.numberText, price: \.stringValue)
    let candles = try CandleFields.candles(json, row, in: "klines")
    return try CandleFields.ordered(candles, newestFirst: false, period: period)
  }
}
