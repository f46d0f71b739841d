import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleSourceDefinition.Endpoint {
  /// OKX's candlesticks, `GET https://www.okx.com/api/v5/market/candles?instId=BTC-USDT&bar=5m
  /// &limit=290`: at most 300 a request from the latest 1,440, newest first, 40 requests every
  /// 2 s per IP (docs/HISTORY.md). BTC-USDT, shown as USD as Binance's BTCUSDT is.
  public static let okx = CandleSourceDefinition.Endpoint(
    defaultURL: URL(string: "https://www.okx.com/api/v5/market/candles?instId=BTC-USDT")!,
    pairPlacement: .query("instId"),
    periods: OKXCandles.bars.keys.map { $0 },
    query: { period, count, _ in
      [("bar", OKXCandles.bars[period] ?? "5m"), ("limit", String(min(count, 300)))]
    },
    map: { response, pair, period throws(PriceSourceError) in
      try OKXCandles.map(response, pair: pair, period: period)
    })
}

/// Reads OKX's candlesticks, `{"code":"0","msg":"","data":[["1597026383085","3.721","3.743",
/// "3.677","3.708","8422410","22698348.04828491","12698348.04828491","1"],...]}`: the open time in
/// milliseconds, open, high, low, close, volumes and whether the candle is complete, every field a
/// string, the newest first. `code` other than `"0"` is an error, whatever the HTTP status (read
/// as its ticker's are, ``OKXMapper``). The answer does not name its instrument.
public enum OKXCandles {
  /// Its bars this build asks for, by period: the 6-hour one on UTC's grid (`6Hutc`), as every
  /// other exchange's (OKX's plain `6H` opens on Hong Kong time).
  static let bars: [Duration: String] = [
    .seconds(300): "5m", .seconds(3_600): "1H", .seconds(6 * 3_600): "6Hutc",
  ]

  public static func map(_ response: BTCHTTPResponse, pair: MarketPair, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    let json = try SourceAnswer.json(
      response, from: PriceSourceDefinition.okx.source, errorMessage: OKXMapper.errorMessage,
      bodyError: OKXMapper.bodyError)
    let row = CandleFields.Row(unit: .milliseconds, time: \.stringValue, price: \.stringValue)
    let candles = try CandleFields.candles(json["data"], row, in: "data")
    return try CandleFields.ordered(candles, newestFirst: true, period: period)
  }
}
