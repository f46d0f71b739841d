import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The validation every mapper applies to a price's literal text.
enum PositivePrice {
  static func parse(_ text: String) throws(PriceSourceError) -> Decimal {
    guard let value = ExactDecimal.parse(text) else {
      throw .invalidData("price \"\(UntrustedText.excerpt(text))\" is not a decimal number")
    }
    guard value > 0 else {
      throw .invalidData("price \(UntrustedText.excerpt(text)) is not positive")
    }
    return value
  }
}
