#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A fiat currency the price can be shown in: its ISO 4217 code, the symbol written before an
/// amount, and its ISO 4217 minor units (2 decimals for most, none for the yen).
///
/// A closed set: each one needs the sources' pair names for it (each `PriceSourceDefinition`'s
/// `markets` in BTCPriceSources), so a currency is added by adding it here and there.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
  /// `USD`, `EUR`, …
  public let code: String
  /// Written before the digits: `$68,901.23`, `€68,901.23`, `CHF 68,901.23`.
  public let symbol: String
  /// Decimals shown and rounded to: 2 for `$68,901.23`, 0 for `¥10,512,345`.
  public let minorUnits: Int

  private init(code: String, symbol: String, minorUnits: Int) {
    self.code = code
    self.symbol = symbol
    self.minorUnits = minorUnits
  }

  public var description: String { code }

  public static let usd = Currency(code: "USD", symbol: "$", minorUnits: 2)
  public static let eur = Currency(code: "EUR", symbol: "€", minorUnits: 2)
  public static let gbp = Currency(code: "GBP", symbol: "£", minorUnits: 2)
  public static let jpy = Currency(code: "JPY", symbol: "¥", minorUnits: 0)
  // The other dollars carry their country so that they never pass for US dollars.
  public static let cad = Currency(code: "CAD", symbol: "CA$", minorUnits: 2)
  public static let aud = Currency(code: "AUD", symbol: "A$", minorUnits: 2)
  // The franc has no sign of its own; the code is written before the amount, with a space.
  public static let chf = Currency(code: "CHF", symbol: "CHF ", minorUnits: 2)

  /// Every currency this build can show, in the order `--help` lists them.
  public static let supported: [Currency] = [.usd, .eur, .gbp, .jpy, .cad, .aud, .chf]

  /// The supported currency with this code, compared case-insensitively.
  public static func named(_ code: String) -> Currency? {
    let wanted = code.uppercased()
    return supported.first { $0.code == wanted }
  }

  /// Reads a `--currency` value: `eur`, `EUR` and ` Eur ` all give ``eur``.
  public static func parse(_ text: String) throws(UnknownCurrency) -> Currency {
    let trimmed = text.trimmingWhitespace
    guard let currency = named(trimmed) else { throw UnknownCurrency(text: trimmed) }
    return currency
  }

  /// A currency code this build does not support.
  public struct UnknownCurrency: Error, Equatable, CustomStringConvertible {
    /// What was asked for, as given (without surrounding spaces).
    public let text: String

    public var description: String {
      let shown = text.count > 20 ? String(text.prefix(20)) + "…" : text
      let known = Currency.supported.map(\.code).joined(separator: ", ")
      return "unknown currency \"\(shown)\"; supported: \(known)"
    }
  }
}
