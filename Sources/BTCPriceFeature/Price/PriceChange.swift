#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A price move: its amount, its percentage of the old value, and its direction.
public struct PriceChange: Equatable, Sendable {
  public enum Direction: Sendable {
    case up, down, unchanged
  }

  public let amount: Decimal
  /// Percent of the starting value, rounded to two decimals.
  public let percent: Decimal

  public init(from old: Decimal, to new: Decimal) {
    amount = new - old
    let ratio = old == 0 ? Decimal(0) : amount / old * 100
    percent = ratio.roundedHalfUp(scale: 2)
  }

  public var direction: Direction {
    amount > 0 ? .up : amount < 0 ? .down : .unchanged
  }
}
