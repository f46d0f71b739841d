import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Present the price in the chosen currency", .hangLimit(.seconds(30)))
struct PresentInCurrencyUseCaseTests {
  let binance = PriceSource(id: "binance", displayName: "Binance")
  let at = Date(timeIntervalSince1970: 1_795_356_185)

  @Test func present_showsAQuoteWithItsCurrencysSymbolAndPair() {
    let sut = makeSUT(currency: .eur)

    let state = sut.present(.fresh(quote("68901.23", currency: "EUR")))

    #expect(state.priceText == "€68,901.23")
    #expect(state.pairText == "BTC/EUR")
    #expect(state.record.currency == "EUR")
    #expect(state.record.price == "68901.23")
  }

  @Test func present_showsTheYenWithoutDecimalsAndKeepsTheExactRecord() {
    let state = makeSUT(currency: .jpy).present(.fresh(quote("5333330.8622", currency: "JPY")))

    #expect(state.priceText == "¥5,333,331")
    #expect(state.record.price == "5333330.8622")
  }

  @Test func present_namesTheRunsCurrencyWhenNothingIsKnown() {
    let state = makeSUT(currency: .chf).present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(state.priceText == "-")
    #expect(state.pairText == "BTC/CHF")
    #expect(state.record.currency == "CHF")
  }

  @Test func presentTrend_wordsChangesAndRangeInTheRunsCurrency() {
    let sut = makeSUT(currency: .gbp)
    var history = PriceHistory()
    for value in ["54197.76", "54210.10", "54205.10"] {
      history.record(sut.present(.fresh(quote(value, currency: "GBP"))))
    }

    let trend = sut.presentTrend(history)

    #expect(trend.sinceLastTick?.text == "▼ -£5.00 (-0.01%)")
    #expect(trend.sinceStart?.text == "▲ +£7.34 (+0.01%)")
    #expect(trend.rangeText == "low £54,197.76  high £54,210.10")
  }

  @Test func present_inUSDByDefaultAsBefore() {
    let state = PricePresenter(timestamps: TimestampFormatter(precision: .seconds)).present(
      .stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))

    #expect(state.pairText == "BTC/USD")
    #expect(state.record.currency == "USD")
  }

  private func makeSUT(currency: Currency) -> PricePresenter {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!),
      currency: currency)
  }

}
