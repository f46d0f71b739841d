import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Present the chart and the 24-hour change", .hangLimit(.seconds(30)))
struct PresentTheChartUseCaseTests {
  /// 2026-11-22 14:00 UTC, 23:00 in Tokyo.
  static let end: TimeInterval = 1_795_356_000
  static let tokyo = TimestampFormatter(
    precision: .minutes, timeZone: TimeZone(identifier: "Asia/Tokyo")!)

  /// A day's three candles: at the range's start, its middle and its last 5 minutes.
  let series = CandleSeries.of(
    [
      .at(end - 86_400, "100", "110", "90", "100"), .at(end - 43_200, "100", "130", "100", "120"),
      .at(end - 300, "120", "125", "110", "115"),
    ], fetchedAt: end - 240)

  @Test func thePoints_sitByTimeAcrossAndBetweenTheLowAndHighUpward() throws {
    let chart = try #require(
      present(series, current: quote("115", at: Date(timeIntervalSince1970: Self.end))))

    #expect(
      chart.points == [
        .init(x: 0, low: 0, high: 0.5, close: 0.25), .init(x: 0.5, low: 0.25, high: 1, close: 0.75),
        .init(x: 86_100.0 / 86_400.0, low: 0.5, high: 0.875, close: 0.625),
      ])
    #expect(chart.lowText == "$90.00")
    #expect(chart.highText == "$130.00")
    #expect(chart.rangeText == "low $90.00  high $130.00")
    #expect(chart.title == "BTC/USD, last 24 hours · Binance")
    #expect(chart.sourceName == "Binance")
  }

  @Test func aRise_isWordedWithItsArrowAmountAndPercentOver24Hours() throws {
    let chart = try #require(
      present(series, current: quote("115", at: Date(timeIntervalSince1970: Self.end))))

    let change = try #require(chart.change)
    #expect(change.text == "▲ +$15.00 (+15.00%)")
    #expect(change.label == "in 24 hours")
    #expect(change.direction == .up)
    #expect(chart.changeValue == PriceChange(from: 100, to: 115))
    #expect(chart.direction == .up)
  }

  @Test func aFall_isWordedDownward() throws {
    let chart = try #require(
      present(series, current: quote("88.5", at: Date(timeIntervalSince1970: Self.end))))

    #expect(chart.change?.text == "▼ -$11.50 (-11.50%)")
    #expect(chart.direction == .down)
  }

  @Test func withoutADayOfHistory_thereIsNoChange_notAZero() throws {
    // The week's chart, with no day history to measure on: the colour follows the range.
    let chart = try #require(
      Self.presenter.present(
        series, range: .week, current: quote("80", at: Date(timeIntervalSince1970: Self.end)),
        now: Date(timeIntervalSince1970: Self.end)))

    #expect(chart.change == nil)
    #expect(chart.changeValue == nil)
    #expect(chart.direction == .up, "the week's first close (100) to its last (115)")
  }

  @Test func withoutACurrentPrice_theChartEndsAtTheHistorysOwnLastPrice() throws {
    let chart = try #require(present(series, current: nil))

    // The history was fetched at end - 240: its last close, 115, against the open a day before.
    #expect(chart.change?.text == "▲ +$15.00 (+15.00%)")
  }

  @Test func aHistoryInAnotherCurrency_isNoChart() {
    #expect(present(.of(series.candles, currency: .eur), current: nil) == nil)
    #expect(present(nil, current: quote("1", at: Date(timeIntervalSince1970: Self.end))) == nil)
  }

  @Test func theDaysAxis_marksEverySixHoursOnTheHourInTheUsersZone() throws {
    let chart = try #require(
      present(series, current: quote("115", at: Date(timeIntervalSince1970: Self.end))))

    let hours: [Double] = [1, 7, 13, 19]
    #expect(chart.timeLabels.map(\.text) == ["00:00", "06:00", "12:00", "18:00"])
    #expect(chart.timeLabels.map(\.x) == hours.map { $0 * 3_600 / 86_400 })
  }

  @Test func theWeeksAxis_marksEachMidnight_theMonthsThe1st8th15thAnd22nd() throws {
    let week = try #require(
      Self.presenter.present(
        series, range: .week, current: quote("115", at: Date(timeIntervalSince1970: Self.end)),
        now: Date(timeIntervalSince1970: Self.end)))
    let month = try #require(
      Self.presenter.present(
        series, range: .month, current: quote("115", at: Date(timeIntervalSince1970: Self.end)),
        now: Date(timeIntervalSince1970: Self.end)))

    #expect(
      week.timeLabels.map(\.text) == [
        "Nov 16", "Nov 17", "Nov 18", "Nov 19", "Nov 20", "Nov 21", "Nov 22",
      ])
    #expect(week.timeLabels.first?.x == 3_600.0 / 604_800)
    #expect(month.timeLabels.map(\.text) == ["Nov 1", "Nov 8", "Nov 15", "Nov 22"])
  }

  @Test func midnightsAcrossTheEndOfDaylightSavingTime_stayMidnights() throws {
    // Paris leaves summer time on 25 Oct 2026: midnight is 22:00 UTC before, 23:00 after.
    let end: TimeInterval = 1_793_188_800  // 2026-10-28 12:00 UTC
    let presenter = ChartPresenter(
      timestamps: TimestampFormatter(
        precision: .minutes, timeZone: TimeZone(identifier: "Europe/Paris")!))

    let chart = try #require(
      presenter.present(
        .of([.flat(end - 600, "1")]), range: .week,
        current: quote("1", at: Date(timeIntervalSince1970: end)),
        now: Date(timeIntervalSince1970: end)))

    // Seconds from the week's start (2026-10-21 12:00 UTC) to each Paris midnight.
    let midnights: [Double] = [36_000, 122_400, 208_800, 295_200, 385_200, 471_600, 558_000]
    #expect(
      chart.timeLabels.map(\.text) == [
        "Oct 22", "Oct 23", "Oct 24", "Oct 25", "Oct 26", "Oct 27", "Oct 28",
      ])
    #expect(chart.timeLabels.map(\.x) == midnights.map { $0 / 604_800 })
    // Each mark's instant, for a view that words it in another zone (the page, the viewer's).
    #expect(
      chart.timeLabels.map(\.at)
        == midnights.map { Date(timeIntervalSince1970: end - 604_800 + $0) })
  }

  @Test func aHistoryOlderThanTwoOfItsRefreshes_saysSince() throws {
    // Fetched at end - 240 (22:56 in Tokyo); the day's refresh is 15 minutes.
    let fresh = present(series, current: nil, now: Self.end - 240 + 1_800)
    let stale = present(series, current: nil, now: Self.end - 240 + 1_801)

    #expect(fresh?.ageText == nil)
    #expect(stale?.ageText == "as of Nov 22, 22:56")
  }

  @Test func aHistoryThatEndedARangeBeforeThePrice_showsTheRangeItKnewWithoutAChange() throws {
    // Kept from three days ago (fetched at end - 240), and today's price: the day it knew.
    let chart = try #require(
      present(
        series, current: quote("150", at: Date(timeIntervalSince1970: Self.end + 3 * 86_400)),
        now: Self.end + 3 * 86_400))

    #expect(chart.points.count == 3)
    #expect(chart.points.last?.x == 86_340.0 / 86_400.0)
    #expect(chart.change == nil)
    #expect(chart.ageText == "as of Nov 22, 22:56")
  }

  @Test func aHistoryThatEndedExactlyARangeBeforeThePrice_stillEndsAtThePrice() throws {
    // Known until end - 240; the price a day after that to the second: its day, where the last
    // candle sits at the left edge.
    let chart = try #require(
      present(
        series, current: quote("150", at: Date(timeIntervalSince1970: Self.end - 240 + 86_400)),
        now: Self.end - 240 + 86_400))

    #expect(chart.points.count == 1)
    #expect(chart.points.first?.x == 0)
  }

  @Test func aCandleThatEndsWhereTheRangeBegins_isLeftOut_andOneThatStartsAtItsEnd_isIn() throws {
    // A candle of 13:55 the day before ends at 14:00, where the day begins; its high of 1,000
    // must not be the day's.
    let withTheDayBefore = CandleSeries.of(
      [.at(Self.end - 86_700, "100", "1000", "100", "100")] + series.candles, fetchedAt: Self.end)
    let day = try #require(
      present(withTheDayBefore, current: quote("115", at: Date(timeIntervalSince1970: Self.end))))
    #expect(day.highText == "$130.00")
    #expect(day.points.count == 3)

    // A price at 13:55, the start of the last candle: the day ends with that candle in it.
    let endingAtTheLast = try #require(
      present(
        series, current: quote("115", at: Date(timeIntervalSince1970: Self.end - 300)),
        now: Self.end - 240))
    #expect(endingAtTheLast.points.count == 3)
    #expect(endingAtTheLast.points.last?.x == 1)
  }

  @Test func aDayThatBeginsOnAMark_isMarkedAtBothEdges() throws {
    // A price at 18:00 in Tokyo (09:00 UTC): the day from 18:00 the day before, marked there.
    let chart = try #require(
      present(
        series, current: quote("115", at: Date(timeIntervalSince1970: Self.end - 5 * 3_600)),
        now: Self.end - 5 * 3_600))

    #expect(chart.timeLabels.map(\.text) == ["18:00", "00:00", "06:00", "12:00", "18:00"])
    #expect(chart.timeLabels.first?.x == 0)
    #expect(chart.timeLabels.last?.x == 1, "and its end, on the same hour")
  }

  @Test func aScreenReader_hearsTheRangeTheChangeAndTheExtremesInWords() throws {
    let chart = try #require(
      present(series, current: quote("115.5", at: Date(timeIntervalSince1970: Self.end))))
    let stale = try #require(present(series, current: nil, now: Self.end + 3_600))

    #expect(
      chart.accessibilityLabel
        == "Bitcoin over the last 24 hours, from Binance: up 15 dollars 50 cents since a day ago, "
        + "15.50 percent. Low 90 dollars, high 130 dollars.")
    #expect(
      stale.accessibilityLabel
        == "Bitcoin over the last 24 hours, from Binance, as of Nov 22, 22:56: up 15 dollars since "
        + "a day ago, 15.00 percent. Low 90 dollars, high 130 dollars.")
  }

  @Test func anotherCurrency_isFormattedInIt() throws {
    let euros = CandleSeries.of(series.candles, currency: .eur, source: .kraken)
    let presenter = ChartPresenter(timestamps: Self.tokyo, currency: .eur)

    let chart = try #require(
      presenter.present(
        euros, range: .day,
        current: PriceQuote(
          value: 115, currency: "EUR", timestamp: Date(timeIntervalSince1970: Self.end),
          source: .kraken),
        now: Date(timeIntervalSince1970: Self.end)))

    #expect(chart.title == "BTC/EUR, last 24 hours · Kraken")
    #expect(chart.rangeText == "low €90.00  high €130.00")
    #expect(chart.change?.text == "▲ +€15.00 (+15.00%)")
  }

  @Test func whatIsSaid_whenNoChartCanBeDrawn() {
    let failure = PriceFetchFailure(failures: [
      .init(source: .binance, error: .httpStatus(451, message: nil)),
      .init(source: .coinbase, error: .timedOut(after: .seconds(5))),
    ])

    #expect(Self.presenter.presentUnavailable(.week) == "No price history for the last 7 days yet")
    #expect(
      Self.presenter.presentUnavailable(.day, failure: failure)
        == "No price history for the last 24 hours yet: binance: HTTP 451; coinbase: timed out "
        + "after 5000 ms")
    #expect(
      Self.presenter.presentUnavailable(.day, failure: PriceFetchFailure(failures: []))
        == "No price history for the last 24 hours yet: no exchange has price history in this "
        + "currency")
    #expect(
      Self.presenter.presentKeptHistory(
        after: failure, fetchedAt: Date(timeIntervalSince1970: Self.end))
        == "Failed to update the price history (binance: HTTP 451; coinbase: timed out after "
        + "5000 ms); showing it as of Nov 22, 23:00")
  }

  private static let presenter = ChartPresenter(timestamps: tokyo)

  private func present(
    _ series: CandleSeries?, current: PriceQuote?, now: TimeInterval = end
  ) -> ChartViewState? {
    Self.presenter.present(
      series, range: .day, current: current, now: Date(timeIntervalSince1970: now))
  }
}
