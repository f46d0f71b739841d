import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// `PricePagePresenter`: the web page's every word and number, so the page's script only places
/// them (and writes the time in the viewer's zone).
@Suite("Word the web page", .hangLimit(.seconds(30)))
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

  @Test func theSparkline_spreadsItsPointsEvenlyAcrossTheBox_highValuesAtTheTop() {
    let sut = PricePagePresenter(currency: .eur)
    let state = presenter.present(.fresh(quote("63412.70", currency: "EUR")))

    let view = sut.present(state, previousValue: nil, recentValues: [1, 3, 2, 2, 5])

    #expect(view.sparklinePoints == "0.0,95.0 150.0,50.0 300.0,72.5 450.0,72.5 600.0,5.0")
  }

  @Test func aFallAndNoMove_areWordedByTheirDirection() {
    let sut = PricePagePresenter(currency: .eur)
    let state = presenter.present(.fresh(quote("63412.70", currency: "EUR")))

    let fall = sut.present(state, previousValue: Decimal(string: "63417.70"), recentValues: [])
    let still = sut.present(state, previousValue: Decimal(string: "63412.70"), recentValues: [])

    #expect(fall.direction == "down")
    #expect(fall.changeText == "▼ -€5.00")
    #expect(still.direction == "unchanged")
    #expect(still.changeText == "• unchanged")
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

  // MARK: The 24-hour change and the day's chart

  /// Three candles of a day flat at €68,000 but for a dip to €67,000 at 02:00, and the live
  /// price: the chart's points in the page's 600 × 200 box, high at the top.
  @Test func chart_placesTheClosesInTheBox_andWordsItsTextsAndMarks() throws {
    let end: TimeInterval = 1_795_356_000
    let day = CandleSeries.of(
      [
        .flat(end - 86_400, "68000"), .flat(end - 43_200, "67000"), .flat(end - 300, "68000"),
      ], currency: .eur)
    let chart = try #require(
      ChartPresenter(timestamps: .utc(precision: .minutes), currency: .eur)
        .present(day, range: .day, current: quote("68500", currency: "EUR"), now: receivedAt))

    let page = PricePagePresenter(currency: .eur).presentChart(chart)

    // x: each candle's start in the day that ends at 14:03:05 (the first began before it);
    // y: 10 + (1 - close) × 180, between the day's low and high.
    #expect(page.line == "0.0,10.0 298.7,190.0 596.6,10.0")
    #expect(page.area == "0.0,200.0 0.0,10.0 298.7,190.0 596.6,10.0 596.6,200.0")
    #expect(page.title == "BTC/EUR, last 24 hours · Binance")
    #expect(page.highText == "high €68,000.00")
    #expect(page.lowText == "low €67,000.00")
    #expect(page.direction == "up")
    #expect(page.times.map(\.text) == ["18:00", "00:00", "06:00", "12:00"])
    #expect(page.times.map(\.position) == [16, 41, 66, 91])
    #expect(page.ageText == nil)
    #expect(page.label.hasPrefix("Bitcoin over the last 24 hours, from Binance: up "))
  }

  @Test func the24HourChange_andTheChart_goInTheEvent_andAreAbsentWithoutAHistory() throws {
    let day = CandleSeries.day(endingAt: 1_795_356_000, currency: .eur) { _ in "68000.00" }
    let tick = quote("68901.23", currency: "EUR")
    let state = presenter.present(.fresh(tick), dayHistory: day)
    let chart = ChartPresenter(timestamps: .utc(precision: .minutes), currency: .eur)
      .present(day, range: .day, current: tick, now: receivedAt)
    let sut = PricePagePresenter(currency: .eur)

    let with = sut.present(state, previousValue: nil, recentValues: [], chart: chart)
    let without = sut.present(
      presenter.present(.fresh(tick)), previousValue: nil, recentValues: [])

    #expect(with.change24hText == "▲ +€901.23 (+1.33%) in 24 hours")
    #expect(with.change24hDirection == "up")
    #expect(with.chart?.title == "BTC/EUR, last 24 hours · Binance")
    #expect(with.json.contains(#""change24h":"▲ +€901.23 (+1.33%) in 24 hours","#))
    #expect(
      with.json.contains(#","chart":{"title":"BTC/EUR, last 24 hours · Binance","age":null,"#))
    #expect(without.change24hText.isEmpty)
    #expect(without.change24hDirection == "none")
    #expect(without.json.hasSuffix(#""chart":null}"#))
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
          + #""change24h":"","change24hDirection":"none","sats":"€1 = 100,000,000 sats","#
          + #""silentAfter":4000,"chart":null}"#))
  }
}
