#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the price moved, already worded: what the live panel shows under the price.
public struct PriceTrendViewState: Equatable, Sendable {
  /// One change, e.g. `▲ +$12.34 (+0.02%)` `since last tick`, whole and in parts.
  public struct Change: Equatable, Sendable {
    /// `▲ +$12.34 (+0.02%)`, `▼ -$5.00 (-0.01%)` or `• unchanged`.
    public let text: String
    /// What it is measured from: `since last tick`, `since start`.
    public let label: String
    public let direction: PriceChange.Direction
    /// `▲`, `▼` or `•`.
    public let arrow: String
    /// The amount with its sign and the currency's symbol: `+€12.34`, `-¥1,200`, `$0.00`.
    public let amountText: String
    /// The percentage with its sign: `+0.02%`, `-0.01%`, `0.00%`.
    public let percentText: String
  }

  public let sinceLastTick: Change?
  public let sinceStart: Change?
  /// The fresh values of this run, oldest first, for a sparkline.
  public let recentValues: [Decimal]
  /// `low $68,800.00  high $68,950.00` over ``recentValues``; nil while there are none.
  public let rangeText: String?
}
