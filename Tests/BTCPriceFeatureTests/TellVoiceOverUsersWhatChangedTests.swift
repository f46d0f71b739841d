import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// What VoiceOver says about staleness and the banner, worded by the presenter.
@Suite("Tell VoiceOver users what changed", .hangLimit(.seconds(30)))
struct TellVoiceOverUsersWhatChangedTests {
  /// 2026-11-22 14:03:05 UTC
  let known = PriceQuote(
    value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
    source: .binance)
  let failure = PriceFetchFailure(failures: [])

  @Test func stalePrice_saysItIsNotUpToDate() {
    let state = makeSUT().present(.stale(lastKnown: known, failure: failure))

    #expect(
      state.accessibilityLabel
        == "Bitcoin price 68,901 dollars 23 cents, last updated Nov 22, 14:03, not up to date: "
        + "the latest update failed")
  }

  @Test func freshPrice_saysNothingAboutStaleness() {
    let state = makeSUT().present(.fresh(known))

    #expect(
      state.accessibilityLabel
        == "Bitcoin price 68,901 dollars 23 cents, last updated Nov 22, 14:03")
  }

  @Test func bannerAppearing_isAnnouncedWithThePriceShownAndItsTime() {
    let sut = makeSUT()

    let text = sut.presentAnnouncement(
      from: sut.present(.fresh(known)), to: sut.present(.stale(lastKnown: known, failure: failure)))

    #expect(
      text
        == "Failed to update the Bitcoin price. Showing 68,901 dollars 23 cents, from Nov 22, 14:03."
    )
  }

  @Test func bannerGoingAway_isAnnouncedWithTheNewPrice() {
    let sut = makeSUT()

    let text = sut.presentAnnouncement(
      from: sut.present(.stale(lastKnown: known, failure: failure)), to: sut.present(.fresh(known)))

    #expect(text == "Bitcoin price up to date again: 68,901 dollars 23 cents.")
  }

  @Test func bannerStaying_orStayingAway_isNotAnnouncedAgain() {
    let sut = makeSUT()
    let stale = sut.present(.stale(lastKnown: known, failure: failure))
    let fresh = sut.present(.fresh(known))

    #expect(sut.presentAnnouncement(from: stale, to: stale) == nil)
    #expect(sut.presentAnnouncement(from: fresh, to: fresh) == nil)
  }

  @Test func bannerWithoutAnyPrice_saysNoneIsKnown() {
    let sut = makeSUT()

    let text = sut.presentAnnouncement(
      from: sut.presentRestored(nil), to: sut.present(.stale(lastKnown: nil, failure: failure)))

    #expect(text == "Failed to update the Bitcoin price. No price is known yet.")
  }

  @Test(arguments: [
    ("68901.23", "68913.57", "up 12 dollars 34 cents since the last tick"),
    ("68901.23", "68896.23", "down 5 dollars since the last tick"),
    ("68901.23", "68901.23", "unchanged since the last tick"),
  ])
  func changeSinceTheLastTick_isSpokenInWords(from old: String, to new: String, expected: String) {
    let change = PriceChange(from: Decimal(string: old)!, to: Decimal(string: new)!)

    #expect(makeSUT().presentSpokenChange(change) == expected)
  }

  private func makeSUT() -> PricePresenter {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .minutes, timeZone: TimeZone(identifier: "UTC")!))
  }
}
