import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Words one tick for the web page: the same texts as every other view, in the page's short
/// forms, with times in UTC until the page's script writes them in the viewer's zone.
public struct PricePagePresenter: Sendable {
  /// Fresh values the sparkline shows at most.
  public static let sparklineLength = 60

  /// Intervals without an event after which the page says by itself that its price is old.
  /// More than the three a standby publisher may take to step in, so a hand-over between two
  /// publishers does not flash the banner.
  public static let silentIntervals = 4
  /// The least silence that counts, whatever the interval: a browser's timers and a network's
  /// hiccups are not an outage.
  public static let shortestSilence = Duration.seconds(2)

  private let presenter: PricePresenter
  private let utc = TimestampFormatter.utc(precision: .seconds)
  private let silence: Duration

  /// - Parameter interval: the ticks' interval, which tells the page how long a silence means
  ///   that its price is no longer being updated.
  public init(currency: Currency = .usd, interval: Duration = PriceDefaults.interval) {
    presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: currency)
    silence = max(interval * Self.silentIntervals, Self.shortestSilence)
  }

  /// - Parameters:
  ///   - previousValue: the value the tick before showed, if any, for the change.
  ///   - recentValues: the fresh values of the ticks so far, oldest first, this tick's included;
  ///     the last ``sparklineLength`` are drawn.
  ///   - chart: the day's chart (``PriceTick/chart``); nil without a price history.
  public func present(
    _ state: PriceViewState, previousValue: Decimal?, recentValues: [Decimal],
    chart: ChartViewState? = nil
  ) -> PricePageViewState {
    var page = presentPrice(state, previousValue: previousValue, recentValues: recentValues)
    if let change = state.change24h {
      page.change24hText = "\(change.text) \(change.label)"
      page.change24hDirection = Self.word(change.direction)
    }
    page.chart = chart.map(presentChart)
    page.satsText = state.satsText ?? ""
    return page
  }

  /// The chart in the page's 600 × 200 box: the closes as a line (the high at the top, 10 units
  /// of margin above and below so the line's width is not cut), the area under it, the axis's
  /// marks in whole percent, the low and the high.
  public func presentChart(_ chart: ChartViewState) -> PageChartViewState {
    let (width, height) = (Double(PageChartViewState.width), Double(PageChartViewState.height))
    let points = chart.points.map { point in
      SparklinePoints.oneDecimal(point.x * width) + ","
        + SparklinePoints.oneDecimal(10 + (1 - point.close) * (height - 20))
    }
    let first = chart.points.first.map { SparklinePoints.oneDecimal($0.x * width) } ?? "0.0"
    let last = chart.points.last.map { SparklinePoints.oneDecimal($0.x * width) } ?? "0.0"
    let bottom = SparklinePoints.oneDecimal(height)
    return PageChartViewState(
      title: chart.title, ageText: chart.ageText, line: points.joined(separator: " "),
      area: ([first + "," + bottom] + points + [last + "," + bottom]).joined(separator: " "),
      direction: Self.word(chart.direction), highText: "high \(chart.highText)",
      lowText: "low \(chart.lowText)",
      times: chart.timeLabels.map {
        PageChartViewState.TimeMark(
          position: Int(($0.x * 100).rounded()), text: $0.text,
          time: ISO8601Timestamp.format($0.at))
      },
      label: chart.accessibilityLabel)
  }

  private static func word(_ direction: PriceChange.Direction) -> String {
    switch direction {
    case .up: "up"
    case .down: "down"
    case .unchanged: "unchanged"
    }
  }

  private func presentPrice(
    _ state: PriceViewState, previousValue: Decimal?, recentValues: [Decimal]
  ) -> PricePageViewState {
    let quote = state.quote
    let phase = quote == nil ? "empty" : state.isStale ? "stale" : "fresh"
    var direction = "none"
    var changeText = ""
    if let value = quote?.value, let previousValue {
      let change = presenter.presentChange(PriceChange(from: previousValue, to: value))
      switch change.direction {
      case .up: (direction, changeText) = ("up", "\(change.arrow) \(change.amountText)")
      case .down: (direction, changeText) = ("down", "\(change.arrow) \(change.amountText)")
      case .unchanged: (direction, changeText) = ("unchanged", change.text)
      }
    }
    let drawn = Array(recentValues.suffix(Self.sparklineLength))
    return PricePageViewState(
      phase: phase, direction: direction, pairText: state.pairText, priceText: state.priceText,
      changeText: changeText, updatedText: "Last updated", timestamp: state.record.timestamp,
      timeText: quote.map { utc.format($0.timestamp) + " UTC" } ?? PricePresenter.placeholder,
      sourceText: state.sourceName.map { "from \($0)" },
      bannerText: state.isStale ? PricePresenter.bannerPrefix : nil,
      silentBannerText: PricePresenter.bannerPrefix,
      silentAfterMilliseconds: Int(silence.wholeMilliseconds),
      titleText: quote == nil ? state.pairText : "\(state.priceText) · \(state.pairText)",
      stateAnnouncement: phase == "fresh"
        ? "Bitcoin price \(state.priceText), updating again"
        : phase == "stale" ? PricePresenter.bannerPrefix : "Bitcoin price unavailable",
      priceAnnouncement: "Bitcoin price \(state.priceText)",
      sparklinePoints: SparklinePoints.polyline(drawn),
      sparklineLabel: "Price over the last \(drawn.count) ticks")
  }
}
