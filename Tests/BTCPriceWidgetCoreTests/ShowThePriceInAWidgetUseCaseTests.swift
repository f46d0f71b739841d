import BTCPriceCore
import BTCPriceTestSupport
import BTCPriceWidgetCore
import Foundation
import Testing

/// What the Home Screen and Lock Screen widget shows, decided here because its SwiftUI views
/// cannot build on Linux.
@Suite("Show the price in a widget")
struct ShowThePriceInAWidgetUseCaseTests {
  /// 2026-11-22 14:03:05 UTC
  let known = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func freshPrice_showsItWithTheTimeItWasKnown() {
    let content = makeSUT().present(
      quote("68901.23", at: known), fetchFailed: false, at: known.addingTimeInterval(60))

    #expect(content.pairText == "BTC/USD")
    #expect(content.priceText == "$68,901.23")
    #expect(content.asOfText == "as of 14:03")
    #expect(content.compactPriceText == "68.9K")
    #expect(content.timeText == "14:03")
    #expect(content.inlineText == "BTC $68,901 · 14:03")
    #expect(content.isStale == false)
    #expect(content.accessibilityLabel == "Bitcoin price 68,901 dollars 23 cents, as of 14:03")
  }

  @Test func failedReload_saysSinceWhenThePriceIsNotUpdated() {
    let content = makeSUT().present(
      quote("68901.23", at: known), fetchFailed: true, at: known.addingTimeInterval(60))

    #expect(content.isStale)
    #expect(content.priceText == "$68,901.23")
    #expect(content.asOfText == "not updated since 14:03")
    #expect(content.inlineText == "BTC $68,901 · old, 14:03")
    #expect(
      content.accessibilityLabel
        == "Bitcoin price 68,901 dollars 23 cents, as of 14:03, not up to date: the latest "
        + "update failed")
  }

  @Test func priceOlderThanHalfAnHour_isStaleEvenWithoutAFailure() {
    let sut = makeSUT()
    let price = quote("68901.23", at: known)

    #expect(!sut.present(price, fetchFailed: false, at: known.addingTimeInterval(29 * 60)).isStale)
    #expect(sut.present(price, fetchFailed: false, at: known.addingTimeInterval(30 * 60)).isStale)
  }

  @Test func priceFromAnEarlierDay_showsItsDayToo() {
    let content = makeSUT().present(
      quote("68901.23", at: known), fetchFailed: true, at: known.addingTimeInterval(86_400))

    #expect(content.asOfText == "not updated since Nov 22, 14:03")
    #expect(content.timeText == "Nov 22")
  }

  @Test func noPriceKnown_saysSoWithoutMakingOneUp() {
    let content = makeSUT(currency: .eur).present(nil, fetchFailed: true, at: known)

    #expect(content.pairText == "BTC/EUR")
    #expect(content.priceText == "-")
    #expect(content.asOfText == "no price yet")
    #expect(content.inlineText == "BTC price unavailable")
    #expect(content.accessibilityLabel == "Bitcoin price unavailable")
  }

  @Test func priceInTheChosenCurrency_usesItsSymbolAndWords() {
    let content = makeSUT(currency: .jpy).present(
      quote("10512345", currency: "JPY", at: known), fetchFailed: false, at: known)

    #expect(content.pairText == "BTC/JPY")
    #expect(content.priceText == "¥10,512,345")
    #expect(content.compactPriceText == "10.5M")
    #expect(content.accessibilityLabel == "Bitcoin price 10,512,345 yen, as of 14:03")
  }

  @Test func timeOfThePrice_isInTheUsersZone() {
    let sut = WidgetPresenter(currency: .usd, timeZone: { TimeZone(identifier: "Asia/Tokyo")! })

    #expect(
      sut.present(quote("1", at: known), fetchFailed: false, at: known).asOfText
        == "as of 23:03")
  }

  // MARK: - Helpers

  private func makeSUT(currency: Currency = .usd) -> WidgetPresenter {
    WidgetPresenter(currency: currency, timeZone: { TimeZone(identifier: "UTC")! })
  }
}

@Suite("Show the 24-hour change in the widget", .hangLimit(.seconds(30)))
struct ShowThe24HourChangeInTheWidgetUseCaseTests {
  let presenter = WidgetPresenter(currency: .usd, timeZone: { TimeZone(identifier: "UTC")! })
  static let day = CandleSeries.day(endingAt: 1_795_356_000) { _ in "68000.00" }

  @Test func withTheAppsDay_theChangeIsShownAndSpoken_andAbsentWithoutIt() {
    let rise = presenter.present(
      quote("68901.23"), fetchFailed: false, at: quoteTime, dayHistory: Self.day)
    let fall = presenter.present(
      quote("67000"), fetchFailed: false, at: quoteTime, dayHistory: Self.day)
    let unknown = presenter.present(quote("68901.23"), fetchFailed: false, at: quoteTime)
    let tooOld = presenter.present(
      quote("68901.23"), fetchFailed: false, at: quoteTime,
      dayHistory: CandleSeries.day(endingAt: 1_795_356_000 - 2 * 86_400) { _ in "68000.00" })

    #expect(rise.change24hText == "▲ +1.33% in 24h")
    #expect(rise.change24hRises == true)
    #expect(
      rise.accessibilityLabel
        == "Bitcoin price 68,901 dollars 23 cents, as of 14:03, up 901 dollars 23 cents since a "
        + "day ago, 1.33 percent")
    #expect(fall.change24hText == "▼ -1.47% in 24h")
    #expect(fall.change24hRises == false)
    #expect(unknown.change24hText == nil)
    #expect(unknown.change24hRises == nil)
    #expect(tooOld.change24hText == nil)
  }

  @Test func theTimeline_carriesTheChangeInEachEntry() {
    let timeline = WidgetTimelinePolicy(presenter: presenter).timeline(
      for: quote("68901.23"), fetchFailed: false, now: quoteTime, dayHistory: Self.day)

    #expect(
      timeline.entries.map(\.content.change24hText) == ["▲ +1.33% in 24h", "▲ +1.33% in 24h"])
  }
}
