/// A period a price's change is measured over: the hour, the day, the week and the month,
/// each measured on the history of the chart range that holds it (the hour and the day on the
/// day's 5-minute candles, the week on the week's hourly ones, the month on the month's).
public enum ChangePeriod: String, CaseIterable, Sendable {
  case hour = "1h"
  case day = "24h"
  case week = "7d"
  case month = "30d"

  /// How long before the price the reference is.
  public var window: Duration {
    switch self {
    case .hour: .seconds(3_600)
    case .day: .seconds(24 * 3_600)
    case .week: .seconds(7 * 24 * 3_600)
    case .month: .seconds(30 * 24 * 3_600)
    }
  }

  /// The range whose history the change is measured on.
  public var range: ChartRange {
    switch self {
    case .hour, .day: .day
    case .week: .week
    case .month: .month
    }
  }

  /// How far from exactly one ``window`` before the reference may be. The history knows a
  /// price at each candle's open and close, so without a gap the nearest is at most half a
  /// candle away; the tolerance lets a short gap pass (an exchange publishes no candle for a
  /// period without trades) and keeps the figure within about 1 % of the period it names, or,
  /// for the hour, within one of the day's 5-minute candles (a twelfth of it). Further off it
  /// would be another figure under the same name: the change is then absent.
  public var tolerance: Duration {
    switch self {
    case .hour: .seconds(5 * 60)
    case .day: .seconds(15 * 60)
    case .week: .seconds(2 * 3_600)
    case .month: .seconds(9 * 3_600)
    }
  }

  /// The period `1h`, `24h`, `7d` or `30d` names.
  public static func named(_ text: String) -> ChangePeriod? {
    ChangePeriod(rawValue: text.lowercased())
  }
}
