#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How a price compares with the price 24 hours before it, both known: the figure every price
/// display shows beside the price. Absent (nil), never zero, when the history cannot say. The
/// same over the other periods (``of(_:over:in:)``): an hour, a week, a month.
public struct TwentyFourHourChange: Equatable, Sendable {
  /// The price 24 hours before ``currentTime``, as the history knew it.
  public let reference: Decimal
  /// When the history knew ``reference``: within ``tolerance`` of 24 hours before.
  public let referenceTime: Date
  public let current: Decimal
  public let currentTime: Date

  public init(reference: Decimal, referenceTime: Date, current: Decimal, currentTime: Date) {
    self.reference = reference
    self.referenceTime = referenceTime
    self.current = current
    self.currentTime = currentTime
  }

  /// The window: a day.
  public static let window: Duration = ChangePeriod.day.window

  /// How far from exactly 24 hours before the reference may be: 15 minutes, three of the day
  /// chart's 5-minute candles. The history knows the price at each candle's open and close, so
  /// without a gap the nearest is at most 2½ minutes away; 15 minutes lets a short gap (an
  /// exchange publishes no candle for a period without trades) pass, and keeps the figure one of
  /// 23¾ to 24¼ hours, within about 1 % of the day it claims to describe. Further off it would be
  /// another figure under the same name: the change is then absent.
  public static let tolerance: Duration = ChangePeriod.day.tolerance

  /// The change of `quote` over the 24 hours before it, from `series`; nil when there is no
  /// history, the history is in another currency, or it knew no price within ``tolerance`` of
  /// 24 hours before the quote (it does not reach back that far, or it ended before then: too
  /// old).
  public static func of(_ quote: PriceQuote, in series: CandleSeries?) -> TwentyFourHourChange? {
    of(quote, over: .day, in: series)
  }

  /// The change of `quote` over `period` (``ChangePeriod/window`` before it), from `series`,
  /// the history of the period's ``ChangePeriod/range``; nil as for the day, with the period's
  /// own ``ChangePeriod/tolerance``.
  public static func of(_ quote: PriceQuote, over period: ChangePeriod, in series: CandleSeries?)
    -> TwentyFourHourChange?
  {
    guard let series, series.currency.code == quote.currency else { return nil }
    let before = quote.timestamp.addingTimeInterval(-period.window.timeInterval)
    guard let known = series.price(near: before, within: period.tolerance) else { return nil }
    return TwentyFourHourChange(
      reference: known.price, referenceTime: known.at, current: quote.value,
      currentTime: quote.timestamp)
  }

  /// `current - reference`: above zero for a rise.
  public var amount: Decimal { current - reference }
}
