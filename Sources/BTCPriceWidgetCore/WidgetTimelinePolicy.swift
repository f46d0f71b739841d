import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// When the widget's entries change and when WidgetKit should ask for the next timeline.
///
/// WidgetKit gives a widget that is seen often 40 to 70 reloads a day, roughly one every 15 to 60
/// minutes, and wants entries at least 5 minutes apart (Apple, "Keeping a widget up to date").
/// So the widget asks for a reload every 15 minutes, the most the budget allows, and adds a second
/// entry for the moment its price becomes stale, so that a reload the system skips still turns
/// the wording to "not updated since" on time.
public struct WidgetTimelinePolicy: Sendable {
  /// The reload interval asked for; the system may stretch it.
  public static let reloadInterval: Duration = .seconds(15 * 60)

  /// The least time between two entries Apple asks for.
  static let minimumEntrySpacing: TimeInterval = 5 * 60

  /// One entry: when it shows and what.
  public struct Entry: Equatable, Sendable {
    public let date: Date
    public let content: WidgetPriceContent
  }

  /// A timeline: its entries, oldest first, and the earliest date to ask for the next one.
  public struct Timeline: Equatable, Sendable {
    public let entries: [Entry]
    public let reloadAfter: Date
  }

  private let presenter: WidgetPresenter

  public init(presenter: WidgetPresenter) {
    self.presenter = presenter
  }

  /// The timeline for what a reload at `now` found.
  ///
  /// - Parameter dayHistory: the day the app keeps, for the 24-hour change.
  public func timeline(
    for quote: PriceQuote?, fetchFailed: Bool, now: Date, dayHistory: CandleSeries? = nil
  ) -> Timeline {
    var entries = [
      Entry(
        date: now,
        content: presenter.present(
          quote, fetchFailed: fetchFailed, at: now, dayHistory: dayHistory))
    ]
    if let quote, !fetchFailed, !presenter.isTooOld(quote, at: now) {
      // Apple wants entries at least 5 minutes apart: a price about to turn stale is marked a
      // little late rather than crowd the timeline.
      let staleAt = max(
        quote.timestamp.addingTimeInterval(WidgetPresenter.staleAfterSeconds),
        now.addingTimeInterval(Self.minimumEntrySpacing))
      entries.append(
        Entry(
          date: staleAt,
          content: presenter.present(
            quote, fetchFailed: false, at: staleAt, dayHistory: dayHistory)))
    }
    let interval = TimeInterval(Self.reloadInterval.components.seconds)
    return Timeline(entries: entries, reloadAfter: now.addingTimeInterval(interval))
  }

  /// What the widget gallery and a first placement show before any reload: the cached price if
  /// there is one, never a made-up one.
  public func snapshot(for cached: PriceQuote?, now: Date, dayHistory: CandleSeries? = nil)
    -> Entry
  {
    Entry(
      date: now,
      content: presenter.present(cached, fetchFailed: false, at: now, dayHistory: dayHistory))
  }
}
