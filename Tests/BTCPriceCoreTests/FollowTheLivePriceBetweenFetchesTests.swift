import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Follow the live price between fetches", .hangLimit(.seconds(30)))
struct FollowTheLivePriceBetweenFetchesTests {
  // Three 5-minute candles: 0, 300 and 600 (the one under way, until 900).
  let series = CandleSeries.of([
    .at(0, "100", "110", "90", "105"), .at(300, "105", "120", "100", "115"),
    .at(600, "115", "118", "112", "116"),
  ])

  @Test func aPriceWithinTheLastCandlesPeriod_becomesItsCloseAndWidensItsRange() {
    let higher = series.extended(with: 125, at: date(899), keeping: .seconds(86_400))
    let lower = higher.extended(with: 111.5, at: date(899.9), keeping: .seconds(86_400))

    #expect(higher.candles.last == .at(600, "115", "125", "112", "125"))
    #expect(lower.candles.last == .at(600, "115", "125", "111.5", "111.5"))
    #expect(lower.candles.count == 3)
  }

  @Test func aPriceAtTheEndOfTheLastCandlesPeriod_opensTheNextCandleAtItsStart() {
    let extended = series.extended(with: 117, at: date(900), keeping: .seconds(86_400))

    #expect(extended.candles.count == 4)
    #expect(extended.candles.last == .flat(900, "117"))
    #expect(extended.candles[2] == series.candles[2])
  }

  @Test func aPriceAfterAGap_opensTheCandleOfItsOwnPeriodOnTheExchangesGrid() {
    let extended = series.extended(with: 117, at: date(2_000), keeping: .seconds(86_400))

    #expect(extended.candles.last == .flat(1_800, "117"))
  }

  @Test func aPriceOlderThanTheLastCandle_changesNothing() {
    #expect(series.extended(with: 200, at: date(599), keeping: .seconds(86_400)) == series)
  }

  @Test func aPriceAtOrBelowZero_changesNothing() {
    #expect(series.extended(with: 0, at: date(700), keeping: .seconds(86_400)) == series)
    #expect(series.extended(with: 0, at: date(1_000), keeping: .seconds(86_400)) == series)
    #expect(series.extended(with: -1, at: date(1_000), keeping: .seconds(86_400)) == series)
  }

  @Test func aPriceAboveZeroButBelowOne_opensACandleAllTheSame() {
    let extended = series.extended(
      with: Decimal(string: "0.5")!, at: date(1_000), keeping: .seconds(86_400))

    #expect(extended.candles.last == .flat(900, "0.5"))
  }

  @Test func aPriceAtExactlyTheLastCandlesStart_isTakenIn() {
    let extended = series.extended(with: 125, at: date(600), keeping: .seconds(86_400))

    #expect(extended.candles.last == .at(600, "115", "125", "112", "125"))
  }

  @Test func candlesThatEndedMoreThanTheRangeAgo_areDropped() {
    // Keeping 10 minutes at 1,200: the candle of 0 ended at 300, 15 minutes before; the candle of
    // 300 ended at 600, exactly 10 minutes before, and stays.
    let extended = series.extended(with: 117, at: date(1_200), keeping: .seconds(600))

    #expect(extended.candles.map(\.start) == [date(300), date(600), date(1_200)])
  }

  @Test func anExtendedSeries_keepsItsSourceAndWhenItWasFetched() {
    let extended = series.extended(with: 117, at: date(5_000), keeping: .seconds(600))

    #expect(extended.source == series.source)
    #expect(extended.fetchedAt == series.fetchedAt)
    #expect(extended.candles.count == 1)
  }

  private func date(_ seconds: TimeInterval) -> Date {
    Date(timeIntervalSince1970: seconds)
  }
}
