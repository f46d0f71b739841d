import BTCPriceCore

/// Everything a UI shows about the price, already worded and formatted.
public struct PriceViewState: Equatable, Sendable {
  /// `$68,901.23`, or `-` when no value is known.
  public let priceText: String
  /// When the shown value was received, or `-` when no value is known.
  public let timestampText: String
  /// `Failed to update value. Displaying last updated value from <timestamp>` while the value is
  /// stale; `nil` when the last tick succeeded.
  public let bannerText: String?
  /// Who delivered the shown value, e.g. `Binance`.
  public let sourceName: String?
  /// True when the last tick failed and an older value (or none) is shown.
  public let isStale: Bool
  /// The shown quote itself, for renderers that emit machine-readable values.
  public let quote: PriceQuote?
  /// Why the last tick failed, for logs and `--json`.
  public let failureReason: String?

  public init(
    priceText: String, timestampText: String, bannerText: String?, sourceName: String?,
    isStale: Bool, quote: PriceQuote?, failureReason: String?
  ) {
    self.priceText = priceText
    self.timestampText = timestampText
    self.bannerText = bannerText
    self.sourceName = sourceName
    self.isStale = isStale
    self.quote = quote
    self.failureReason = failureReason
  }
}
