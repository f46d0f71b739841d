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
  public func present(_ state: PriceViewState, previousValue: Decimal?, recentValues: [Decimal])
    -> PricePageViewState
  {
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
