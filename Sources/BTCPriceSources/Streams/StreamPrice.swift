import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The checks every stream mapper applies to a price's literal text.
enum StreamPrice {
  /// The trade at the price in a JSON string (``PositivePrice/parse(string:)``).
  static func parse(string text: String?) throws(PriceStreamError) -> PriceStreamMessage {
    guard let text else { throw .invalidMessage("no price text") }
    return try trade { () throws(PriceSourceError) in try PositivePrice.parse(string: text) }
  }

  /// The trade at the price in a JSON number (``PositivePrice/parse(number:)``).
  static func parse(number text: String?) throws(PriceStreamError) -> PriceStreamMessage {
    guard let text else { throw .invalidMessage("no price text") }
    return try trade { () throws(PriceSourceError) in try PositivePrice.parse(number: text) }
  }

  private static func trade(_ price: () throws(PriceSourceError) -> Decimal)
    throws(PriceStreamError) -> PriceStreamMessage
  {
    do {
      return .trade(try price())
    } catch {
      throw .invalidMessage(error.description)
    }
  }

  /// The symbol of a message must be ours: a trade of another pair is never our price.
  static func expect(_ symbol: String?, _ market: String) throws(PriceStreamError) {
    guard let symbol else { throw .invalidMessage("no symbol") }
    guard symbol.lowercased() == market.lowercased() else {
      throw .invalidMessage("symbol \(UntrustedText.excerpt(symbol)) is not \(market)")
    }
  }

  /// A JSON text for a subscription message, with `market` in it as a JSON string.
  static func quoted(_ market: String) -> String {
    "\"" + market.filter { $0 != "\"" && $0 != "\\" } + "\""
  }
}
