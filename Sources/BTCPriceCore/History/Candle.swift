#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One period of trading, as an exchange reports it: when it started, and its first, highest,
/// lowest and last price, exact (`Decimal` from the payload's text, never through `Double`).
///
/// Only possible candles exist: every price above zero, the low at most the high, the open and
/// the close between them. An exchange that says otherwise is wrong about that period, and a chart
/// drawn from it would be too, so ``init(start:open:high:low:close:)`` refuses it.
public struct Candle: Hashable, Sendable {
  public let start: Date
  public let open: Decimal
  public let high: Decimal
  public let low: Decimal
  public let close: Decimal

  public init(start: Date, open: Decimal, high: Decimal, low: Decimal, close: Decimal)
    throws(CandleError)
  {
    for (field, value) in [("open", open), ("high", high), ("low", low), ("close", close)]
    where value <= 0 {
      throw .notPositive(field: field, value: value, start: start)
    }
    guard low <= high else { throw .highBelowLow(high: high, low: low, start: start) }
    guard low <= open, open <= high else {
      throw .outsideRange(field: "open", value: open, low: low, high: high, start: start)
    }
    guard low <= close, close <= high else {
      throw .outsideRange(field: "close", value: close, low: low, high: high, start: start)
    }
    self.start = start
    self.open = open
    self.high = high
    self.low = low
    self.close = close
  }

  /// This candle with a later trade at `price`: the close moves there, the high and low widen to
  /// take it in. A valid candle stays valid: a price that is not above zero is no trade, and
  /// leaves it as it is.
  public func including(_ price: Decimal) -> Candle {
    guard price > 0 else { return self }
    return Candle(
      unchecked: start, open: open, high: max(high, price), low: min(low, price), close: price)
  }

  /// A candle that starts with one trade at `price`.
  static func opening(at start: Date, price: Decimal) -> Candle {
    Candle(unchecked: start, open: price, high: price, low: price, close: price)
  }

  private init(unchecked start: Date, open: Decimal, high: Decimal, low: Decimal, close: Decimal) {
    self.start = start
    self.open = open
    self.high = high
    self.low = low
    self.close = close
  }
}
