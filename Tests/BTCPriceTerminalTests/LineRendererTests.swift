import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Render terminal lines", .hangLimit(.seconds(30)))
struct LineRendererTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))
  let quote = PriceQuote(
    value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
    source: .binance)
  let failure = PriceFetchFailure(failures: [
    .init(source: .binance, error: .timedOut(after: .milliseconds(800))),
    .init(source: .cryptoCompare, error: .httpStatus(401, message: "API key \"required\"\n")),
  ])

  @Test func plain_rendersTimestampDashPrice() {
    #expect(
      PlainLineRenderer.render(presenter.present(.fresh(quote))) == "Nov 22, 14:03:05 - $68,901.23")
  }

  @Test func plain_showsTheCrossChecksMajority_neverTheRejectedPrice() {
    let shown = BTCPriceTestSupport.quote("68880.55", source: .coinbase)
    let rejected = BTCPriceTestSupport.quote("6890.12", source: .binance)
    let state = presenter.present(
      .fresh(shown, crossCheck: .settled(shown, rejected: rejected, referee: .kraken)))

    #expect(PlainLineRenderer.render(state) == "Nov 22, 14:03:05 - $68,880.55")
  }

  @Test func plain_rendersBannerWithLastKnownValue() {
    #expect(
      PlainLineRenderer.render(presenter.present(.stale(lastKnown: quote, failure: failure)))
        == "Failed to update value. Displaying last updated value from Nov 22, 14:03:05 - $68,901.23"
    )
  }

  @Test func plain_rendersPlaceholdersWhenNothingIsKnown() {
    #expect(
      PlainLineRenderer.render(presenter.present(.stale(lastKnown: nil, failure: failure)))
        == "Failed to update value. Displaying last updated value from - - -")
  }

  @Test func json_rendersFreshQuoteWithKeysInFixedOrder() {
    #expect(
      JSONLineRenderer.render(presenter.present(.fresh(quote)))
        == #"{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","source":"binance","stale":false,"satsPerUnit":"1451"}"#
    )
  }

  @Test func json_rendersStaleLineWithLastKnownValueAndEscapedError() throws {
    let line = JSONLineRenderer.render(
      presenter.present(.stale(lastKnown: quote, failure: failure)))

    #expect(
      line
        == #"{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","source":"binance","stale":true,"error":"binance: timed out after 800 ms; cryptocompare: HTTP 401: API key \"required\"\n","satsPerUnit":"1451"}"#
    )
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["error"] as? String == failure.description)
  }

  @Test func json_staleLineCarriesTheReasonWhenThereIsOne() throws {
    let stale = presenter.present(.stale(lastKnown: nil, failure: failure))
    let object = try #require(
      try JSONSerialization.jsonObject(
        with: Data(JSONLineRenderer.render(stale, reason: "offline?").utf8)) as? [String: Any])
    #expect(object["reason"] as? String == "offline?")
    let fresh = JSONLineRenderer.render(presenter.present(.fresh(quote)), reason: "offline?")
    #expect(!fresh.contains("reason"))
  }

  @Test func json_rendersNullsWhenNothingIsKnown() {
    #expect(
      JSONLineRenderer.render(
        presenter.present(.stale(lastKnown: nil, failure: PriceFetchFailure(failures: []))))
        == #"{"timestamp":null,"price":null,"currency":"USD","source":null,"stale":true,"error":"no price sources configured"}"#
    )
  }

  @Test func json_keepsExactDecimalDigits() {
    let precise = PriceQuote(
      value: Decimal(string: "68901.23456789")!, timestamp: quote.timestamp, source: .cryptoCompare)

    #expect(
      JSONLineRenderer.render(presenter.present(.fresh(precise))).contains(
        #""price":"68901.23456789""#))
  }
}
