import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything a UI shows about the price, already worded and formatted. Views only lay it out.
public struct PriceViewState: Equatable, Sendable {
  /// `$68,901.23`, or `-` when no value is known.
  public let priceText: String
  /// When the shown value was received, or `-` when no value is known.
  public let timestampText: String
  /// `Last updated Nov 22, 14:03:05`, or `Last updated -`.
  public let lastUpdatedText: String
  /// `Last updated Nov 22, 14:03:05 from Binance`; nil when no value is known.
  public let sourceLineText: String?
  /// The same, shorter, for narrow screens: `Updated Nov 22, 14:03:05 · Binance`.
  public let shortSourceLineText: String?
  /// `Failed to update value. Displaying last updated value from <timestamp>` while the value is
  /// stale; `nil` when the last tick succeeded.
  public let bannerText: String?
  /// Who delivered the shown value, e.g. `Binance`.
  public let sourceName: String?
  /// The pair the price is for: `BTC/USD`.
  public let pairText: String
  /// What a screen reader says for the price and its time, in words that do not depend on the
  /// locale: `Bitcoin price 68,901 dollars 23 cents, last updated Nov 22, 14:03`.
  public let accessibilityLabel: String
  /// True when the last tick failed and an older value (or none) is shown.
  public let isStale: Bool
  /// The machine-readable values, for `--json` and the web API.
  public var record: PriceRecord
  /// The shown quote itself, for views that compute with the value (movement, sparklines); they
  /// never format it.
  public let quote: PriceQuote?
  /// Why the last tick failed, for logs and `--json`.
  public let failureReason: String?
  /// The alerts this tick fired; nil on every other tick. Set by the front end from
  /// ``PricePresenter/presentAlerts(_:)``.
  public var alert: AlertViewState? = nil
  /// `▲ +$1,140.00 (+1.68%)` `in 24 hours`: the shown price against the price 24 hours before
  /// it, from the price history; nil when the history cannot say (never a zero). Set by
  /// ``PricePresenter/present(_:dayHistory:)``.
  public var change24h: PriceTrendViewState.Change? = nil
  /// The same in words VoiceOver says the same in every locale: `up 1,140 dollars since a day
  /// ago, 1.68 percent`; nil with ``change24h``.
  public var change24hAccessibilityLabel: String? = nil
  /// `▲ +$210.00 (+0.31%)` `in 1 hour`, and the same in 24 hours, 7 days, 30 days: each period
  /// the history can say. Set by ``PricePresenter/present(_:histories:)``.
  public var changes: [ChangePeriod: PriceTrendViewState.Change] = [:]
  /// What `--holdings` is worth at the shown price; nil without holdings or a price, and in
  /// every view but the terminal's (``PricePresenter``'s `holdings`).
  public var holdings: HoldingsViewState? = nil
}

extension PriceViewState {
  /// The currency the shown price is in.
  private var shownCurrency: Currency { Currency.named(record.currency) ?? .usd }

  /// `$68,901`: the shown price rounded half up to a whole unit; `-` when none is known.
  public var wholePriceText: String {
    quote.map { PriceFormatter.formatWhole($0.value, currency: shownCurrency) }
      ?? PricePresenter.placeholder
  }

  /// `$68.9K`: the shown price in three significant digits; `-` when none is known.
  public var shortPriceText: String {
    quote.map { PriceFormatter.formatShort($0.value, currency: shownCurrency) }
      ?? PricePresenter.placeholder
  }

  /// `$1 = 1,451 sats`: what one unit of the currency buys at the shown price; nil when no
  /// price is known.
  public var satsText: String? {
    record.satsPerUnit.flatMap(UInt64.init).map {
      "\(shownCurrency.symbol)1 = \(PriceFormatter.number(Decimal($0), decimals: 0)) sats"
    }
  }
}
