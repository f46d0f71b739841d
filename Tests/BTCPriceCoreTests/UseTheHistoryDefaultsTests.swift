import BTCPriceCore
import BTCPriceTestSupport
import Testing

/// The history's ranges and pace, pinned as ``PriceDefaultsTests`` pins the price's.
@Suite("Use the documented history defaults", .hangLimit(.seconds(30)))
struct UseTheHistoryDefaultsTests {
  @Test(arguments: [
    (ChartRange.day, Duration.seconds(86_400), Duration.seconds(300), 290),
    (.week, .seconds(7 * 86_400), .seconds(3_600), 170),
    (.month, .seconds(30 * 86_400), .seconds(6 * 3_600), 122),
  ])
  func eachRange_isDrawnFromCandlesOfItsPeriodAskedInOneRequest(
    range: ChartRange, duration: Duration, period: Duration, count: Int
  ) {
    #expect(range.duration == duration)
    #expect(range.period == period)
    #expect(range.candleCount(of: period) == count)
    // Coinbase's 300 is the smallest limit of the exchanges' requests.
    #expect(count <= 300)
  }

  @Test func aSourceWithoutTheRangesPeriod_asksForMoreOfAShorterOne() {
    // Kraken has no 6-hour candles: the month from 4-hour ones.
    #expect(ChartRange.month.candleCount(of: .seconds(4 * 3_600)) == 182)
  }

  @Test func theDayIsFetchedFourTimesAnHour_theWeekAndMonthHourly() {
    #expect(ChartRange.day.refreshInterval == .seconds(900))
    #expect(ChartRange.week.refreshInterval == .seconds(3_600))
    #expect(ChartRange.month.refreshInterval == .seconds(3_600))
  }

  @Test func aFailedFetchIsRetriedAfterTwoMinutes_eachSourceGets5sOf15() {
    #expect(PriceDefaults.historyRetryAfterFailure == .seconds(120))
    #expect(PriceDefaults.historySourceTimeout == .seconds(5))
    #expect(PriceDefaults.historyBudget == .seconds(15))
  }

  @Test func aRunKeepsTheHistory_andItsFirstTickWaitsForItAtMostTwoSeconds() {
    #expect(PriceDefaults.history)
    #expect(PriceDefaults.historyFirstTickWait == .seconds(2))
  }

  @Test(arguments: [("24h", ChartRange.day), ("7D", .week), ("30d", .month)])
  func aRange_isNamedAsTheCommandLineWritesIt(name: String, range: ChartRange) {
    #expect(ChartRange.named(name) == range)
  }

  @Test func anUnknownRange_isNone() {
    #expect(ChartRange.named("1y") == nil)
  }
}
