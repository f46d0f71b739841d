#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why candles from an exchange are not drawn: numbers no trading can produce, or a series whose
/// order cannot be trusted. Each says which candle, by its start in seconds since 1970, so a
/// `--verbose` line or a test names it.
public enum CandleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A price at or below zero.
  case notPositive(field: String, value: Decimal, start: Date)
  /// The highest price below the lowest.
  case highBelowLow(high: Decimal, low: Decimal, start: Date)
  /// The open or the close outside the low and the high.
  case outsideRange(field: String, value: Decimal, low: Decimal, high: Decimal, start: Date)
  /// A candle that starts before the one it follows.
  case outOfOrder(start: Date, after: Date)
  /// Two candles that start at the same time.
  case duplicateTime(Date)
  /// A candle that starts less than a period after the one before: they overlap.
  case overlapping(start: Date, after: Date, period: Duration)
  /// No candle at all.
  case empty

  public var description: String {
    switch self {
    case .notPositive(let field, let value, let start):
      return "candle at \(Self.seconds(start)): \(field) \(value) is not positive"
    case .highBelowLow(let high, let low, let start):
      return "candle at \(Self.seconds(start)): high \(high) is below low \(low)"
    case .outsideRange(let field, let value, let low, let high, let start):
      return "candle at \(Self.seconds(start)): \(field) \(value) is outside low \(low) and "
        + "high \(high)"
    case .outOfOrder(let start, let after):
      return "candle at \(Self.seconds(start)) comes after the one at \(Self.seconds(after))"
    case .duplicateTime(let start):
      return "two candles start at \(Self.seconds(start))"
    case .overlapping(let start, let after, let period):
      return "candle at \(Self.seconds(start)) starts less than \(period.humanText) after the "
        + "one at \(Self.seconds(after))"
    case .empty:
      return "no candles"
    }
  }

  private static func seconds(_ date: Date) -> String {
    String(Int64(date.timeIntervalSince1970.rounded(.down)))
  }
}
