/// Everything the widget shows in one timeline entry, already worded for each family. The
/// widget's SwiftUI views (App/iOS/Widget) only lay these texts out.
///
/// Never a price without its time: every family that shows a price shows when it was known,
/// because WidgetKit reloads a widget a few dozen times a day at most, and an old price on the
/// Lock Screen must not pass for the current one.
public struct WidgetPriceContent: Equatable, Sendable {
  /// `BTC/USD`.
  public let pairText: String
  /// `$68,901.23`, or `-` while no price is known (systemSmall, accessoryRectangular).
  public let priceText: String
  /// `as of 14:03`, `as of Nov 22, 14:03` for an earlier day, `not updated since 14:03` when
  /// stale, `no price yet` without one.
  public let asOfText: String
  /// `68.9K`, for the circular accessory where the full price does not fit; `-` without one.
  public let compactPriceText: String
  /// `14:03`, or `Nov 22` for an earlier day, under the compact price; `-` without a price.
  public let timeText: String
  /// The one line of the inline accessory: `BTC $68,901 · 14:03`, `BTC $68,901 · old, 14:03`.
  public let inlineText: String
  /// True when the price is older than the widget's staleness limit or its last reload failed;
  /// the views then mark it (a warning symbol, the secondary colour).
  public let isStale: Bool
  /// What VoiceOver says for the whole widget, in locale-independent words.
  public var accessibilityLabel: String
  /// `▲ +1.33% in 24h`, against the price 24 hours before, from the day the app keeps; nil while
  /// that cannot say (never a zero).
  public var change24hText: String? = nil
  /// Its colour: true for a rise (green), false for a fall (red), nil when unchanged or absent
  /// (the secondary colour). A flag, so the widget's views need no other module.
  public var change24hRises: Bool? = nil

  public init(
    pairText: String, priceText: String, asOfText: String, compactPriceText: String,
    timeText: String, inlineText: String, isStale: Bool, accessibilityLabel: String
  ) {
    self.pairText = pairText
    self.priceText = priceText
    self.asOfText = asOfText
    self.compactPriceText = compactPriceText
    self.timeText = timeText
    self.inlineText = inlineText
    self.isStale = isStale
    self.accessibilityLabel = accessibilityLabel
  }
}
