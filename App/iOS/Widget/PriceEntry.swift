import BTCPriceWidgetCore
import Foundation
import WidgetKit

/// One timeline entry: the date WidgetKit shows it from, and the content BTCPriceWidgetCore
/// worded for it.
struct PriceEntry: TimelineEntry {
  let date: Date
  let content: WidgetPriceContent

  init(_ entry: WidgetTimelinePolicy.Entry) {
    date = entry.date
    content = entry.content
  }
}
