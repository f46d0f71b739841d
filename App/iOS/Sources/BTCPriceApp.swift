import BTCPriceAppComposition
import BTCPriceFeature
import BTCPriceUI
import SwiftUI
import WidgetKit
import os

/// The app's entry point: a thin shell. What it shows and how it is wired lives in the package
/// (`BTCPriceAppComposition`, `BTCPriceFeature`, `BTCPriceUI`), where Linux builds and tests it.
@main
struct BTCPriceApp: App {
  @State private var screen: PriceScreenModel

  // An App is initialised once per launch, so there is one screen model, one session, one
  // ticker per currency shown.
  init() {
    let log = Logger(subsystem: "dev.btcprice.BTCPrice", category: "cache")
    _screen = State(
      initialValue: PriceScreenModel(
        preference: .live,
        makePrice: { currency in
          AppComposition.makePriceViewModel(
            currency: currency, backgroundTask: .uiApplication,
            log: { reason in log.warning("\(reason, privacy: .public)") })
        },
        reloadWidgets: { WidgetCenter.shared.reloadAllTimelines() }))
  }

  var body: some Scene {
    WindowGroup {
      ContentView(screen: screen)
    }
  }
}
