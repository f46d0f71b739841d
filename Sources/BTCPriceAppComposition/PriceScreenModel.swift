import BTCPriceCore
import BTCPriceFeature
import Observation

/// The app's one screen: the price in the chosen currency, and the choice of currency.
///
/// Each currency has its own sources, cache file and view model, so choosing another one makes
/// a new ``PriceViewModel``; the screen shows it under a new identity (SwiftUI's `.id`), which
/// ends the old one's `.task` and with it the old ticker.
@MainActor
@Observable
public final class PriceScreenModel {
  /// The currency shown, as the user chose it (or the default of ``CurrencyPreference``).
  public private(set) var currency: Currency
  /// The price in ``currency``.
  public private(set) var price: PriceViewModel
  /// Every currency the user can choose, in the order the picker lists them.
  public let currencies = Currency.supported

  @ObservationIgnored private let preference: CurrencyPreference
  @ObservationIgnored private let makePrice: @MainActor (Currency) -> PriceViewModel
  @ObservationIgnored private let reloadWidgets: @MainActor () -> Void

  /// - Parameters:
  ///   - makePrice: the view model for a currency (the composition's wiring).
  ///   - reloadWidgets: asks WidgetKit to reload the widget's timeline (the app passes
  ///     `WidgetCenter.shared.reloadAllTimelines`); reloads asked while the app is in front do
  ///     not count against the widget's daily budget.
  public init(
    preference: CurrencyPreference,
    makePrice: @escaping @MainActor (Currency) -> PriceViewModel,
    reloadWidgets: @escaping @MainActor () -> Void = {}
  ) {
    let currency = preference.currency
    self.preference = preference
    self.makePrice = makePrice
    self.reloadWidgets = reloadWidgets
    self.currency = currency
    self.price = makePrice(currency)
  }

  /// Shows `currency` from now on, remembers it, and has the widget follow.
  public func choose(_ currency: Currency) {
    guard currency != self.currency else { return }
    preference.save(currency)
    self.currency = currency
    price = makePrice(currency)
    reloadWidgets()
  }

  /// The name the picker shows: `EUR · Euro`.
  public func title(of currency: Currency) -> String {
    "\(currency.code) · \(CurrencyName.text(for: currency))"
  }

  /// On the way to the background the widget reloads, so the Home Screen shows the price the
  /// user just saw. (The price screen forwards every phase to ``price`` itself.)
  public func phaseDidChange(to phase: AppPhase) {
    if phase == .background { reloadWidgets() }
  }
}
