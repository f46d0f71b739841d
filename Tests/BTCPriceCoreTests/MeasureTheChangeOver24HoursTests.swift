import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Measure the change over 24 hours", .hangLimit(.seconds(30)))
struct MeasureTheChangeOver24HoursTests {
  static let day: TimeInterval = 86_400
  // Candles of 5 minutes from 0 to 2 days, each flat at 1,000 + its index, except the one of
  // 86,400 (the day after 0): open 2,000, close 2,002.
  let series = CandleSeries.of(
    (0..<576).map { index in
      let start = TimeInterval(index * 300)
      return start == day
        ? .at(start, "2000", "2002", "2000", "2002") : .flat(start, "\(1_000 + index)")
    })

  @Test func theChange_isAgainstThePriceTheHistoryKnewADayBefore() throws {
    let change = try #require(
      TwentyFourHourChange.of(
        quote("2500", at: Date(timeIntervalSince1970: 2 * Self.day)), in: series))

    #expect(change.reference == 2000)
    #expect(change.referenceTime == Date(timeIntervalSince1970: Self.day))
    #expect(change.current == 2500)
    #expect(change.amount == 500)
  }

  @Test func aTimeInsideACandle_takesTheNearerOfItsOpenAndItsClose() throws {
    let nearOpen = try #require(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: 2 * Self.day + 149)), in: series))
    let nearClose = try #require(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: 2 * Self.day + 151)), in: series))

    #expect(nearOpen.reference == 2000)
    #expect(nearClose.reference == 2002)
    #expect(nearClose.referenceTime == Date(timeIntervalSince1970: Self.day + 300))
  }

  @Test func aGapOfUpTo15Minutes_stillGivesTheChange() throws {
    // Candles up to 86,400 (ending 86,700), then none until 88,500: a day after 87,600 is 15
    // minutes from both edges.
    let gapped = CandleSeries.of([.flat(86_100, "10"), .flat(86_400, "11"), .flat(88_500, "12")])

    let change = try #require(
      TwentyFourHourChange.of(
        quote("20", at: Date(timeIntervalSince1970: 87_600 + Self.day)), in: gapped))
    #expect(change.reference == 11)
    #expect(TwentyFourHourChange.tolerance == .seconds(900))
  }

  @Test func aReferenceMoreThan15MinutesOff_isNoChange() {
    // Candles up to 86,700, then none until 88,502: a day after 87,601 is 901 s from both edges.
    let gapped = CandleSeries.of([.flat(86_100, "10"), .flat(86_400, "11"), .flat(88_502, "12")])

    #expect(
      TwentyFourHourChange.of(
        quote("20", at: Date(timeIntervalSince1970: 87_601 + Self.day)), in: gapped) == nil)
  }

  @Test func aHistoryThatDoesNotReachBackADay_isNoChange() {
    // The history starts at 0: a day before a price at 86,400 - 901 is 901 s before it.
    #expect(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: Self.day - 901)), in: series) == nil)
    #expect(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: Self.day - 900)), in: series) != nil)
  }

  @Test func aHistoryThatEndedMoreThanADayBeforeThePrice_isNoChange() {
    // The last candle ends at 172,800: a price a day and 15 minutes after that has no reference.
    #expect(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: 3 * Self.day + 901)), in: series) == nil)
    #expect(
      TwentyFourHourChange.of(
        quote("1", at: Date(timeIntervalSince1970: 3 * Self.day + 900)), in: series) != nil)
  }

  @Test func noHistory_orOneInAnotherCurrency_isNoChange() {
    let euros = CandleSeries.of(series.candles, currency: .eur)

    #expect(
      TwentyFourHourChange.of(quote("1", at: Date(timeIntervalSince1970: 2 * Self.day)), in: nil)
        == nil)
    #expect(
      TwentyFourHourChange.of(quote("1", at: Date(timeIntervalSince1970: 2 * Self.day)), in: euros)
        == nil)
  }

  @Test func theWindow_isADay() {
    #expect(TwentyFourHourChange.window == .seconds(86_400))
  }
}
