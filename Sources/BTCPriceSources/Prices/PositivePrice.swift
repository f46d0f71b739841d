import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The validation every mapper applies to a price's literal text.
///
/// A price sent as a JSON string is read in the plain form every exchange writes its strings in
/// (`"68901.23000000"`, `"73285"`): no exponent, so `"7.419271e-4"` is no price. A price sent as
/// a JSON number (CryptoCompare's `PRICE`, Kraken's v2 `last`) is read in JSON's own grammar,
/// exponent included, as the parser checked it.
enum PositivePrice {
  /// The price in a JSON string's text.
  static func parse(string text: String) throws(PriceSourceError) -> Decimal {
    try parse(text, grammar: .plain)
  }

  /// The price in a JSON number's literal text.
  static func parse(number text: String) throws(PriceSourceError) -> Decimal {
    try parse(text, grammar: .json)
  }

  private static func parse(_ text: String, grammar: ExactDecimal.Grammar)
    throws(PriceSourceError) -> Decimal
  {
    guard let value = ExactDecimal.parse(text, grammar: grammar) else {
      throw .invalidData("price \"\(UntrustedText.excerpt(text))\" is not a decimal number")
    }
    guard value > 0 else {
      throw .invalidData("price \(UntrustedText.excerpt(text)) is not positive")
    }
    return value
  }
}
