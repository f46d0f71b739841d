import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// The change over an hour, a day, a week and a month, each measured on its range's candles,
/// worded as the 24-hour change is and carried in `--json`'s `changes`; a period the history
/// cannot say is absent, never a zero.
@Suite("Show every period's change", .hangLimit(.seconds(30)))
struct ShowEveryPeriodsChangeUseCaseTests {
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds))
  /// 2026-11-22 14:00 UTC; the quote is received at 14:03:05.
  static let end: TimeInterval = 1_795_356_000
  /// The day's 5-minute candles, flat at 68,000, and 68,700 over the last hour.
  static let day = CandleSeries.day(endingAt: end - 300) { $0 >= 277 ? "68700.00" : "68000.00" }
  /// The week's hourly candles at 60,000, the month's 6-hour ones at 50,000.
  static let week = CandleSeries.of(
    (0..<170).map { .flat(end - 3_600 - TimeInterval(169 - $0) * 3_600, "60000.00") },
    period: .seconds(3_600))
  static let month = CandleSeries.of(
    (0..<122).map { .flat(end - 21_600 - TimeInterval(121 - $0) * 21_600, "50000.00") },
    period: .seconds(21_600))

  @Test func everyPeriod_isMeasuredOnItsRangesCandles() {
    let state = presenter.present(
      .fresh(quote("68901.23")),
      histories: [.day: Self.day, .week: Self.week, .month: Self.month])

    #expect(state.changes[.hour]?.text == "▲ +$201.23 (+0.29%)")
    #expect(state.changes[.hour]?.label == "in 1 hour")
    #expect(state.changes[.day]?.text == "▲ +$901.23 (+1.33%)")
    #expect(state.changes[.week]?.text == "▲ +$8,901.23 (+14.84%)")
    #expect(state.changes[.month]?.label == "in 30 days")
    #expect(state.record.changes[.month]?.absolute == "18901.23")
    #expect(state.record.changes[.month]?.percent == "37.80")
    #expect(state.change24h == state.changes[.day], "the 24-hour change as before")
  }

  @Test func aPeriodTheHistoryCannotSay_isAbsent() {
    let onlyTheDay = presenter.present(.fresh(quote("68901.23")), histories: [.day: Self.day])
    let none = presenter.present(.fresh(quote("68901.23")), histories: [:])

    #expect(Set(onlyTheDay.changes.keys) == [.hour, .day])
    #expect(onlyTheDay.record.changes[.week] == nil)
    #expect(none.changes.isEmpty)
  }

  /// The reference must be within the period's tolerance of exactly one period before: the
  /// hour's is 5 minutes, so an hour's history that ends 10 minutes early says nothing.
  @Test func theReference_mustBeWithinThePeriodsTolerance() {
    #expect(ChangePeriod.hour.tolerance == .seconds(300))
    #expect(ChangePeriod.day.tolerance == .seconds(900))
    #expect(ChangePeriod.week.tolerance == .seconds(7_200))
    #expect(ChangePeriod.month.tolerance == .seconds(32_400))
    let early = quote("68901.23", at: quoteTime.addingTimeInterval(-3_600 * 30))
    #expect(TwentyFourHourChange.of(early, over: .hour, in: Self.day) == nil)
    #expect(TwentyFourHourChange.of(quote("68901.23"), over: .hour, in: Self.day) != nil)
  }

  @Test func theJSONLine_carriesChanges_keyedInOrder_afterChange24h() {
    let state = presenter.present(
      .fresh(quote("68901.23")), histories: [.day: Self.day, .month: Self.month])

    let line = JSONLineRenderer.render(state)

    #expect(
      line.contains(
        #""change24h":{"absolute":"901.23","percent":"1.33","since":"2026-11-21T14:05:00Z"},"#
          + #""changes":{"1h":{"absolute":"201.23","percent":"0.29","since":"#), "\(line)")
    #expect(line.contains(#""24h":{"absolute":"901.23""#))
    #expect(line.contains(#""30d":{"absolute":"18901.23","percent":"37.80","since":"#))
    #expect(!line.contains(#""7d""#))
    #expect(!JSONLineRenderer.render(presenter.present(.fresh(quote("1")))).contains("changes"))
  }

  @Test func aTemplate_showsThePeriodsItNames_andAsksOnlyForTheirRanges() throws {
    let template = try PriceTemplate("{change_1h_pct} {change_7d} {change_30d_pct}")

    #expect(template.periodsShown == [.hour, .week, .month])
    #expect(try PriceTemplate("{price}").periodsShown.isEmpty)
    #expect(try PriceTemplate("{change_1h}").periodsShown == [.hour])
  }
}
