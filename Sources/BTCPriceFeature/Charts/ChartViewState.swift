import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A price chart, already worded and placed: where each candle sits, what the time axis says and
/// where, the low and the high, the 24-hour change, how old the history is, and what a screen
/// reader says. The terminal, the web page and the app only scale it to their size.
///
/// Positions are `Double`s from 0 to 1 because they are geometry, not money: nothing is computed
/// with them again, and the rounding of a position cannot change a price.
public struct ChartViewState: Equatable, Sendable {
  /// One candle: `x` from 0 (the range's start) to 1 (now), by its start time; `low`, `high` and
  /// `close` from 0 (the chart's low) to 1 (its high).
  public struct Point: Equatable, Sendable {
    public let x: Double
    public let low: Double
    public let high: Double
    public let close: Double

    public init(x: Double, low: Double, high: Double, close: Double) {
      self.x = x
      self.low = low
      self.high = high
      self.close = close
    }
  }

  /// A mark on the time axis: `18:00`, `Nov 22`, at `x` from 0 to 1; `at` is its instant, for a
  /// view that words it in another time zone (the web page, in its viewer's).
  public struct TimeLabel: Equatable, Sendable {
    public let x: Double
    public let text: String
    public let at: Date

    public init(x: Double, text: String, at: Date) {
      self.x = x
      self.text = text
      self.at = at
    }
  }

  public let range: ChartRange
  /// `BTC/USD, last 24 hours · Binance`.
  public let title: String
  /// Oldest first.
  public let points: [Point]
  /// Left to right, in the user's time zone.
  public let timeLabels: [TimeLabel]
  /// The lowest price of the range: `$67,980.00`.
  public let lowText: String
  /// The highest: `$69,120.00`.
  public let highText: String
  /// `low $67,980.00  high $69,120.00`.
  public let rangeText: String
  /// `▲ +$1,140.00 (+1.68%)` `in 24 hours`; nil when the history cannot say (never a zero).
  public let change: PriceTrendViewState.Change?
  /// The same change as values, for machine-readable views (`--json`, the API).
  public let changeValue: PriceChange?
  /// Which way to colour the chart: the 24-hour change's, else the range's first close to its
  /// last.
  public let direction: PriceChange.Direction
  /// `Binance`: whose candles these are.
  public let sourceName: String
  /// `as of Nov 22, 14:03` when the history is older than its refreshes should leave it (the
  /// exchanges could not be reached since); nil while it is up to date.
  public let ageText: String?
  /// What VoiceOver says for the chart, in words that do not depend on the locale.
  public let accessibilityLabel: String

  /// A chart as the presenter words it (``ChartPresenter``); views' tests build their own.
  public init(
    range: ChartRange, title: String, points: [Point], timeLabels: [TimeLabel], lowText: String,
    highText: String, rangeText: String, change: PriceTrendViewState.Change?,
    changeValue: PriceChange?, direction: PriceChange.Direction, sourceName: String,
    ageText: String?, accessibilityLabel: String
  ) {
    self.range = range
    self.title = title
    self.points = points
    self.timeLabels = timeLabels
    self.lowText = lowText
    self.highText = highText
    self.rangeText = rangeText
    self.change = change
    self.changeValue = changeValue
    self.direction = direction
    self.sourceName = sourceName
    self.ageText = ageText
    self.accessibilityLabel = accessibilityLabel
  }
}
