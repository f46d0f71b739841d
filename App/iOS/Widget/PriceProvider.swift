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

  func getSnapshot(in context: Context, completion: @escaping (PriceEntry) -> Void) {
    completion(PriceEntry(composition.snapshot()))
  }

  func getTimeline(in context: Context, completion: @escaping (Timeline<PriceEntry>) -> Void) {
    // WidgetKit's completion handler is called once, from whichever thread: boxed so that the
    // task may carry it whatever concurrency annotations the SDK gives it.
    let reply = Reply(completion)
    let composition = self.composition
    Task {
      let timeline = await composition.loadTimeline()
      reply.send(
        Timeline(
          entries: timeline.entries.map(PriceEntry.init), policy: .after(timeline.reloadAfter)))
    }
  }
}

/// A completion handler that may cross into a task.
private struct Reply<Value>: @unchecked Sendable {
  let send: (Value) -> Void

  init(_ send: @escaping (Value) -> Void) {
    self.send = send
  }
}
