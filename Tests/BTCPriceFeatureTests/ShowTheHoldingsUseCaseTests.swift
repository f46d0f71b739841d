import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// What the user holds, worded by the terminal's presenter on every tick with a price: the
/// worth at the shown price, its change over 24 hours where the day's history can say, the gain
/// over a cost basis in the shown currency; `--json`'s `holdings` in exact decimals. A presenter
/// given no holdings (every other view's) words none.
@Suite("Show the holdings", .hangLimit(.seconds(30)))
struct ShowTheHoldingsUseCaseTests {
  /// 2026-11-22 14:00 UTC; the quote is received at 14:03:05.
  static let end: TimeInterval = 1_795_356_000
  /// The day's 5-minute candles, flat at 68,000: the price 24 hours before the quote.
  static let day = CandleSeries.day(endingAt: end - 300) { _ in "68000.00" }

  private func presenter(_ amount: String, costBasis: String? = nil, currency: Currency = .usd)
    throws -> PricePresenter
  {
    PricePresenter(
      timestamps: .utc(precision: .seconds), currency: currency,
      holdings: Holdings(
        amount: try Holdings.amount(parsing: amount),
        costBasis: try costBasis.map { try Holdings.CostBasis(parsing: $0) }))
  }

  @Test func aFreshPrice_showsTheWorth_roundedHalfUpToTheCent_andTheGain() throws {
    let state = try presenter("0.25", costBasis: "15000 USD").present(.fresh(quote("68901.23")))

    let holdings = try #require(state.holdings)
    #expect(holdings.amountText == "0.25 BTC")
    #expect(holdings.valueText == "$17,225.31", "0.25 × 68,901.23 = 17,225.3075")
    #expect(holdings.change24h == nil, "without the day's history: absent, never zero")
    #expect(holdings.gain?.text == "▲ +$2,225.31 (+14.84%)")
    #expect(holdings.gain?.label == "since bought")
    #expect(
      holdings.record
        == HoldingsRecord(
          amount: "0.25", value: "17225.31", change24h: nil,
          pnl: .init(absolute: "2225.31", percent: "14.84")))
  }

  @Test func theDaysHistory_givesTheWorthsChangeOver24Hours() throws {
    let state = try presenter("0.25").present(
      .fresh(quote("68901.23")), histories: [.day: Self.day])

    let change = try #require(state.holdings?.change24h)
    #expect(change.amountText == "+$225.31", "0.25 × 901.23 = 225.3075")
    #expect(change.percentText == "+1.33%")
    #expect(change.label == "in 24 hours")
    #expect(state.holdings?.record.change24h == "225.31")
  }

  @Test func aLoss_isSignedAndPointsDown() throws {
    let state = try presenter("0.25", costBasis: "20000 usd").present(.fresh(quote("68901.23")))

    #expect(state.holdings?.gain?.direction == .down)
    #expect(state.holdings?.gain?.amountText == "-$2,774.69")
    #expect(state.holdings?.record.pnl == .init(absolute: "-2774.69", percent: "-13.87"))
  }

  @Test func aCostBasisInAnotherCurrency_givesNoGain() throws {
    let state = try presenter("0.25", costBasis: "15000 EUR").present(.fresh(quote("68901.23")))

    #expect(state.holdings?.valueText == "$17,225.31")
    #expect(state.holdings?.gain == nil)
    #expect(state.holdings?.record.pnl == nil)
  }

  @Test func aCurrencyWithoutDecimals_isRoundedToWholeUnits() throws {
    let state = try presenter("0.25", costBasis: "2000000 JPY", currency: .jpy).present(
      .fresh(quote("10512345", currency: "JPY")))

    #expect(state.holdings?.valueText == "¥2,628,086", "0.25 × 10,512,345 = 2,628,086.25")
    #expect(state.holdings?.record.value == "2628086")
    #expect(state.holdings?.record.pnl?.absolute == "628086")
  }

  @Test func aStaleTick_valuesTheLastKnownPrice_andNothingKnownValuesNothing() throws {
    let presenter = try presenter("0.5")

    let stale = presenter.present(
      .stale(lastKnown: quote("68901.23"), failure: PriceFetchFailure(failures: [])))
    let unknown = presenter.present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(stale.holdings?.valueText == "$34,450.62", "0.5 × 68,901.23 = 34,450.615")
    #expect(unknown.holdings == nil)
    #expect(presenter.presentRestored(nil).holdings == nil)
  }

  @Test func aPresenterWithoutHoldings_wordsNone() {
    let state = PricePresenter(timestamps: .utc(precision: .seconds)).present(
      .fresh(quote("68901.23")), histories: [.day: Self.day])

    #expect(state.holdings == nil)
    #expect(!JSONLineRenderer.render(state).contains("holdings"))
  }

  @Test func theJSONLine_carriesTheHoldingsAfterTheSats() throws {
    let state = try presenter("0.25", costBasis: "15000 USD").present(
      .fresh(quote("68901.23")), histories: [.day: Self.day])

    let line = JSONLineRenderer.render(state)

    #expect(
      line.hasSuffix(
        #""satsPerUnit":"1451","holdings":{"amount":"0.25","value":"17225.31","#
          + #""change24h":"225.31","pnl":{"absolute":"2225.31","percent":"14.84"}}}"#))
  }
}
