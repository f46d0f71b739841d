#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Whether two fresh prices from different exchanges tell the same story, and which price wins
/// when they do not.
///
/// The bound is 2 % of the lower price. USDT against USD (Binance against the others) normally
/// differs by well under 1 %, and two exchanges' last trades by far less; a price ten times off,
/// an answer of 1 or a decimal point in the wrong place is 90 % or more off. 2 % leaves room for a
/// stablecoin wobble and a fast market without letting any of those through.
public struct CrossCheck: Equatable, Sendable {
  /// The largest difference, as a fraction of the lower price, that two sources may show.
  public let tolerance: Decimal

  public init(tolerance: Decimal = Decimal(string: "0.02")!) {
    self.tolerance = tolerance
  }

  /// Whether `a` and `b` agree within the tolerance: their difference is at most the tolerance
  /// times the lower price. Multiplied rather than divided: exact for every price (a quotient
  /// rounds to 38 digits), and cheaper on every streaming tick (docs/PERFORMANCE.md, "What we
  /// own in a tick").
  public func agree(_ a: Decimal, _ b: Decimal) -> Bool {
    let (low, high) = a < b ? (a, b) : (b, a)
    guard low > 0 else { return false }
    return high - low <= low * tolerance
  }

  /// The price to show of `first` (the higher-priority source) and `second`, settled by `third`
  /// when they disagree. Nil when they disagree and there is no referee that sides with one of
  /// them: the caller must not show either alone.
  public func settle(
    _ first: PriceQuote, _ second: PriceQuote, referee third: PriceQuote?
  ) -> CrossCheckOutcome {
    if agree(first.value, second.value) { return .agreed(first, with: second.source) }
    guard let third else { return .unsettled(first, second) }
    if agree(first.value, third.value) {
      return .settled(first, rejected: second, referee: third.source)
    }
    if agree(second.value, third.value) {
      return .settled(second, rejected: first, referee: third.source)
    }
    return .unsettled(first, second)
  }
}

/// What a cross-check decided for one tick.
public enum CrossCheckOutcome: Equatable, Sendable {
  /// The two sources agree; the first one's price is shown.
  case agreed(PriceQuote, with: PriceSource)
  /// They disagreed; the referee sided with the shown quote, and `rejected` was not shown.
  case settled(PriceQuote, rejected: PriceQuote, referee: PriceSource)
  /// They disagreed and no referee sided with either.
  case unsettled(PriceQuote, PriceQuote)

  /// The quote that was not shown because two other sources contradicted it.
  public var rejected: PriceQuote? {
    if case .settled(_, let rejected, _) = self { return rejected }
    return nil
  }
}
