import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The checks every stream mapper applies to a price's literal text.
enum StreamPrice {
  static func parse(_ text: String?) throws(PriceStreamError) -> PriceStreamMessage {
    guard let text else { throw .invalidMessage("no price text") }
    do {
      return .trade(try PositivePrice.parse(text))
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
