import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// `PricePagePresenter`: the web page's every word and number, so the page's script only places
/// them (and writes the time in the viewer's zone).
@Suite("Word the web page")
struct PresentThePageUseCaseTests {
  /// 2026-11-22 14:03:05 UTC
  let receivedAt = Date(timeIntervalSince1970: 1_795_356_185)
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds), currency: .eur)

  @Test func fresh_wordsThePriceTimeSourceChangeAndTitleInTheCurrency() {
    let sut = PricePagePresenter(currency: .eur)
    let state = presenter.present(.fresh(quote("63412.70", currency: "EUR")))

    let view = sut.present(state, previousValue: Decimal(string: "63400.00"), recentValues: [1, 2])

    #expect(view.phase == "fresh")
    #expect(view.direction == "up")
    #expect(view.pairText == "BTC/EUR")
    #expect(view.priceText == "€63,412.70")
    #expect(view.changeText == "▲ +€12.70")
    #expect(view.updatedText == "Last updated")
    #expect(view.timestamp == "2026-11-22T14:03:05Z")
    #expect(view.timeText == "Nov 22, 14:03:05 UTC")
    #expect(view.sourceText == "from Binance")
    #expect(view.bannerText == nil)
    #expect(view.titleText == "€63,412.70 · BTC/EUR")
    #expect(view.stateAnnouncement == "Bitcoin price €63,412.70, updating again")
    #expect(view.priceAnnouncement == "Bitcoin price €63,412.70")
    #expect(view.sparklinePoints == "0.0,95.0 600.0,5.0")
    #expect(view.sparklineLabel == "Price over the last 2 ticks")
  }

  @Test func stale_carriesTheBannersExactWords_andTheLastValue() {
    let state = presenter.present(
      .stale(
        lastKnown: quote("63412.70", currency: "EUR"),
        failure: PriceFetchFailure(failures: [
          .init(source: .binance, error: .timedOut(after: .milliseconds(800)))
        ])))

    let view = PricePagePresenter(currency: .eur).present(
      state, previousValue: nil, recentValues: [])

    #expect(view.phase == "stale")
    #expect(view.bannerText == "Failed to update value. Displaying last updated value from")
    #expect(view.stateAnnouncement == view.bannerText)
    #expect(view.priceText == "€63,412.70")
    #expect(view.direction == "none")
    #expect(view.changeText == "")
  }

  @Test func nothingKnown_showsDashes_andNoSource() {
    let view = PricePagePresenter().present(
      PricePresenter(timestamps: .utc(precision: .seconds)).presentRestored(nil),
      previousValue: nil, recentValues: [])

    #expect(view.phase == "empty")
    #expect(view.priceText == "-")
    #expect(view.timestamp == nil)
    #expect(view.timeText == "-")
    #expect(view.sourceText == nil)
    #expect(view.titleText == "BTC/USD")
    #expect(view.stateAnnouncement == "Bitcoin price unavailable")
    #expect(view.sparklinePoints == "")
  }

  @Test func sparkline_drawsOnlyTheLast60Values_flatAtMidHeight() {
    let view = PricePagePresenter().present(
      presenter.present(.fresh(quote("1", currency: "EUR"))), previousValue: nil,
      recentValues: Array(repeating: Decimal(5), count: 70))

    #expect(view.sparklineLabel == "Price over the last 60 ticks")
    #expect(view.sparklinePoints.split(separator: " ").count == 60)
    #expect(view.sparklinePoints.split(separator: " ").allSatisfy { $0.hasSuffix(",50.0") })
  }

  @Test func json_escapesEveryText_andWritesNullForWhatIsNotThere() {
    let source = PriceSource(id: "x", displayName: "\"quoted\" </script>")
    let state = presenter.present(.fresh(quote("1", currency: "EUR", source: source)))

    let json = PricePagePresenter().present(state, previousValue: nil, recentValues: []).json

    #expect(json.contains(#""source":"from \"quoted\" </script>""#))
    #expect(json.contains(#""banner":null"#))
    #expect(json.hasPrefix(#"{"phase":"fresh","direction":"none","pair":"BTC/EUR""#))
  }

  @Test func silence_turnsThePageStaleAfterFourIntervals_atLeastTwoSeconds_inTheBannersWords() {
    let state = presenter.present(.fresh(quote("1", currency: "EUR")))
    let silence = { (interval: Duration) in
      PricePagePresenter(interval: interval).present(state, previousValue: nil, recentValues: [])
        .silentAfterMilliseconds
    }

    #expect(silence(.seconds(1)) == 4_000)
    #expect(silence(.seconds(10)) == 40_000)
    #expect(silence(.milliseconds(500)) == 2_000)
    #expect(silence(.milliseconds(499)) == 2_000)
    #expect(silence(.milliseconds(501)) == 2_004)
    let view = PricePagePresenter().present(state, previousValue: nil, recentValues: [])
    #expect(view.silentBannerText == "Failed to update value. Displaying last updated value from")
    #expect(
      view.json.hasSuffix(
        #","silentBanner":"Failed to update value. Displaying last updated value from","#
          + #""silentAfter":4000}"#))
  }
}
