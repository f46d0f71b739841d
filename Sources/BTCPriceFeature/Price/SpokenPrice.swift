import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Words for an amount that screen readers say the same way in every locale:
/// `68,901 dollars 23 cents`, `63,250 euros 10 cents`, `10,512,345 yen`.
///
/// VoiceOver reads `$68,901.23` according to the reader's own language and settings, sometimes
/// digit by digit, and `CA$` or `CHF ` letter by letter; the app speaks English, so its words do
/// not depend on that.
public enum SpokenPrice {
  public static func text(_ value: Decimal, currency: Currency = .usd) -> String {
    let names = Names(currency)
    if let amount = MinorUnitAmount(value, decimals: currency.minorUnits) {
      return words(
        negative: amount.negative, whole: amount.groupedWhole, minor: amount.fraction, names)
    }
    let formatted = PriceFormatter.format(value, currency: currency)
    let negative = formatted.hasPrefix("-")
    let digits = formatted.drop { !$0.isNumber }
    let parts = digits.split(separator: ".", maxSplits: 1)
    let whole = String(parts.first ?? "0")
    let minor = Int(parts.count > 1 ? parts[1] : "") ?? 0
    return words(negative: negative, whole: whole, minor: minor, names)
  }

  /// The spoken names of a currency's units: singular and plural, whole and minor.
  private struct Names {
    let one: String
    let many: String
    let minorOne: String
    let minorMany: String

    init(_ currency: Currency) {
      switch currency {
      case .eur: (one, many, minorOne, minorMany) = ("euro", "euros", "cent", "cents")
      case .gbp: (one, many, minorOne, minorMany) = ("pound", "pounds", "penny", "pence")
      case .jpy: (one, many, minorOne, minorMany) = ("yen", "yen", "", "")
      case .cad:
        (one, many, minorOne, minorMany) = (
          "Canadian dollar", "Canadian dollars", "cent", "cents"
        )
      case .aud:
        (one, many, minorOne, minorMany) = (
          "Australian dollar", "Australian dollars", "cent", "cents"
        )
      case .chf:
        (one, many, minorOne, minorMany) = ("Swiss franc", "Swiss francs", "centime", "centimes")
      default: (one, many, minorOne, minorMany) = ("dollar", "dollars", "cent", "cents")
      }
    }
  }

  private static func words(negative: Bool, whole: String, minor: Int, _ names: Names) -> String {
    var words = whole + " " + (whole == "1" ? names.one : names.many)
    if minor > 0 {
      words += " " + String(minor) + " " + (minor == 1 ? names.minorOne : names.minorMany)
    }
    return negative ? "minus " + words : words
  }
}
