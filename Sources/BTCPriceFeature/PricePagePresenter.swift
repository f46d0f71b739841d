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

  private let presenter: PricePresenter
  private let utc = TimestampFormatter.utc(precision: .seconds)

  public init(currency: Currency = .usd) {
    presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: currency)
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
      titleText: quote == nil ? state.pairText : "\(state.priceText) · \(state.pairText)",
      stateAnnouncement: phase == "fresh"
        ? "Bitcoin price \(state.priceText), updating again"
        : phase == "stale" ? PricePresenter.bannerPrefix : "Bitcoin price unavailable",
      priceAnnouncement: "Bitcoin price \(state.priceText)",
      sparklinePoints: SparklinePoints.polyline(drawn),
      sparklineLabel: "Price over the last \(drawn.count) ticks")
  }
}
