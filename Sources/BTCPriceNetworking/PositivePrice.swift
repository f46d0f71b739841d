import BTCPriceCore
import Foundation

/// The validation every mapper applies to a price's literal text.
enum PositivePrice {
  static func parse(_ text: String) throws(PriceSourceError) -> Decimal {
    guard let value = ExactDecimal.parse(text) else {
      throw .invalidData("price \"\(excerpt(text))\" is not a decimal number")
    }
    guard value > 0 else { throw .invalidData("price \(excerpt(text)) is not positive") }
    return value
  }

  /// Keeps hostile text short and on one line before it goes into an error message.
  static func excerpt(_ text: String) -> String {
    let oneLine = text.unicodeScalars.map {
      $0.properties.generalCategory == .control ? " " : Character($0)
    }
    let clipped = String(oneLine.prefix(60))
    return oneLine.count > 60 ? clipped + "…" : clipped
  }
}
