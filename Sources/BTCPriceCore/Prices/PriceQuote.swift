#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One BTC price observation: the exact value, when we received it and who delivered it.
public struct PriceQuote: Equatable, Hashable, Sendable {
  public let value: Decimal
  public let currency: String
  public let timestamp: Date
  public let source: PriceSource

  public init(value: Decimal, currency: String = "USD", timestamp: Date, source: PriceSource) {
    self.value = value
    self.currency = currency
    self.timestamp = timestamp
    self.source = source
  }
}
