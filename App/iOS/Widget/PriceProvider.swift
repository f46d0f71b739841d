import BTCPriceAppComposition
import BTCPriceWidgetCore
import WidgetKit
import os

/// Hands WidgetKit what `WidgetComposition` decides: the cached price for snapshots, and for
/// timelines the cache, then the sources within a deadline, with the next reload date.
struct PriceProvider: TimelineProvider {
  private let composition = WidgetComposition.live { reason in
    Logger(subsystem: "dev.btcprice.BTCPrice.Widget", category: "cache")
      .warning("\(reason, privacy: .public)")
  }

  func placeholder(in context: Context) -> PriceEntry {
    PriceEntry(composition.placeholder())
  }

  // The completion handlers are @Sendable, as WidgetKit declares them (Apple's documentation,
  // November 2026: `@preconcurrency func getTimeline(in:completion: @escaping @Sendable
  // (Timeline<Entry>) -> Void)`), so the timeline's task may call one.
  func getSnapshot(in context: Context, completion: @escaping @Sendable (PriceEntry) -> Void) {
    completion(PriceEntry(composition.snapshot()))
  }

  func getTimeline(
    in context: Context, completion: @escaping @Sendable (Timeline<PriceEntry>) -> Void
  ) {
    let composition = self.composition
    Task {
      let timeline = await composition.loadTimeline()
      completion(
        Timeline(
          entries: timeline.entries.map(PriceEntry.init), policy: .after(timeline.reloadAfter)))
    }
  }
}
