import BTCPriceCore
import Foundation

/// The currency the user chose in the app, remembered across launches and read by the widget.
///
/// Until the user chooses, the currency of their region if it is one of the seven, else US
/// dollars: a user in Zurich expects francs without looking for a setting.
public struct CurrencyPreference: @unchecked Sendable {
  // @unchecked: UserDefaults is thread-safe (Apple documents it so) but not marked Sendable in
  // every Foundation this builds with.
  private let defaults: UserDefaults
  private let regionCurrencyCode: String?

  static let key = "currency"

  /// - Parameters:
  ///   - defaults: the App Group's suite in the app and the widget (``AppGroup/defaults``).
  ///   - regionCurrencyCode: the currency of the user's region, e.g. `Locale.current.currency`.
  public init(defaults: UserDefaults, regionCurrencyCode: String?) {
    self.defaults = defaults
    self.regionCurrencyCode = regionCurrencyCode
  }

  /// The chosen currency, else the region's if supported, else US dollars. A stored code this
  /// build does not know (written by a later version) falls back the same way.
  public var currency: Currency {
    if let stored = defaults.string(forKey: Self.key), let currency = Currency.named(stored) {
      return currency
    }
    return regionCurrencyCode.flatMap(Currency.named) ?? .usd
  }

  public func save(_ currency: Currency) {
    defaults.set(currency.code, forKey: Self.key)
  }

  /// The App Group's preference with the region of the current locale.
  public static var live: CurrencyPreference {
    CurrencyPreference(
      defaults: AppGroup.defaults, regionCurrencyCode: Locale.current.currency?.identifier)
  }
}
