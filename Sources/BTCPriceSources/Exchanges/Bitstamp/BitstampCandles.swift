import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleSourceDefinition.Endpoint {
  /// Bitstamp's OHLC, `GET /api/v2/ohlc/btcusd/?step=300&limit=290`: at most 1,000 a request,
  /// oldest first, the candle under way included (docs/HISTORY.md).
  public static let bitstamp = CandleSourceDefinition.Endpoint(
    defaultURL: URL(string: "https://www.bitstamp.net/api/v2/ohlc/btcusd/")!,
    pairPlacement: .pathSegment(separator: ""),
    // Its steps are 60, 180, 300, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400 and 259200
    // seconds; these are the ones a range asks for.
    periods: [.seconds(300), .seconds(3_600), .seconds(21_600)],
    query: { period, count, _ in
      [("step", String(period.components.seconds)), ("limit", String(min(count, 1_000)))]
    },
    map: { response, pair, period throws(PriceSourceError) in
      try BitstampCandles.map(response, pair: pair, period: period)
    })
}

/// Reads Bitstamp's OHLC, `{"data":{"pair":"BTC/USD","ohlc":[{"timestamp":"1710327600",
/// "open":"73241","high":"73293","low":"73240","close":"73285","volume":"0.01076655"}]}}`: every
/// field a string (whole prices without decimals), oldest first, the pair named as `BTC/USD`.
public enum BitstampCandles {
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    let json = try SourceAnswer.json(
      response, from: PriceSourceDefinition.bitstamp.source,
      errorMessage: BitstampMapper.errorMessage)
    guard let data = json["data"]?.objectValue else { throw .invalidData("no data object") }
    // `btcusd` is named `BTC/USD` in the answer.
    let expected = "BTC/" + pair.request.dropFirst(3).uppercased()
    guard let named = data["pair"]?.stringValue, named == expected else {
      let named = data["pair"]?.stringValue.map(UntrustedText.excerpt) ?? "missing"
      throw .invalidData("pair \(named) is not \(expected)")
    }
    guard let rows = data["ohlc"]?.arrayValue else {
      throw .invalidData("data.ohlc is not an array")
    }
    var candles: [Candle] = []
    candles.reserveCapacity(rows.count)
    for row in rows {
      candles.append(
        try CandleFields.candle(
          start: try CandleFields.start(row["timestamp"]?.stringValue, in: .seconds),
          open: try CandleFields.price(row["open"]?.stringValue, "open"),
          high: try CandleFields.price(row["high"]?.stringValue, "high"),
          low: try CandleFields.price(row["low"]?.stringValue, "low"),
          close: try CandleFields.price(row["close"]?.stringValue, "close")))
    }
    return try CandleFields.ordered(candles, newestFirst: false, period: period)
  }
}
