import BTCPriceCore

/// The English name of each supported currency, for the app's currency picker.
public enum CurrencyName {
  public static func text(for currency: Currency) -> String {
    switch currency {
    case .usd: return "US dollar"
    case .eur: return "Euro"
    case .gbp: return "British pound"
    case .jpy: return "Japanese yen"
    case .cad: return "Canadian dollar"
    case .aud: return "Australian dollar"
    case .chf: return "Swiss franc"
    default: return currency.code
    }
  }
}
