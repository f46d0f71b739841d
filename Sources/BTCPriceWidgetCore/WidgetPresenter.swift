import BTCPriceCore
import BTCPriceFeature

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Words the widget's content for the moment an entry is shown: the price, when it was known,
/// and whether it is too old to trust.
public struct WidgetPresenter: Sendable {
  /// A price older than this is shown as stale: twice the usual reload interval, so one reload
  /// the system skips does not yet mark it, and two do.
  public static let staleAfter: Duration = .seconds(30 * 60)

  private let timestamps: TimestampFormatter
  private let currency: Currency

  /// - Parameters:
  ///   - timeZone: the user's zone, asked at every entry, for `14:03` and `Nov 22`.
  ///   - currency: the currency chosen in the app, for the pair while no price is known.
  public init(
    currency: Currency, timeZone: @escaping @Sendable () -> TimeZone = { .autoupdatingCurrent }
  ) {
    self.timestamps = TimestampFormatter(precision: .minutes, timeZone: timeZone)
    self.currency = currency
  }

  /// The content of an entry shown at `date`.
  ///
  /// - Parameters:
  ///   - quote: the newest price known (fetched now, or from the app's cache).
  ///   - fetchFailed: the reload that made this entry could not get a fresh price.
  ///   - dayHistory: the day's price history the app keeps, for the 24-hour change.
  public func present(
    _ quote: PriceQuote?, fetchFailed: Bool, at date: Date, dayHistory: CandleSeries? = nil
  ) -> WidgetPriceContent {
    var content = presentPrice(quote, fetchFailed: fetchFailed, at: date)
    guard let quote, let change = TwentyFourHourChange.of(quote, in: dayHistory) else {
      return content
    }
    let moved = PriceChange(from: change.reference, to: change.current)
    let currency = Currency.named(quote.currency) ?? self.currency
    let worded = PricePresenter(timestamps: timestamps, currency: currency).presentChange(moved)
    content.change24hText =
      moved.direction == .unchanged
      ? "\(worded.arrow) unchanged in 24h" : "\(worded.arrow) \(worded.percentText) in 24h"
    content.change24hRises = moved.direction == .unchanged ? nil : moved.direction == .up
    content.accessibilityLabel +=
      ", "
      + PricePresenter(timestamps: timestamps, currency: currency).presentSpokenChange24h(moved)
    return content
  }

  private func presentPrice(_ quote: PriceQuote?, fetchFailed: Bool, at date: Date)
    -> WidgetPriceContent
  {
    let currency = quote.flatMap { Currency.named($0.currency) } ?? self.currency
    let pair = "BTC/\(currency.code)"
    guard let quote else {
      return WidgetPriceContent(
        pairText: pair, priceText: PricePresenter.placeholder, asOfText: "no price yet",
        compactPriceText: PricePresenter.placeholder, timeText: PricePresenter.placeholder,
        inlineText: "BTC price unavailable", isStale: true,
        accessibilityLabel: "Bitcoin price unavailable")
    }
    let stale = fetchFailed || isTooOld(quote, at: date)
    let (day, time) = parts(of: quote.timestamp)
    let sameDay = parts(of: date).day == day
    let when = sameDay ? time : "\(day), \(time)"
    let whole = currency.symbol + PriceFormatter.number(quote.value, decimals: 0)
    let spoken = SpokenPrice.text(quote.value, currency: currency)
    return WidgetPriceContent(
      pairText: pair,
      priceText: PriceFormatter.format(quote.value, currency: currency),
      asOfText: stale ? "not updated since \(when)" : "as of \(when)",
      compactPriceText: Self.compact(quote.value),
      timeText: sameDay ? time : day,
      inlineText: stale ? "BTC \(whole) · old, \(when)" : "BTC \(whole) · \(when)",
      isStale: stale,
      accessibilityLabel: "Bitcoin price \(spoken), as of \(when)"
        + (stale ? ", \(PricePresenter.spokenStaleNotice)" : ""))
  }

  /// True once `quote` is older than ``staleAfter`` at `date`.
  public func isTooOld(_ quote: PriceQuote, at date: Date) -> Bool {
    date.timeIntervalSince(quote.timestamp) >= Self.staleAfterSeconds
  }

  static var staleAfterSeconds: TimeInterval {
    TimeInterval(staleAfter.components.seconds)
  }

  /// `68.9K`, `10.5M`, `950`: three significant figures or so, which fit the circular accessory.
  static func compact(_ value: Decimal) -> String {
    if value >= 1_000_000 {
      return PriceFormatter.number(value / 1_000_000, decimals: 1) + "M"
    }
    if value >= 1_000 {
      return PriceFormatter.number(value / 1_000, decimals: 1) + "K"
    }
    return PriceFormatter.number(value, decimals: 0)
  }

  /// `("Nov 22", "14:03")` of the apps' `Nov 22, 14:03`.
  private func parts(of date: Date) -> (day: String, time: String) {
    let text = timestamps.format(date)
    let pieces = text.split(separator: ",", maxSplits: 1)
    guard pieces.count == 2 else { return (text, text) }
    return (String(pieces[0]), String(pieces[1]).trimmingWhitespace)
  }
}
