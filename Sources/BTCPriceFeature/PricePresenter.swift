import BTCPriceCore

/// Turns a tick's ``PriceUpdate`` into the ``PriceViewState`` every UI renders.
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
      return state(showing: quote, banner: nil, failure: nil)
    case .stale(let lastKnown, let failure):
      let timestampText = lastKnown.map { timestamps.format($0.timestamp) } ?? Self.placeholder
      return state(
        showing: lastKnown, banner: "\(Self.bannerPrefix) \(timestampText)",
        failure: failure.description)
    }
  }

  /// The state before the first tick: the cached value (no banner), or placeholders.
  public func presentRestored(_ quote: PriceQuote?) -> PriceViewState {
    state(showing: quote, banner: nil, failure: nil)
  }

  private func state(showing quote: PriceQuote?, banner: String?, failure: String?)
    -> PriceViewState
  {
    PriceViewState(
      priceText: quote.map { PriceFormatter.format($0.value) } ?? Self.placeholder,
      timestampText: quote.map { timestamps.format($0.timestamp) } ?? Self.placeholder,
      bannerText: banner,
      sourceName: quote?.source.displayName,
      isStale: banner != nil,
      quote: quote,
      failureReason: failure)
  }
}
