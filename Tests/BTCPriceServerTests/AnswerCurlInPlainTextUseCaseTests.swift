import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceServer

/// Who gets text from `GET /` (curl, Wget, HTTPie, or anyone asking for `text/plain`) and what
/// the text is: the price line, the day's change, the day's chart in plain characters.
@Suite("Answer curl in plain text", .hangLimit(.seconds(30)))
struct AnswerCurlInPlainTextUseCaseTests {
  @Test(
    arguments: [
      (nil, "curl/8.5.0", true), ("*/*", "curl/7.88.1", true), ("*/*", "Wget/1.21.3", true),
      ("*/*", "HTTPie/3.2.2", true), ("application/json, */*;q=0.5", "HTTPie/3.2.2", false),
      ("text/plain", nil, true), ("text/plain;q=0.9, */*;q=0.1", "Mozilla/5.0", true),
      ("text/html,application/xhtml+xml,*/*;q=0.8", "Mozilla/5.0", false),
      ("text/html", "curl/8.5.0", false), ("text/plain, text/html", nil, false),
      ("*/*", "Mozilla/5.0", false), (nil, nil, false), ("*/*", "python-requests/2.32", false),
      ("TEXT/PLAIN", nil, true), ("*/*", "CURL/8.5.0", true),
    ] as [(String?, String?, Bool)])
  func whoGetsText(accept: String?, userAgent: String?, wanted: Bool) {
    #expect(PlainTextAnswer.isWanted(accept: accept, userAgent: userAgent) == wanted)
  }

  @Test func theText_isThePriceLine_theDaysChange_andTheChart() throws {
    let presenter = PricePresenter(timestamps: .utc(precision: .seconds))
    let day = CandleSeries.day(endingAt: 1_795_356_000) { "\(68_000 + $0)" }
    let state = presenter.present(.fresh(quote("68901.23")), dayHistory: day)
    let chart = try #require(
      ChartPresenter(timestamps: .utc(precision: .minutes)).present(
        day, range: .day, current: state.quote, now: quoteTime))

    let text = PlainTextAnswer.render(PriceBroadcaster(initial: state).publish(state, chart: chart))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    #expect(lines[0] == "Nov 22, 14:03:05 - $68,901.23")
    #expect(lines[1] == "▲ +$900.23 (+1.32%) in 24 hours")
    #expect(lines[2] == "")
    #expect(lines[3].hasPrefix("BTC/USD, last 24 hours · Binance"), "\(text)")
    #expect(lines.dropFirst(3).dropLast().count == PlainTextAnswer.chartHeight, "\(text)")
    #expect(lines.allSatisfy { $0.count <= PlainTextAnswer.chartWidth })
    #expect(text.hasSuffix("\n"))
    #expect(!text.contains("\u{1B}"), "no colours for a pipe")
  }

  @Test func stale_orNothingKnown_saysSoAsTheTerminalDoes() {
    let presenter = PricePresenter(timestamps: .utc(precision: .seconds))
    let failure = PriceFetchFailure(failures: [])
    let stale = presenter.present(.stale(lastKnown: quote("68901.23"), failure: failure))
    let unknown = presenter.present(.stale(lastKnown: nil, failure: failure))

    #expect(
      PlainTextAnswer.render(PriceBroadcaster(initial: stale).latest)
        == "Failed to update value. Displaying last updated value from Nov 22, 14:03:05 - "
        + "$68,901.23\n")
    #expect(
      PlainTextAnswer.render(PriceBroadcaster(initial: unknown).latest)
        == "Failed to update value. Displaying last updated value from - - -\n")
  }
}
