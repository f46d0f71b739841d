import BTCPriceCore
import Foundation

extension PriceChange {
  /// `▲` for a rise, `▼` for a fall, `•` otherwise.
  public var arrow: String {
    switch direction {
    case .up: "▲"
    case .down: "▼"
    case .unchanged: "•"
    }
  }

  /// The amount with its sign and the currency's symbol: `+€12.34`, `-¥1,200`, `$0.00`.
  public func amountText(in currency: Currency) -> String {
    PriceFormatter.formatChange(amount, currency: currency)
  }

  /// The percentage with its sign: `+0.02%`, `-0.01%`, `0.00%`.
  public var percentText: String {
    PriceFormatter.formatPercentChange(percent, direction: amount)
  }
}
