import BTCPriceCore
import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price chart --json` and `--csv`: the range's candles for other tools, one per line,
/// oldest first, every price in exact decimals as the exchanges gave it.
///
/// ```
/// {"time":"2026-11-22T13:55:00Z","open":"68901.23","high":"68950","low":"68890.1","close":"68920"}
/// time,open,high,low,close
/// 2026-11-22T13:55:00Z,68901.23,68950,68890.1,68920
/// ```
public enum CandleExport {
  public enum Format: Sendable {
    /// One JSON object per line (JSON Lines), each field a string.
    case json
    /// A header line, then one row per candle.
    case csv
  }

  /// The lines of `candles` (without newlines); `time` is when each candle starts, ISO 8601 in
  /// UTC to the second.
  public static func lines(_ candles: [Candle], format: Format) -> [String] {
    switch format {
    case .json:
      return candles.map { candle in
        "{" + fields(candle).map { "\"\($0.0)\":\($0.1.jsonLiteral)" }.joined(separator: ",")
          + "}"
      }
    case .csv:
      return ["time,open,high,low,close"]
        + candles.map { fields($0).map(\.1).joined(separator: ",") }
    }
  }

  /// The candles of `series` that fall in `range`, ending at the series' own end: what a chart
  /// of it draws, without the live price.
  public static func candles(of series: CandleSeries, in range: ChartRange) -> [Candle] {
    let start = series.end.addingTimeInterval(-range.duration.timeInterval)
    return series.candles.filter {
      $0.start.addingTimeInterval(series.period.timeInterval) > start
    }
  }

  private static func fields(_ candle: Candle) -> [(String, String)] {
    [
      ("time", ISO8601Timestamp.format(candle.start)), ("open", candle.open.plainText),
      ("high", candle.high.plainText), ("low", candle.low.plainText),
      ("close", candle.close.plainText),
    ]
  }
}
