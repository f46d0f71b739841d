import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns a tick's ``PriceUpdate`` into the ``PriceViewState`` every UI renders, and a
/// ``PriceHistory`` into the ``PriceTrendViewState`` of the live panel. Every word and number
/// format the user sees is decided here.
public struct PricePresenter: Sendable {
  public static let placeholder = "-"
  public static let bannerPrefix = "Failed to update value. Displaying last updated value from"

  private let timestamps: TimestampFormatter

  public init(timestamps: TimestampFormatter) {
    self.timestamps = timestamps
  }

  public func present(_ update: PriceUpdate) -> PriceViewState {
    switch update {
    case .fresh(let quote):
      return state(showing: quote, stale: false, failure: nil)
    case .stale(let lastKnown, let failure):
      return state(showing: lastKnown, stale: true, failure: failure.description)
    }
  }

  /// The state before the first tick: the cached value (no banner), or placeholders.
  public func presentRestored(_ quote: PriceQuote?) -> PriceViewState {
    state(showing: quote, stale: false, failure: nil)
  }

  public func presentTrend(_ history: PriceHistory) -> PriceTrendViewState {
    let range = history.recent.min().flatMap { low in
      history.recent.max().map { high in
        "low \(PriceFormatter.format(low))  high \(PriceFormatter.format(high))"
      }
    }
    return PriceTrendViewState(
      sinceLastTick: history.changeSinceLastTick.map { change($0, label: "since last tick") },
      sinceStart: history.changeSinceStart.map { change($0, label: "since start") },
      recentValues: history.recent,
      rangeText: range)
  }

  private func state(showing quote: PriceQuote?, stale: Bool, failure: String?) -> PriceViewState {
    let timestampText = quote.map { timestamps.format($0.timestamp) } ?? Self.placeholder
    let source = quote?.source.displayName
    return PriceViewState(
      priceText: quote.map { PriceFormatter.format($0.value) } ?? Self.placeholder,
      timestampText: timestampText,
      lastUpdatedText: "Last updated \(timestampText)",
      sourceLineText: source.map { "Last updated \(timestampText) from \($0)" },
      shortSourceLineText: source.map { "Updated \(timestampText) · \($0)" },
      bannerText: stale ? "\(Self.bannerPrefix) \(timestampText)" : nil,
      sourceName: source,
      pairText: "BTC/\(quote?.currency ?? "USD")",
      accessibilityLabel: quote.map {
        "Bitcoin price \(SpokenPrice.text($0.value)), last updated \(timestampText)"
      } ?? "Bitcoin price unavailable",
      isStale: stale,
      record: PriceRecord(
        timestamp: quote.map { ISO8601Timestamp.format($0.timestamp) },
        price: quote.map { $0.value.plainText },
        currency: quote?.currency ?? "USD",
        source: quote?.source.id,
        stale: stale,
        error: stale ? failure ?? "update failed" : nil),
      quote: quote,
      failureReason: failure)
  }

  /// `▲ +$12.34 (+0.02%)`, `▼ -$5.00 (-0.01%)` or `• unchanged`.
  private func change(_ change: PriceChange, label: String) -> PriceTrendViewState.Change {
    let text: String
    switch change.direction {
    case .unchanged:
      text = "• unchanged"
    case .up, .down:
      let sign = change.direction == .up ? "+" : "-"
      let arrow = change.direction == .up ? "▲" : "▼"
      let amount = PriceFormatter.format(change.amount.magnitude)
      // PriceFormatter gives two decimals and grouping; the percentage drops its dollar sign.
      let percent = PriceFormatter.format(change.percent.magnitude).dropFirst()
      text = "\(arrow) \(sign)\(amount) (\(sign)\(percent)%)"
    }
    return PriceTrendViewState.Change(text: text, label: label, direction: change.direction)
  }
}
