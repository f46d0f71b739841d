#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Words for a USD amount that screen readers say the same way in every locale:
/// `68,901 dollars 23 cents`.
///
/// VoiceOver reads `$68,901.23` according to the reader's own language and settings, sometimes
/// digit by digit; the app speaks English, so its words do not depend on that.
public enum SpokenPrice {
  public static func text(_ value: Decimal) -> String {
    if let amount = MinorUnitAmount(value, decimals: 2) {
      return words(negative: amount.negative, dollars: amount.groupedWhole, cents: amount.fraction)
    }
    let formatted = PriceFormatter.format(value)
    let negative = formatted.hasPrefix("-")
    let digits = formatted.drop { $0 == "-" || $0 == "$" }
    let parts = digits.split(separator: ".", maxSplits: 1)
    let dollars = String(parts[0])
    let cents = Int(parts.count > 1 ? parts[1] : "") ?? 0
    return words(negative: negative, dollars: dollars, cents: cents)
  }

  private static func words(negative: Bool, dollars: String, cents: Int) -> String {
    var words = dollars + (dollars == "1" ? " dollar" : " dollars")
    if cents > 0 { words += " " + String(cents) + (cents == 1 ? " cent" : " cents") }
    return negative ? "minus " + words : words
  }
}
