#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Formats a USD amount as `$68,901.23`, the same in every locale.
///
/// Foundation's currency styles follow the process locale (`LANG=C` gives `US$114,721.34`), so
/// this formats the digits itself: rounded to cents half-up (`0.005` → `$0.01`), comma grouping,
/// always two decimals.
public enum PriceFormatter {
  public static func format(_ value: Decimal) -> String {
    if let amount = Cents(value) {
      return (amount.negative ? "-$" : "$") + amount.groupedDollars + "." + amount.twoDigitCents
    }
    return formatFromDigits(value)
  }

  /// The same format for amounts over 64 bits of cents, from the digits of the rounded value.
  static func formatFromDigits(_ value: Decimal) -> String {
    let text = value.roundedHalfUp(scale: 2).plainText
    let negative = text.hasPrefix("-")
    let digits = negative ? text.dropFirst() : text[...]
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let cents = fraction + String(repeating: "0", count: max(0, 2 - fraction.utf8.count))
    return (negative ? "-$" : "$") + grouped(integer) + "." + cents
  }

  private static func grouped(_ integer: String) -> String {
    let digits = integer.utf8
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
      result.unicodeScalars.append(Unicode.Scalar(digit))
    }
    return result
  }
}
