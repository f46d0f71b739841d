import Foundation

/// Formats a USD amount as `$68,901.23`, the same in every locale.
///
/// Foundation's currency styles follow the process locale (`LANG=C` gives `US$114,721.34`), so
/// this formats the digits itself: rounded to cents half-up (`0.005` → `$0.01`), comma grouping,
/// always two decimals.
public enum PriceFormatter {
  public static func format(_ value: Decimal) -> String {
    var input = value
    var rounded = Decimal()
    NSDecimalRound(&rounded, &input, 2, .plain)
    let negative = rounded < 0
    let digits = "\(negative ? -rounded : rounded)"
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = String(parts[0])
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let cents = fraction.padding(toLength: 2, withPad: "0", startingAt: 0)
    return (negative ? "-$" : "$") + grouped(integer) + "." + cents
  }

  private static func grouped(_ integer: String) -> String {
    var result = ""
    for (offset, digit) in integer.enumerated() {
      if offset > 0, (integer.count - offset) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }
}
