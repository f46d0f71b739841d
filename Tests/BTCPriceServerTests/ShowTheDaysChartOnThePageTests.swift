import BTCPriceCore
import BTCPriceFeature
import BTCPricePublish
import BTCPriceServer
import BTCPriceTestSupport
import Foundation
import Testing

/// The page draws the day's chart and the 24-hour change from what each event carries, worded
/// and placed by the presenter: in the HTML of the latest tick, in the stream's event (which
/// `publish` carries to the edges unchanged), and nothing of it without a price history.
@Suite("Show the day's chart on the page", .hangLimit(.seconds(30)))
struct ShowTheDaysChartOnThePageTests {
  static let day = CandleSeries.day(endingAt: 1_795_356_000) { "\(68_000 + abs($0 - 145) * 10)" }
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds))

  @Test func aTickWithAChart_isDrawnInTheHTML_andCarriedInTheEvent() throws {
    let tick = quote("68901.23")
    let chart = ChartPresenter(timestamps: .utc(precision: .minutes))
      .present(Self.day, range: .day, current: tick, now: quoteTime)
    let broadcaster = PriceBroadcaster(initial: presenter.presentRestored(nil))

    let event = broadcaster.publish(
      presenter.present(.fresh(tick), dayHistory: Self.day), chart: chart)
    let html = PricePage.render(latest: event)

    #expect(html.contains(#"<figure id="chart" class="chart" data-direction="down">"#))
    #expect(html.contains(#"<span id="chart-title">BTC/USD, last 24 hours · Binance</span>"#))
    #expect(html.contains(#"<span class="at-16" data-time="2026-11-21T18:00:00Z">18:00</span>"#))
    #expect(html.contains(#"<span id="chart-high" class="chart-high">high $69,440.00</span>"#))
    #expect(html.contains(#"data-direction="down">▼ -$538.77 (-0.78%) in 24 hours</p>"#))
    #expect(html.contains(#"aria-label="Price over the last 1 ticks" hidden>"#))
    #expect(!html.contains("style="), "the page's policy allows no inline style")
    #expect(event.data.contains(#","chart":{"title":"BTC/USD, last 24 hours · Binance","#))
    #expect(event.data.contains(#""change24h":{"absolute":"-538.77","percent":"-0.78","#))
  }

  @Test func theTimeMarks_carryTheirInstantInUTC_forThePageToWordInTheViewersZone() throws {
    // A server in India words its marks at its own midnight and sixes; each mark's instant is
    // UTC whatever the server's zone, and the page's script writes it in the viewer's.
    let india = TimestampFormatter(
      precision: .minutes, timeZone: try #require(TimeZone(identifier: "Asia/Kolkata")))
    let tick = quote("68901.23")
    let chart = ChartPresenter(timestamps: india)
      .present(Self.day, range: .day, current: tick, now: quoteTime)
    let broadcaster = PriceBroadcaster(initial: presenter.presentRestored(nil))

    let event = broadcaster.publish(
      presenter.present(.fresh(tick), dayHistory: Self.day), chart: chart)
    let html = PricePage.render(latest: event)

    #expect(html.contains(#"data-time="2026-11-21T18:30:00Z">00:00</span>"#))
    #expect(event.data.contains(#"{"at":19,"text":"00:00","time":"2026-11-21T18:30:00Z"}"#))
    let script = EdgeFiles.all().first { $0.name == "app.js" }?.contents ?? ""
    #expect(script.contains("span.textContent = (mark.time && timeOfDay(mark.time)) || mark.text;"))
    #expect(script.contains(##"document.querySelectorAll("#chart-times span[data-time]")"##))
  }

  @Test func withoutAHistory_theChartAndTheChangeAreHidden() {
    let broadcaster = PriceBroadcaster(initial: presenter.presentRestored(nil))

    let event = broadcaster.publish(presenter.present(.fresh(quote("68901.23"))))
    let html = PricePage.render(latest: event)

    #expect(html.contains(#"<figure id="chart" class="chart" data-direction="none" hidden>"#))
    #expect(html.contains(#"<p id="change24h" class="change24h" data-direction="none" hidden>"#))
    #expect(html.contains(#"aria-label="Price over the last 1 ticks">"#))
    #expect(event.data.hasSuffix(#""chart":null}}"#))
  }

  @Test func theStylesheet_placesEveryWholePercentOfTheTimeAxis_insideTheBoxNearItsEdges() {
    let stylesheet = EdgeFiles.all().first { $0.name == "app.css" }?.contents ?? ""
    #expect(stylesheet.contains(".chart-times .at-0 { left: 0%; transform: none; }"))
    #expect(stylesheet.contains(".chart-times .at-50 { left: 50%; }"))
    #expect(
      stylesheet.contains(".chart-times .at-100 { left: 100%; transform: translateX(-100%); }"))
  }
}
