import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Present the alerts a tick fired", .hangLimit(.seconds(30)))
struct PresentAlertsUseCaseTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func theRules_areListedInOneLine() {
    let rules = ["above:100000", "move:2%/15m"].map { try! AlertRule.parse($0) }

    #expect(
      presenter.presentRules(rules) == "Alerts: above $100,000.00 · up or down 2% within 15 min")
    #expect(presenter.presentRules([]) == nil)
  }

  @Test func noAlerts_isNoState() {
    #expect(presenter.presentAlerts([]) == nil)
  }

  @Test func aThresholdAlert_isWordedInTheQuotesCurrency() throws {
    let state = try #require(presenter.presentAlerts([alert("above:100000", .up, "100012")]))

    #expect(state.text == "above $100,000.00")
    #expect(state.panelText == "Alert: above $100,000.00 (Nov 22, 14:03:05)")
    #expect(state.items.first?.title == "BTC above $100,000.00")
    #expect(state.items.first?.body == "$100,012.00 at Nov 22, 14:03:05 from Binance")
  }

  @Test func aMove_namesItsWayPercentAndWindow() throws {
    let state = try #require(
      presenter.presentAlerts([
        alert("move:2.5%/15m", .down, "97000"), alert("below:97500", .down, "97000"),
      ]))

    #expect(state.text == "down 2.5% within 15 min; below $97,500.00")
  }

  @Test func theCommandsEnvironment_carriesTheAlertExactly() throws {
    let state = try #require(presenter.presentAlerts([alert("below:90000", .down, "89999.10")]))

    #expect(
      state.items.first?.environment == [
        "BTC_PRICE_ALERT_RULE": "below:90000",
        "BTC_PRICE_ALERT_PRICE": "89999.1",
        "BTC_PRICE_ALERT_CURRENCY": "USD",
        "BTC_PRICE_ALERT_TIME": "2026-11-22T14:03:05Z",
        "BTC_PRICE_ALERT_SOURCE": "binance",
        "BTC_PRICE_ALERT_DIRECTION": "down",
        "BTC_PRICE_ALERT_TEXT": "BTC below $90,000.00: $89,999.10",
      ])
  }

  private func alert(_ rule: String, _ direction: PriceAlert.Direction, _ price: String)
    -> PriceAlert
  {
    PriceAlert(
      rule: try! AlertRule.parse(rule), direction: direction,
      quote: PriceQuote(
        value: Decimal(string: price)!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
        source: .binance),
      reference: 0)
  }
}
