import SwiftUI
import WidgetKit

/// The widget extension's entry point: one widget, in the Home Screen's small size and the Lock
/// Screen's three accessory families.
@main
struct BTCPriceWidgetBundle: WidgetBundle {
  var body: some Widget {
    PriceWidget()
  }
}
