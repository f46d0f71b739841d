import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Render the live panel", .hangLimit(.seconds(30)))
struct LivePanelRendererTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func width80_showsPriceChangesSourceAndSparkline() {
    let (state, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])

    #expect(
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 80, colors: false) == [
          "BTC/USD  $68,901.23   $1 = 1,451 sats",
          "▼ -$48.77 (-0.07%) since last tick   ▲ +$101.23 (+0.15%) since start",
          "Last updated Nov 22, 14:03:05 from Binance",
          "▁█▆  low $68,800.00  high $68,950.00",
        ])
  }

  @Test func width80_withColours_paintsFallsRedRisesGreenAndDimsTheRange() {
    let (state, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])

    #expect(
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 80, colors: true) == [
          "BTC/USD  \u{1B}[1m\u{1B}[31m$68,901.23\u{1B}[0m\u{1B}[0m\u{1B}[2m   $1 = 1,451 sats\u{1B}[0m",
          "\u{1B}[31m▼ -$48.77 (-0.07%)\u{1B}[0m since last tick   \u{1B}[32m▲ +$101.23 (+0.15%)\u{1B}[0m since start",
          "Last updated Nov 22, 14:03:05 from Binance",
          "▁█▆\u{1B}[2m  low $68,800.00  high $68,950.00\u{1B}[0m",
        ])
  }

  @Test func theHoldings_standUnderThePrice_theirChangesWhereTheyFit() {
    let holder = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!),
      holdings: Holdings(amount: 0.25, costBasis: .init(total: 15_000, currency: .usd)))
    let (_, history) = holder.afterTicks(["68800.00", "68950.00", "68901.23"])
    let day = CandleSeries.day(endingAt: 1_795_356_000) { _ in "68000.00" }
    let state = holder.present(.fresh(quote("68901.23")), dayHistory: day)
    let trend = holder.presentTrend(history)

    let wide = LivePanelRenderer.render(state, trend: trend, width: 120, colors: false)
    let narrow = LivePanelRenderer.render(state, trend: trend, width: 60, colors: false)
    let narrowest = LivePanelRenderer.render(state, trend: trend, width: 30, colors: false)

    #expect(
      wide[1]
        == "0.25 BTC = $17,225.31   ▲ +$225.31 (+1.33%) in 24 hours   ▲ +$2,225.31 (+14.84%) "
        + "since bought")
    #expect(narrow[1] == "0.25 BTC = $17,225.31   ▲ +$225.31 (+1.33%) in 24 hours")
    #expect(narrowest[1] == "0.25 BTC = $17,225.31")
    #expect(
      !LivePanelRenderer.render(
        presenter.present(.fresh(quote("68901.23"))), trend: trend, width: 120, colors: false
      ).joined().contains("BTC ="), "no line without holdings")
  }

  @Test func width40_dropsTheSparklineAndStacksTheChanges() {
    let (state, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])

    #expect(
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 40, colors: false) == [
          "BTC/USD  $68,901.23   $1 = 1,451 sats",
          "▼ -$48.77 (-0.07%) since last tick",
          "▲ +$101.23 (+0.15%) since start",
          "Updated Nov 22, 14:03:05 · Binance",
        ])
  }

  @Test func the24HourChange_followsTheOtherChanges_onTheirLineWhenTheyFit() {
    let (_, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])
    let day = CandleSeries.day(endingAt: 1_795_356_000) { _ in "68000.00" }
    let state = presenter.present(.fresh(quote("68901.23")), dayHistory: day)

    #expect(
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 120, colors: false)[1]
        == "▼ -$48.77 (-0.07%) since last tick   ▲ +$101.23 (+0.15%) since start   "
        + "▲ +$901.23 (+1.33%) in 24 hours")
    #expect(
      Array(
        LivePanelRenderer.render(
          state, trend: presenter.presentTrend(history), width: 80, colors: false)[1...3]) == [
          "▼ -$48.77 (-0.07%) since last tick",
          "▲ +$101.23 (+0.15%) since start",
          "▲ +$901.23 (+1.33%) in 24 hours",
        ])
  }

  @Test func aTallTerminal_showsTheDaysChartInTheSparklinesPlace_thenTheSparkline_thenNeither() {
    let (_, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])
    let day = CandleSeries.day(endingAt: 1_795_356_000) { "\(68_000 + abs($0 - 145) * 10)" }
    let state = presenter.present(.fresh(quote("68901.23")), dayHistory: day)
    let chart = try! #require(
      ChartPresenter(timestamps: .utc(precision: .minutes))
        .present(day, range: .day, current: quote("68901.23"), now: quoteTime))
    func panel(height: Int?) -> [String] {
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 60, colors: false, chart: chart,
        height: height)
    }
    let head = [
      "BTC/USD  $68,901.23   $1 = 1,451 sats",
      "▼ -$48.77 (-0.07%) since last tick",
      "▲ +$101.23 (+0.15%) since start",
      "Last updated Nov 22, 14:03:05 from Binance",
    ]

    // 4 lines, at most 12 of chart, and the cursor's row.
    #expect(panel(height: 40).count == 4 + LivePanelRenderer.chartMaximumHeight)
    #expect(Array(panel(height: 40).prefix(5)) == head + ["BTC/USD, last 24 hours · Binance"])
    #expect(panel(height: 40).last == "▼ -$538.77 (-0.78%) in 24 hours")
    #expect(panel(height: 11).count == 10)
    // One row short of the chart's 6: the sparkline, and the 24-hour change above it.
    var withChange = head
    withChange.insert("▼ -$538.77 (-0.78%) in 24 hours", at: 3)
    #expect(panel(height: 10) == withChange + ["▁█▆  low $68,800.00  high $68,950.00"])
    // Not even the sparkline fits; without a known height it is there as ever.
    #expect(panel(height: 6) == withChange)
    #expect(panel(height: nil).count == 6)
  }

  @Test func stale_showsTheBannerOnItsOwnLinesAndNoChange() {
    var history = PriceHistory()
    history.record(presenter.present(.fresh(quote("68901.23"))))
    let stale = presenter.present(
      .stale(lastKnown: quote("68901.23"), failure: PriceFetchFailure(failures: [])))
    history.record(stale)

    #expect(
      LivePanelRenderer.render(
        stale, trend: presenter.presentTrend(history), width: 80, colors: false) == [
          "BTC/USD  $68,901.23   $1 = 1,451 sats",
          "• unchanged since last tick   • unchanged since start",
          "Last updated Nov 22, 14:03:05 from Binance",
          "Failed to update value. Displaying last updated value from Nov 22, 14:03:05",
          "▄  low $68,901.23  high $68,901.23",
        ])
    #expect(
      LivePanelRenderer.render(
        stale, trend: presenter.presentTrend(history), width: 40, colors: true
      ).contains(
        "\u{1B}[30;43mFailed to update value. Displaying last\u{1B}[0m"))
  }

  @Test func nothingKnown_showsPlaceholdersAndBanner() {
    let state = presenter.present(.stale(lastKnown: nil, failure: PriceFetchFailure(failures: [])))
    var history = PriceHistory()
    history.record(state)

    #expect(
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: 80, colors: false) == [
          "BTC/USD  -",
          "Last updated -",
          "Failed to update value. Displaying last updated value from -",
        ])
  }

  @Test func sparkline_keepsTheLast60Ticks() {
    let values = (1...75).map { "\(68_000 + $0).00" }
    let (state, history) = presenter.afterTicks(values)

    let lines = LivePanelRenderer.render(
      state, trend: presenter.presentTrend(history), width: 120, colors: false)

    let sparkline = Sparkline.render(history.recent)
    #expect(history.recent.count == 60)
    #expect(history.recent.first == Decimal(68_016))
    #expect(sparkline.count == 60)
    #expect(sparkline.first == "▁")
    #expect(sparkline.last == "█")
    #expect(lines.last == sparkline + "  low $68,016.00  high $68,075.00")
  }

  @Test func frame_movesUpOverThePreviousPanelAndClearsLeftovers() {
    #expect(
      LiveFrame.compose(["a", "b"], replacingHeight: 0) == "\u{1B}[2Ka\n\u{1B}[2Kb\n\u{1B}[J")
    #expect(LiveFrame.compose(["a"], replacingHeight: 3) == "\u{1B}[3F\u{1B}[2Ka\n\u{1B}[J")
  }

  // MARK: - Helpers

}

@Suite("Changes, sparklines and colour rules")
struct TerminalPiecesTests {
  @Test func sparkline_scalesBetweenLowAndHigh() {
    #expect(Sparkline.render([1, 2, 3, 4, 5, 6, 7, 8].map { Decimal($0) }) == "▁▂▃▄▅▆▇█")
    #expect(Sparkline.render([10, 10, 10].map { Decimal($0) }) == "▄▄▄")
    #expect(Sparkline.render([]) == "")
    // A move of cents is a move: the bars span whatever separates the low and the high.
    #expect(
      Sparkline.render(["68901.23", "68901.50", "68901.37"].map { Decimal(string: $0)! }) == "▁█▅")
  }

  @Test func colors_onlyOnATerminalWithoutNoColorOrDumbTerm() {
    #expect(ColorPolicy.useColors(isTerminal: true, environment: ["TERM": "xterm-256color"]))
    #expect(!ColorPolicy.useColors(isTerminal: false, environment: ["TERM": "xterm-256color"]))
    #expect(!ColorPolicy.useColors(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(
      ColorPolicy.useColors(isTerminal: true, environment: ["NO_COLOR": ""]),
      "an empty NO_COLOR does not count")
    #expect(!ColorPolicy.useColors(isTerminal: true, environment: ["TERM": "dumb"]))
  }

  @Test func plainLine_withColours_paintsThePriceByDirectionAndHighlightsTheBanner() {
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))
    let quote = PriceQuote(
      value: Decimal(string: "68901.23")!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
      source: .binance)
    let fresh = presenter.present(.fresh(quote))
    let stale = presenter.present(
      .stale(lastKnown: quote, failure: PriceFetchFailure(failures: [])))
    let up = presenter.presentChange(PriceChange(from: 1, to: 2))

    #expect(
      PlainLineRenderer.render(fresh, change: up, colors: true)
        == "Nov 22, 14:03:05 - \u{1B}[32m$68,901.23\u{1B}[0m")
    #expect(
      PlainLineRenderer.render(fresh, change: up, colors: false) == "Nov 22, 14:03:05 - $68,901.23")
    #expect(
      PlainLineRenderer.render(stale, change: up, colors: true)
        == "\u{1B}[30;43mFailed to update value. Displaying last updated value from Nov 22, 14:03:05\u{1B}[0m - $68,901.23"
    )
  }
}
