#if canImport(SwiftUI)
  import BTCPriceCore
  import SwiftUI

  /// The currency picker in the screen's toolbar. What it lists and how each is named come from
  /// the caller (`PriceScreenModel`, tested on Linux).
  public struct CurrencyMenu: View {
    private let currencies: [Currency]
    private let selected: Currency
    private let title: @MainActor (Currency) -> String
    private let choose: @MainActor (Currency) -> Void

    public init(
      currencies: [Currency], selected: Currency, title: @escaping @MainActor (Currency) -> String,
      choose: @escaping @MainActor (Currency) -> Void
    ) {
      self.currencies = currencies
      self.selected = selected
      self.title = title
      self.choose = choose
    }

    public var body: some View {
      // Buttons rather than a Picker bound to the model: choosing is an action (a new view
      // model, the widget reloaded), not a property to write.
      Menu {
        ForEach(currencies, id: \.code) { currency in
          Button {
            choose(currency)
          } label: {
            if currency == selected {
              Label(title(currency), systemImage: "checkmark")
            } else {
              Text(verbatim: title(currency))
            }
          }
        }
      } label: {
        Text(verbatim: selected.code)
      }
      .accessibilityLabel(Text(verbatim: "Currency: \(title(selected))"))
    }
  }
#endif
