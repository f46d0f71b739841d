import SwiftUI
import WidgetKit

/// The Bitcoin price widget. Its kind is what the app names when it asks WidgetKit to reload.
struct PriceWidget: Widget {
  static let kind = "dev.btcprice.BTCPrice.PriceWidget"

  var body: some WidgetConfiguration {
    StaticConfiguration(kind: Self.kind, provider: PriceProvider()) { entry in
      PriceWidgetView(entry: entry)
    }
    .configurationDisplayName("Bitcoin Price")
    .description("The last known Bitcoin price in your currency, with the time it is from.")
    .supportedFamilies([.systemSmall, .accessoryRectangular, .accessoryInline, .accessoryCircular])
  }
}
