import BTCPriceFeature
import BTCPriceUI
import SwiftUI

@main
struct BTCPriceApp: App {
  @State private var model: PriceViewModel

  // An App is initialised once per launch, so there is one view model, one session, one ticker.
  init() {
    _model = State(initialValue: AppComposition.makePriceViewModel())
  }

  var body: some Scene {
    WindowGroup {
      PriceScreen(model: model)
    }
  }
}
