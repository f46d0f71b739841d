import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Formats an amount of money as `$68,901.23`, `€68,901.23` or `¥10,512,345`, the same in every
/// locale.
///
/// Foundation's currency styles follow the process locale (`LANG=C` gives `US$114,721.34`), so
/// this formats the digits itself: rounded half-up to the currency's ISO 4217 minor units
/// (`0.005` → `$0.01`), comma grouping, a point before the decimals, the symbol in front.
public enum PriceFormatter {
  /// A US dollar amount: `$68,901.23`.
  public static func format(_ value: Decimal) -> String {
    format(value, currency: .usd)
  }

  /// `€68,901.23`, `¥10,512,345`, `-£5.00`.
  public static func format(_ value: Decimal, currency: Currency) -> String {
    let (negative, digits) = rounded(value, decimals: currency.minorUnits)
    return (negative ? "-" : "") + currency.symbol + digits
  }

  /// The amount rounded half up to a whole unit, for bars where width is scarce: `$68,901`,
  /// `¥10,512,345`.
  public static func formatWhole(_ value: Decimal, currency: Currency) -> String {
    let (negative, digits) = rounded(value, decimals: 0)
    return (negative ? "-" : "") + currency.symbol + digits
  }

  /// The amount in three significant digits with K, M, B or T, rounded half up: `$68.9K`,
  /// `€1.24M`, `¥10.3M`, `$1.00M` for 999,999.99 (a carry moves to the next letter). Below
  /// 1,000 the same three digits without a letter (`$689`, `$12.3`); below 1 the usual form.
  public static func formatShort(_ value: Decimal, currency: Currency) -> String {
    let magnitude = value.magnitude
    guard magnitude >= 1, let digits = wholeDigits(of: magnitude) else {
      return format(value, currency: currency)
    }
    // The amount as m × 10^k, m three digits; 999.5 rounds to 1000, which is 100 × 10^1.
    var shift = digits - 3
    var mantissa = (magnitude * power(-shift)).roundedHalfUp(scale: 0)
    if mantissa >= 1000 {
      shift += 1
      mantissa = (magnitude * power(-shift)).roundedHalfUp(scale: 0)
    }
    let letters = ["", "K", "M", "B", "T"]
    let group = min((shift + 2) / 3, letters.count - 1)
    let decimals = max(0, group * 3 - shift)
    let shown = mantissa * power(shift - group * 3)
    let sign = value < 0 ? "-" : ""
    return sign + currency.symbol + number(shown, decimals: decimals) + letters[group]
  }

  /// How many digits the whole part of `value` (at least 1) has; nil past 38.
  private static func wholeDigits(of value: Decimal) -> Int? {
    var digits = 1
    var bound = Decimal(10)
    while value >= bound {
      digits += 1
      guard digits <= 38 else { return nil }
      bound *= 10
    }
    return digits
  }

  /// 10^`exponent`, exactly.
  private static func power(_ exponent: Int) -> Decimal {
    Decimal(sign: .plus, exponent: exponent, significand: 1)
  }

  /// A change of price with the sign of its direction: `+€12.34`, `-€12.34`, `€0.00` for no
  /// change. A rise too small to show is still a rise: `+€0.00`, as its ▲ says.
  public static func formatChange(_ amount: Decimal, currency: Currency) -> String {
    let (_, digits) = rounded(amount.magnitude, decimals: currency.minorUnits)
    return sign(of: amount) + currency.symbol + digits
  }

  /// A percentage with the sign of its direction and two decimals: `+0.02%`, `-1.50%`, `0.00%`.
  public static func formatPercentChange(_ percent: Decimal, direction amount: Decimal) -> String {
    let (_, digits) = rounded(percent.magnitude, decimals: 2)
    return sign(of: amount) + digits + "%"
  }

  private static func sign(of value: Decimal) -> String {
    value > 0 ? "+" : value < 0 ? "-" : ""
  }

  /// A plain number with grouping and a fixed number of decimals: `1,234.50`, `-0.02`.
  public static func number(_ value: Decimal, decimals: Int) -> String {
    let (negative, digits) = rounded(value, decimals: decimals)
    return (negative ? "-" : "") + digits
  }

  /// The magnitude rounded half-up (away from zero) to `decimals`, grouped, and whether it is
  /// below zero after rounding (so `-0.001` is `0.00`, not `-0.00`).
  private static func rounded(_ value: Decimal, decimals: Int) -> (negative: Bool, digits: String) {
    if let amount = MinorUnitAmount(value, decimals: decimals) {
      return (amount.negative, amount.text)
    }
    // Over 64 bits of minor units, or more significant digits than 64 bits hold (a price of
    // 0.1234567890123456789012345): from the digits of the rounded value.
    let rounded = value.roundedHalfUp(scale: decimals)
    let negative = rounded < 0
    let text = (negative ? -rounded : rounded).plainText
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = grouped(String(parts[0]))
    guard decimals > 0 else { return (negative, integer) }
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    let padding = String(repeating: "0", count: max(0, decimals - fraction.utf8.count))
    return (negative, "\(integer).\(fraction)\(padding)")
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
