#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// When a price from one source alone may be shown, and when a second source must confirm it.
///
/// A price that stays within the cross-check's tolerance (2 %) of the last price shown is
/// shown at once. One that moved further is shown only once a second source agrees with it
/// (the market moved), and is passed over when a second source agrees with the last price
/// instead (the first answer was wrong: another pair, a unit slip, `7.419271e-4`). The last
/// price counts only while it is recent, at most ``window`` older than the new one: after a
/// longer gap (a cache from yesterday) the first answer is shown as it comes, since the market
/// may have moved anywhere since. docs/SOURCES.md, "Plausibility", says why these numbers.
public struct PricePlausibility: Equatable, Sendable {
  /// How far two prices may be apart and still agree (the streams' own cross-check).
  public let check: CrossCheck
  /// How old the last price may be, against the new one, and still vouch for or against it.
  public let window: Duration

  public init(
    check: CrossCheck = CrossCheck(), window: Duration = PriceDefaults.plausibilityWindow
  ) {
    self.check = check
    self.window = window
  }

  /// Whether `quote` must be confirmed by a second source before it is shown: it is more than
  /// the tolerance away from `reference`, the last price shown, which is in the same currency
  /// and at most ``window`` apart from it in time (either way: a clock set back does not make
  /// an old price recent for ever).
  public func needsConfirmation(_ quote: PriceQuote, after reference: PriceQuote?) -> Bool {
    guard let reference = self.reference(reference, for: quote) else { return false }
    return !check.agree(quote.value, reference.value)
  }

  /// `reference` when it may vouch for or against `quote`, else nil.
  public func reference(_ reference: PriceQuote?, for quote: PriceQuote) -> PriceQuote? {
    guard let reference, reference.currency == quote.currency else { return nil }
    let apart = abs(quote.timestamp.timeIntervalSince(reference.timestamp))
    return apart <= window.timeInterval ? reference : nil
  }

  /// Why `quote` was not shown: no second source confirmed its move from `reference`.
  public func unconfirmed(_ quote: PriceQuote, after reference: PriceQuote) -> PriceSourceError {
    .invalidData(
      "price \(quote.value) is more than \(check.tolerance * 100) % from the last price "
        + "\(reference.value) and no other source confirmed it")
  }

  /// Why `quote` was not shown: `shown` was, which `witness` (another source's price, or the
  /// last price) confirmed.
  public func outvoted(_ quote: PriceQuote, shown: PriceQuote, witness: String)
    -> PriceSourceError
  {
    .invalidData(
      "price \(quote.value) is more than \(check.tolerance * 100) % from \(shown.source.id)'s "
        + "\(shown.value), which \(witness) confirmed")
  }
}
