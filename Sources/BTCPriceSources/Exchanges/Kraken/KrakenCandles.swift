import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CandleSourceDefinition.Endpoint {
  /// Kraken's OHLC, `GET /0/public/OHLC?pair=XBTUSD&interval=5&since=...`: at most the 720 most
  /// recent candles, so `since` asks for the range alone (docs/HISTORY.md). Keyless, about one
  /// call a second per IP, errors in `error` with HTTP 200.
  public static let kraken = CandleSourceDefinition.Endpoint(
    defaultURL: URL(string: "https://api.kraken.com/0/public/OHLC?pair=XBTUSD")!,
    pairPlacement: .query("pair"),
    // Its intervals are 1, 5, 15, 30, 60, 240, 1440, 10080 and 21600 minutes; no 6 hours, so the
    // month is drawn from 4-hour candles.
    periods: [.seconds(300), .seconds(3_600), .seconds(4 * 3_600)],
    query: { period, count, now in
      let since = Int64(now.timeIntervalSince1970) - Int64(count) * period.components.seconds
      return [("interval", String(period.components.seconds / 60)), ("since", String(since))]
    },
    map: { response, pair, period throws(PriceSourceError) in
      try KrakenCandles.map(response, pair: pair, period: period)
    })
}

/// Reads Kraken's OHLC, `{"error":[],"result":{"XXBTZUSD":[[1706626800,"43437.5","43593.7",
/// "43355.5","43361.1","43511.3","18.75430110",162],...],"last":1706796000}}`: time in seconds as
/// a number, then open, high, low, close (and vwap, volume) as strings, oldest first, under
/// Kraken's own name for the pair beside `last` (a number in the docs, a string in recorded
/// answers: not read).
public enum KrakenCandles {
  public static func map(_ response: BTCHTTPResponse, pair: MarketPair, period: Duration)
    throws(PriceSourceError) -> [Candle]
  {
    let json = try SourceAnswer.json(
      response, from: PriceSourceDefinition.kraken.source,
      errorMessage: KrakenMapper.errorMessage, bodyError: KrakenMapper.bodyError)
    guard let result = json["result"]?.objectValue else { throw .invalidData("no result object") }
    let series = result.filter { $0.key != "last" }
    guard series.count == 1, let (key, rows) = series.first else {
      throw .invalidData("result has \(series.count) pairs, expected one")
    }
    guard pair.answers.contains(key) else {
      throw .invalidData("pair \(UntrustedText.excerpt(key)) is not \(pair.request)")
    }
    let row = CandleFields.Row(unit: .seconds, time: \.numberText, price: \.stringValue)
    let candles = try CandleFields.candles(rows, row, in: UntrustedText.excerpt(key))
    return try CandleFields.ordered(candles, newestFirst: false, period: period)
  }
}
