import BTCPriceAppComposition
import BTCPriceFeature
import BTCPriceUI
import SwiftUI

/// The price screen under a toolbar with the currency menu.
///
/// `.id(currency)`: a new currency is a new view model, so SwiftUI must see a new screen, whose
/// `.task` starts the new ticker while the old one's is cancelled.
struct ContentView: View {
  @Environment(\.scenePhase) private var scenePhase
  let screen: PriceScreenModel

  var body: some View {
    NavigationStack {
      PriceScreen(model: screen.price)
        .id(screen.currency)
        .toolbar {
          ToolbarItem(placement: .topBarTrailing) {
            CurrencyMenu(
              currencies: screen.currencies, selected: screen.currency,
              title: { screen.title(of: $0) }, choose: { screen.choose($0) })
          }
        }
    }
    // PriceScreen forwards the phase to its view model; the screen model only adds the widget's
    // reload on the way to the background.
    .onChange(of: scenePhase) { _, phase in
      screen.phaseDidChange(to: AppPhase(phase))
    }
  }
}
