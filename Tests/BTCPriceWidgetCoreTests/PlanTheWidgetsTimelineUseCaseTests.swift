import BTCPriceCore
import BTCPriceTestSupport
import BTCPriceWidgetCore
import Foundation
import Testing

/// When the widget's wording changes and when it asks WidgetKit for the next reload.
@Suite("Plan the widget's timeline", .hangLimit(.seconds(30)))
struct PlanTheWidgetsTimelineUseCaseTests {
  /// 2026-11-22 14:03:05 UTC
  let known = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func freshPrice_showsNowAndTurnsStaleHalfAnHourAfterItWasKnown() {
    let now = known.addingTimeInterval(10)
    let timeline = makeSUT().timeline(
      for: quote("68901.23", at: known), fetchFailed: false, now: now)

    #expect(timeline.entries.map(\.date) == [now, known.addingTimeInterval(30 * 60)])
    #expect(timeline.entries.map(\.content.isStale) == [false, true])
    #expect(timeline.entries.last?.content.asOfText == "not updated since 14:03")
  }

  @Test func everyReload_asksForTheNextInFifteenMinutes() {
    let sut = makeSUT()

    for failed in [false, true] {
      let timeline = sut.timeline(for: quote("1", at: known), fetchFailed: failed, now: known)
      #expect(timeline.reloadAfter == known.addingTimeInterval(15 * 60))
    }
  }

  @Test func failedReload_showsOneStaleEntryAndNothingLater() {
    let timeline = makeSUT().timeline(
      for: quote("68901.23", at: known), fetchFailed: true, now: known.addingTimeInterval(600))

    #expect(timeline.entries.count == 1)
    #expect(timeline.entries.first?.content.isStale == true)
  }

  @Test func entriesOfATimeline_areAtLeastFiveMinutesApart() {
    // Apple asks for at least 5 minutes between entries; the stale entry is 30 minutes after
    // the price, and a price that old gets no second entry at all.
    let sut = makeSUT()
    for age in stride(from: 0.0, through: 40 * 60, by: 60) {
      let now = known.addingTimeInterval(age)
      let dates = sut.timeline(for: quote("1", at: known), fetchFailed: false, now: now)
        .entries.map(\.date)
      for (earlier, later) in zip(dates, dates.dropFirst()) {
        #expect(later.timeIntervalSince(earlier) >= 5 * 60, "at age \(age)")
      }
    }
  }

  @Test func snapshot_showsTheCachedPriceWithItsTime() {
    let entry = makeSUT().snapshot(for: quote("68901.23", at: known), now: known)

    #expect(entry.content.priceText == "$68,901.23")
    #expect(entry.content.asOfText == "as of 14:03")
  }

  // MARK: - Helpers

  private func makeSUT() -> WidgetTimelinePolicy {
    WidgetTimelinePolicy(
      presenter: WidgetPresenter(currency: .usd, timeZone: { TimeZone(identifier: "UTC")! }))
  }
}
