import BTCPriceCore
import Foundation

/// Candles and histories for tests: prices as text (exact), times in seconds since 1970.
extension Candle {
  /// A candle starting `seconds` after 1970 with these prices; crashes on an impossible one
  /// (tests of refusals call ``Candle/init(start:open:high:low:close:)`` themselves).
  public static func at(
    _ seconds: TimeInterval, _ open: String, _ high: String, _ low: String, _ close: String
  ) -> Candle {
    try! Candle(
      start: Date(timeIntervalSince1970: seconds), open: Decimal(string: open)!,
      high: Decimal(string: high)!, low: Decimal(string: low)!, close: Decimal(string: close)!)
  }

  /// A candle whose four prices are `price`.
  public static func flat(_ seconds: TimeInterval, _ price: String) -> Candle {
    at(seconds, price, price, price, price)
  }
}

extension CandleSeries {
  /// A history of these candles; crashes on candles out of order (tests of refusals call
  /// ``CandleSeries/init(currency:period:candles:source:fetchedAt:)`` themselves).
  public static func of(
    _ candles: [Candle], period: Duration = .seconds(300), currency: Currency = .usd,
    source: PriceSource = .binance, fetchedAt: TimeInterval? = nil
  ) -> CandleSeries {
    let end = candles.last.map { $0.start.timeIntervalSince1970 } ?? 0
    return try! CandleSeries(
      currency: currency, period: period, candles: candles, source: source,
      fetchedAt: Date(timeIntervalSince1970: fetchedAt ?? end + 60))
  }

  /// A day of 5-minute candles ending with the one that starts at `end`: 290 of them, each flat
  /// at the price `price(index)` gives (index 0 the oldest).
  public static func day(
    endingAt end: TimeInterval, currency: Currency = .usd, source: PriceSource = .binance,
    price: (Int) -> String
  ) -> CandleSeries {
    let count = ChartRange.day.candleCount(of: .seconds(300))
    return .of(
      (0..<count).map { index in
        .flat(end - TimeInterval((count - 1 - index) * 300), price(index))
      }, currency: currency, source: source)
  }
}
