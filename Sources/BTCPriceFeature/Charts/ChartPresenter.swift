import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns a range's history and the current price into the ``ChartViewState`` every view draws:
/// the terminal's chart, the web page's and the app's. Every word, number format and position is
/// decided here; the 24-hour change is ``TwentyFourHourChange``'s, worded as the other changes
/// are (``PricePresenter``).
public struct ChartPresenter: Sendable {
  /// The label of the 24-hour change: `▲ +$1,140.00 (+1.68%) in 24 hours`.
  public static let changeLabel = PricePresenter.change24hLabel

  let timestamps: TimestampFormatter
  public let currency: Currency

  /// - Parameters:
  ///   - timestamps: the time axis and the history's age, in the user's time zone.
  ///   - currency: the currency of this run.
  public init(timestamps: TimestampFormatter, currency: Currency = .usd) {
    self.timestamps = timestamps
    self.currency = currency
  }

  /// The chart of `range` from `series` (extended by the live price), ending at the current
  /// price's time; nil without a history of the range in this currency.
  ///
  /// - Parameters:
  ///   - current: the price shown beside the chart (in this currency); nil shows the
  ///     history's own last price.
  ///   - dayHistory: the day's series, which the 24-hour change is always measured on (its
  ///     5-minute candles know the price a day ago to within minutes, a week's hours do not);
  ///     by default `series` when `range` is the day.
  ///   - now: the wall clock, for the history's age.
  ///   - notUpdated: the history could not be updated just now (the exchanges failed): its age
  ///     is shown whatever it is, not only once it is older than twice the range's refresh.
  public func present(
    _ series: CandleSeries?, range: ChartRange, current: PriceQuote?,
    dayHistory: CandleSeries? = nil, now: Date, notUpdated: Bool = false
  ) -> ChartViewState? {
    guard let series, series.currency == currency else { return nil }
    let last = series.candles[series.candles.count - 1]
    let current =
      current.flatMap { $0.currency == currency.code ? $0 : nil }
      ?? PriceQuote(
        value: last.close, currency: currency.code,
        timestamp: min(series.end, series.fetchedAt), source: series.source)
    // The chart ends at the current price, unless the history ended a whole range before it
    // (kept from days ago, and no fetch since): then it shows the range the history knew, with
    // its age, rather than an empty one.
    let knownUntil = min(series.end, series.fetchedAt)
    let end =
      current.timestamp.timeIntervalSince(knownUntil) > range.duration.timeInterval
      ? knownUntil : max(current.timestamp, series.start)
    let start = end.addingTimeInterval(-range.duration.timeInterval)
    let shown = series.candles.filter {
      $0.start.addingTimeInterval(series.period.timeInterval) > start && $0.start <= end
    }
    let candles = shown.isEmpty ? [last] : shown
    let low = candles.lazy.map(\.low).min() ?? last.low
    let high = candles.lazy.map(\.high).max() ?? last.high
    let twentyFourHours = TwentyFourHourChange.of(
      current, in: dayHistory ?? (range == .day ? series : nil)
    ).map { PriceChange(from: $0.reference, to: $0.current) }
    let change = twentyFourHours.map(word)
    let direction =
      twentyFourHours?.direction ?? PriceChange(from: candles[0].close, to: last.close).direction
    let lowText = PriceFormatter.format(low, currency: currency)
    let highText = PriceFormatter.format(high, currency: currency)
    let stale =
      notUpdated
      || now.timeIntervalSince(series.fetchedAt) > (range.refreshInterval * 2).timeInterval
    return ChartViewState(
      range: range,
      title: "BTC/\(currency.code), last \(Self.spokenRange(range)) · "
        + series.source.displayName,
      points: candles.map { candle in
        ChartViewState.Point(
          x: Self.fraction(candle.start.timeIntervalSince(start), of: range.duration),
          low: Self.height(candle.low, low: low, high: high),
          high: Self.height(candle.high, low: low, high: high),
          close: Self.height(candle.close, low: low, high: high))
      },
      timeLabels: timeLabels(range, from: start, to: end),
      lowText: lowText, highText: highText,
      rangeText: "low \(lowText)  high \(highText)",
      change: change, changeValue: twentyFourHours, direction: direction,
      sourceName: series.source.displayName,
      ageText: stale ? "as of \(timestamps.format(series.fetchedAt))" : nil,
      accessibilityLabel: spoken(
        range: range, change: twentyFourHours, low: low, high: high, source: series.source,
        age: stale ? timestamps.format(series.fetchedAt) : nil))
  }

  /// `▲ +$1,140.00 (+1.68%)` `in 24 hours`, worded as every other change is.
  public func word(_ change: PriceChange) -> PriceTrendViewState.Change {
    let worded = PricePresenter(timestamps: timestamps, currency: currency).presentChange(change)
    return PriceTrendViewState.Change(
      text: worded.text, label: Self.changeLabel, direction: worded.direction,
      arrow: worded.arrow, amountText: worded.amountText, percentText: worded.percentText)
  }

  /// What is said where a chart cannot be drawn: `No price history for the last 24 hours yet`,
  /// and why when a fetch said so: `...: binance: HTTP 451; coinbase: timed out after 5000 ms`.
  public func presentUnavailable(_ range: ChartRange, failure: PriceFetchFailure? = nil)
    -> String
  {
    let text = "No price history for the last \(Self.spokenRange(range)) yet"
    return failure.map { "\(text): \(Self.reasons($0))" } ?? text
  }

  /// What is said where the space is too small for any chart: `No room for a chart in 10
  /// columns and 7 lines: it needs at least 20 columns and 5 lines`.
  public func presentNoRoom(columns: Int, lines: Int, needs: (columns: Int, lines: Int)) -> String {
    "No room for a chart in \(columns) columns and \(lines) lines: it needs at least "
      + "\(needs.columns) columns and \(needs.lines) lines"
  }

  /// What is said when a fetch failed and the history kept from before is shown instead:
  /// `Failed to update the price history (binance: HTTP 451); showing it as of Nov 22, 14:03`.
  public func presentKeptHistory(after failure: PriceFetchFailure, fetchedAt: Date) -> String {
    "Failed to update the price history (\(Self.reasons(failure))); showing it as of "
      + timestamps.format(fetchedAt)
  }

  /// Every source's reason, or that no exchange has candles in the currency.
  private static func reasons(_ failure: PriceFetchFailure) -> String {
    failure.failures.isEmpty ? "no exchange has price history in this currency" : "\(failure)"
  }

  /// `24 hours`, `7 days`, `30 days`.
  static func spokenRange(_ range: ChartRange) -> String {
    switch range {
    case .day: "24 hours"
    case .week: "7 days"
    case .month: "30 days"
    }
  }

  /// The axis's marks in the user's time zone: every 6 hours on the hour for the day, every
  /// midnight for the week, the 1st, 8th, 15th and 22nd for the month (about weekly, and the
  /// same days every month).
  private func timeLabels(_ range: ChartRange, from start: Date, to end: Date) -> [ChartViewState
    .TimeLabel]
  {
    let step: Int64 = range == .day ? 6 * 3_600 : 86_400
    // The zone's offset at the end, corrected at each mark: a mark after a change to or from
    // daylight saving time still falls on its hour.
    let offsetAtEnd = Int64(timestamps.secondsAheadOfUTC(at: end))
    let firstLocal = Int64(start.timeIntervalSince1970.rounded(.up)) + offsetAtEnd
    var local = (firstLocal + step - 1).floorDivided(by: step).quotient * step
    var labels: [ChartViewState.TimeLabel] = []
    while true {
      let guess = Date(timeIntervalSince1970: TimeInterval(local - offsetAtEnd))
      let offset = Int64(timestamps.secondsAheadOfUTC(at: guess))
      let mark = Date(timeIntervalSince1970: TimeInterval(local - offset))
      guard mark <= end else { break }
      let day = CivilDate(daysSince1970: local.floorDivided(by: 86_400).quotient).day
      if mark >= start, range != .month || [1, 8, 15, 22].contains(day) {
        labels.append(
          ChartViewState.TimeLabel(
            x: Self.fraction(mark.timeIntervalSince(start), of: range.duration),
            text: range == .day ? timestamps.timeOfDay(mark) : timestamps.day(mark), at: mark))
      }
      local += step
    }
    return labels
  }

  /// `Bitcoin over the last 24 hours, from Binance: up 1,140 dollars since a day ago, 1.68
  /// percent. Low 67,980 dollars, high 69,120 dollars.`
  private func spoken(
    range: ChartRange, change: PriceChange?, low: Decimal, high: Decimal, source: PriceSource,
    age: String?
  ) -> String {
    var words = "Bitcoin over the last \(Self.spokenRange(range)), from \(source.displayName)"
    if let age { words += ", as of \(age)" }
    if let change {
      words +=
        ": "
        + PricePresenter(timestamps: timestamps, currency: currency).presentSpokenChange24h(change)
    }
    return words + ". Low \(SpokenPrice.text(low, currency: currency)), high "
      + "\(SpokenPrice.text(high, currency: currency))."
  }

  /// `value` between `low` (0) and `high` (1); a flat chart at mid height.
  private static func height(_ value: Decimal, low: Decimal, high: Decimal) -> Double {
    guard high > low else { return 0.5 }
    // Through the text, because FoundationEssentials has no Decimal-to-Double conversion.
    return Double(((value - low) / (high - low)).description) ?? 0.5
  }

  /// `seconds` as a share of `duration`, kept between 0 and 1.
  private static func fraction(_ seconds: TimeInterval, of duration: Duration) -> Double {
    min(max(seconds / duration.timeInterval, 0), 1)
  }
}
