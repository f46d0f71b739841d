#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A rule that fired on a tick: what crossed, which way, and the quote that crossed it.
public struct PriceAlert: Equatable, Sendable {
  public enum Direction: String, Equatable, Sendable {
    case up, down
  }

  public let rule: AlertRule
  public let direction: Direction
  /// The quote that fired the rule (its value, currency, time and source).
  public let quote: PriceQuote
  /// What the price was measured against: the threshold of `above`/`below`, and for `move` the
  /// lowest (up) or highest (down) price seen in the window.
  public let reference: Decimal

  public init(rule: AlertRule, direction: Direction, quote: PriceQuote, reference: Decimal) {
    self.rule = rule
    self.direction = direction
    self.quote = quote
    self.reference = reference
  }
}
