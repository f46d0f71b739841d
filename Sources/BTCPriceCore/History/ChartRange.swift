/// How much history a chart shows: the day (`24h`, the default), the week (`7d`) or the month
/// (`30d`), each drawn from candles of its own period and fetched again at its own pace.
public enum ChartRange: String, CaseIterable, Sendable {
  case day = "24h"
  case week = "7d"
  case month = "30d"

  /// How far back the chart reaches.
  public var duration: Duration {
    switch self {
    case .day: .seconds(24 * 3_600)
    case .week: .seconds(7 * 24 * 3_600)
    case .month: .seconds(30 * 24 * 3_600)
    }
  }

  /// The candle period the chart is drawn from, where the exchange has it (each source takes
  /// the longest period it has up to this one): 288 candles of 5 minutes for the day, 168 of an
  /// hour for the week, 120 of 6 hours for the month. Each is more points than a terminal or a
  /// phone has columns for the chart, and few enough for one request everywhere (the smallest
  /// limit, Coinbase's, is 300 candles).
  public var period: Duration {
    switch self {
    case .day: .seconds(5 * 60)
    case .week: .seconds(3_600)
    case .month: .seconds(6 * 3_600)
    }
  }

  /// How often the history is fetched again while the price streams in (the live price extends
  /// the last candle in between): four times an hour for the day, whose candles are 5 minutes
  /// long, hourly for the others. Never per tick. A request of the day's candles costs Binance
  /// a weight of 2 of the 6,000 a minute it allows.
  public var refreshInterval: Duration {
    switch self {
    case .day: .seconds(15 * 60)
    case .week, .month: .seconds(3_600)
    }
  }

  /// How many candles of `period` to ask for: the whole range, the candle under way, and one
  /// more so that the price exactly a range ago is inside the series, not at its edge.
  public func candleCount(of period: Duration) -> Int {
    // In whole seconds: a `Duration` quotient is a `Double`, and 30 days over 6 hours is not
    // exactly 120 in it.
    let seconds = period.components.seconds
    return Int((duration.components.seconds + seconds - 1) / seconds) + 2
  }

  /// The range `24h`, `7d` or `30d` names, in any letter case.
  public static func named(_ text: String) -> ChartRange? {
    ChartRange(rawValue: text.lowercased())
  }
}
