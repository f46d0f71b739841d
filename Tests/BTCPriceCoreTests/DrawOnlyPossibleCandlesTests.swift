import BTCPriceCore
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Draw only possible candles, in order", .hangLimit(.seconds(30)))
struct DrawOnlyPossibleCandlesTests {
  @Test(arguments: [
    ("68900", "69000", "68800", "68950"),  // an ordinary candle
    ("68800", "69000", "68800", "69000"),  // open at the low, close at the high
    ("69000", "69000", "68800", "68800"),  // open at the high, close at the low
    ("68900", "68900", "68900", "68900"),  // one trade: low equals high
  ])
  func candle_acceptsPricesBetweenItsLowAndHigh(
    open: String, high: String, low: String, close: String
  ) throws {
    let candle = try candle(open, high, low, close)

    #expect(candle.open == Decimal(string: open))
    #expect(candle.close == Decimal(string: close))
  }

  @Test func candle_refusesAHighBelowItsLow() {
    #expect(throws: CandleError.highBelowLow(high: 68799.99, low: 68800, start: start)) {
      try candle("68800", "68799.99", "68800", "68800")
    }
  }

  @Test(arguments: [
    ("68799.99", "69000", "68800", "68900", "open"),
    ("69000.01", "69000", "68800", "68900", "open"),
    ("68900", "69000", "68800", "68799.99", "close"),
    ("68900", "69000", "68800", "69000.01", "close"),
  ])
  func candle_refusesAnOpenOrCloseOutsideItsLowAndHigh(
    open: String, high: String, low: String, close: String, field: String
  ) {
    #expect {
      try candle(open, high, low, close)
    } throws: { error in
      guard case .outsideRange(let named, _, _, _, _) = error as? CandleError else { return false }
      return named == field
    }
  }

  @Test(arguments: [
    ("0", "69000", "68800", "68900", "open"), ("68900", "69000", "-1", "68900", "low"),
    ("68900", "0", "0", "68900", "high"), ("68900", "69000", "68800", "-0.01", "close"),
  ])
  func candle_refusesAPriceAtOrBelowZero(
    open: String, high: String, low: String, close: String, field: String
  ) {
    #expect {
      try candle(open, high, low, close)
    } throws: { error in
      guard case .notPositive(let named, _, _) = error as? CandleError else { return false }
      return named == field
    }
  }

  @Test func series_acceptsCandlesOnePeriodApartOrMore() throws {
    // Gaps are allowed: no candle is published for a period without trades.
    let candles = [Candle.flat(0, "1"), .flat(300, "2"), .flat(1_500, "3")]

    let series = try CandleSeries(
      currency: .usd, period: .seconds(300), candles: candles, source: .kraken,
      fetchedAt: Date(timeIntervalSince1970: 1_600))

    #expect(series.candles == candles)
    #expect(series.start == Date(timeIntervalSince1970: 0))
    #expect(series.end == Date(timeIntervalSince1970: 1_800))
  }

  @Test func series_refusesTwoCandlesAtTheSameTime() {
    #expect(throws: CandleError.duplicateTime(Date(timeIntervalSince1970: 300))) {
      try series([.flat(0, "1"), .flat(300, "2"), .flat(300, "3")])
    }
  }

  @Test func series_refusesACandleBeforeTheOneItFollows() {
    let error = CandleError.outOfOrder(
      start: Date(timeIntervalSince1970: 0), after: Date(timeIntervalSince1970: 300))
    #expect(throws: error) { try series([.flat(300, "1"), .flat(0, "2")]) }
  }

  @Test func series_refusesCandlesCloserThanAPeriod() {
    let error = CandleError.overlapping(
      start: Date(timeIntervalSince1970: 299), after: Date(timeIntervalSince1970: 0),
      period: .seconds(300))
    #expect(throws: error) { try series([.flat(0, "1"), .flat(299, "2")]) }
  }

  @Test func series_refusesNoCandles() {
    #expect(throws: CandleError.empty) { try series([]) }
  }

  @Test func candle_takesInALaterTradeAboveZero_evenBelowOne() throws {
    let widened = try candle("2", "3", "1", "2").including(Decimal(string: "0.5")!)

    #expect(widened.low == Decimal(string: "0.5"))
    #expect(widened.close == Decimal(string: "0.5"))
    #expect(widened.high == 3)
  }

  @Test(arguments: ["0", "-0.5"])
  func candle_leavesAPriceThatIsNotAboveZeroOut(price: String) throws {
    let candle = try candle("2", "3", "1", "2")

    let unchanged = candle.including(Decimal(string: price)!)

    #expect(unchanged.low == 1)
    #expect(unchanged.close == 2)
  }

  @Test func candleError_namesTheCandleByItsStart() {
    #expect(
      CandleError.highBelowLow(high: 1, low: 2, start: Date(timeIntervalSince1970: 1_710_327_600))
        .description == "candle at 1710327600: high 1 is below low 2")
    #expect(
      CandleError.overlapping(
        start: Date(timeIntervalSince1970: 299), after: .init(timeIntervalSince1970: 0),
        period: .seconds(300)
      ).description == "candle at 299 starts less than 5 min after the one at 0")
  }

  private let start = Date(timeIntervalSince1970: 1_795_356_000)

  @discardableResult
  private func candle(_ open: String, _ high: String, _ low: String, _ close: String) throws
    -> Candle
  {
    try Candle(
      start: start, open: Decimal(string: open)!, high: Decimal(string: high)!,
      low: Decimal(string: low)!, close: Decimal(string: close)!)
  }

  private func series(_ candles: [Candle]) throws -> CandleSeries {
    try CandleSeries(
      currency: .usd, period: .seconds(300), candles: candles, source: .binance,
      fetchedAt: Date(timeIntervalSince1970: 2_000))
  }
}
