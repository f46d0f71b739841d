import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Show alerts in the terminal", .hangLimit(.seconds(30)))
struct ShowAlertsInTheTerminalTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func thePlainLine_marksTheTickThatFired() {
    #expect(
      PlainLineRenderer.render(fired)
        == "Nov 22, 14:03:05 - $100,012.00 - Alert: above $100,000.00")
    #expect(PlainLineRenderer.render(quiet) == "Nov 22, 14:03:05 - $100,012.00")
  }

  @Test func theJSONLine_endsWithTheAlerts() {
    #expect(
      JSONLineRenderer.render(fired)
        == #"{"timestamp":"2026-11-22T14:03:05Z","price":"100012","currency":"USD","source":"binance","stale":false,"satsPerUnit":"1000","alerts":[{"rule":"above:100000","direction":"up","text":"above $100,000.00","title":"BTC above $100,000.00","body":"$100,012.00 at Nov 22, 14:03:05 from Binance"}]}"#
    )
    #expect(!JSONLineRenderer.render(quiet).contains("alerts"))
  }

  @Test func waybar_hasItsOwnClassAndTheAlertInTheTooltip() {
    let line = WaybarRenderer.render(fired, change: nil)

    #expect(line.hasSuffix(#""class":"alert"}"#))
    #expect(line.contains(#""alt":"alert""#))
    #expect(line.contains(#"\nAlert: above $100,000.00 (Nov 22, 14:03:05)""#))
  }

  @Test func theTemplatesAlertPlaceholder_isTheAlertOrNothing() throws {
    let template = try PriceTemplate("{price}{alert}")

    #expect(template.render(fired, change: nil) == "$100,012.00above $100,000.00")
    #expect(template.render(quiet, change: nil) == "$100,012.00")
  }

  @Test func theLivePanel_keepsTheLastAlertAndRingsTheBellOnce() throws {
    let output = Locked<[String]>([])
    let sut = TerminalSession(
      mode: .live(colors: false), presenter: presenter, write: { output.append($0) },
      width: { 80 })

    try sut.show(quiet)
    try sut.show(fired)
    try sut.show(quiet)

    let frames = output.value.filter { $0.contains("BTC/USD") }
    #expect(frames.count == 3)
    #expect(!frames[0].contains("Alert:"))
    #expect(frames[1].contains("Alert: above $100,000.00 (Nov 22, 14:03:05)"))
    #expect(frames[2].contains("Alert: above $100,000.00 (Nov 22, 14:03:05)"))
    #expect(output.value.joined().filter { $0 == "\u{07}" }.count == 1)
  }

  // MARK: Helpers

  private var quiet: PriceViewState {
    presenter.present(.fresh(quote))
  }

  private var fired: PriceViewState {
    var state = presenter.present(.fresh(quote))
    state.alert = presenter.presentAlerts([
      PriceAlert(
        rule: AlertRule(.above(100_000)), direction: .up, quote: quote, reference: 100_000)
    ])
    return state
  }

  private var quote: PriceQuote {
    PriceQuote(
      value: 100_012, timestamp: Date(timeIntervalSince1970: 1_795_356_185), source: .binance)
  }
}
