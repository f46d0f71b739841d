import BTCPriceAppComposition
import BTCPriceFeature
import BTCPriceUI
import SwiftUI
import os

/// The app's entry point: a thin shell. What it shows and how it is wired lives in the package
/// (`BTCPriceAppComposition`, `BTCPriceFeature`, `BTCPriceUI`), where Linux builds and tests it.
@main
struct BTCPriceApp: App {
  @State private var model: PriceViewModel

  // An App is initialised once per launch, so there is one view model, one session, one ticker.
  init() {
    let log = Logger(subsystem: "dev.btcprice.BTCPrice", category: "cache")
    _model = State(
      initialValue: AppComposition.makePriceViewModel { reason in
        log.warning("\(reason, privacy: .public)")
      })
  }

  var body: some Scene {
    WindowGroup {
      PriceScreen(model: model)
    }
  }
}
