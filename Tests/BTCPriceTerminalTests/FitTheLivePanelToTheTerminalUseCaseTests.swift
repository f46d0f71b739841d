import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

@testable import BTCPriceTerminal

/// `--live` at the edges of the terminal: a line exactly as wide as the terminal is kept whole,
/// one column more is cut or moved; the panel never takes the last row, which is the cursor's.
@Suite("Fit the live panel to the terminal", .hangLimit(.seconds(30)))
struct FitTheLivePanelToTheTerminalUseCaseTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  // MARK: Width

  @Test func theTwoChanges_shareALineExactlyAsWideAsTheTerminal() {
    let changes = "▼ -$48.77 (-0.07%) since last tick   ▲ +$101.23 (+0.15%) since start"
    #expect(changes.count == 68)

    #expect(panel(width: 68)[1] == changes)
    #expect(
      panel(width: 67)[1...2] == [
        "▼ -$48.77 (-0.07%) since last tick", "▲ +$101.23 (+0.15%) since start",
      ])
  }

  @Test func theSourceLine_isWhole_atExactlyItsWidth_andShorterBelowIt() {
    #expect(panel(width: 42)[3] == "Last updated Nov 22, 14:03:05 from Binance")
    #expect(panel(width: 41)[3] == "Updated Nov 22, 14:03:05 · Binance")
  }

  @Test func aTerminalNarrowerThanTwentyColumns_isDrawnTwentyWide_cuttingWithAnEllipsis() {
    let narrow = panel(width: 10)

    #expect(narrow[0] == "BTC/USD  $68,901.23")
    #expect(narrow[3] == "Last updated Nov 22…")
    #expect(narrow.allSatisfy { $0.count <= 20 })
  }

  @Test func theSparkline_needsSixtyColumns_andRoomForItsRange() {
    let (state, history) = presenter.afterTicks((1...75).map { "\(68_000 + $0).00" })
    func lastLine(width: Int) -> String? {
      LivePanelRenderer.render(
        state, trend: presenter.presentTrend(history), width: width, colors: false
      ).last
    }
    // 60 bars and "  low $68,016.00  high $68,075.00": 93 columns.
    #expect(lastLine(width: 93)?.hasSuffix("  low $68,016.00  high $68,075.00") == true)
    #expect(lastLine(width: 92)?.hasPrefix("Last updated") == true)

    let short = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])
    func shortLast(width: Int) -> String? {
      LivePanelRenderer.render(
        short.0, trend: presenter.presentTrend(short.1), width: width, colors: false
      ).last
    }
    #expect(shortLast(width: 60) == "▁█▆  low $68,800.00  high $68,950.00")
    #expect(shortLast(width: 59) == "Last updated Nov 22, 14:03:05 from Binance")
  }

  @Test func theBanner_wrapsAtWordsThatFitTheWidthExactly() {
    let stale = presenter.present(
      .stale(lastKnown: quote("68901.23"), failure: PriceFetchFailure(failures: [])))

    let lines = LivePanelRenderer.render(
      stale, trend: presenter.presentTrend(PriceHistory()), width: 21, colors: false)

    #expect(
      Array(lines.suffix(4)) == [
        "Failed to update", "value. Displaying", "last updated value", "from Nov 22, 14:03:05",
      ])
  }

  @Test func aWordLongerThanTheWidth_isCutIntoWidths() {
    #expect(
      LivePanelRenderer.wrap("abc defghijklmnopqrstuvwxyz0123456789 z", width: 10) == [
        "abc", "defghijklm", "nopqrstuvw", "xyz0123456", "789 z",
      ])
    #expect(LivePanelRenderer.wrap("abcdefghij", width: 10) == ["abcdefghij"])
  }

  // MARK: Height

  @Test func theChart_takesAtMostTwelveLines() {
    #expect(chartPanel(height: 40).count == 4 + 12)
    #expect(chartPanel(height: 40, alert: true).count == 4 + 12 + 1)
  }

  @Test func anAlertLine_takesItsRowFromTheChart() {
    // 4 lines, the chart's 6 at least, the alert and the cursor's row: 12 rows.
    let fits = chartPanel(height: 12, alert: true)
    #expect(fits.count == 11)
    #expect(fits[4] == "BTC/USD, last 24 hours · Binance")
    #expect(fits.last == "Alert: above $100,000.00 (Nov 22, 14:03:05)")

    // One row less: the sparkline's panel, the 24-hour change among the head's lines.
    #expect(
      chartPanel(height: 11, alert: true) == [
        "BTC/USD  $68,901.23   $1 = 1,451 sats",
        "▼ -$48.77 (-0.07%) since last tick",
        "▲ +$101.23 (+0.15%) since start",
        "▼ -$538.77 (-0.78%) in 24 hours",
        "Last updated Nov 22, 14:03:05 from Binance",
        "▁█▆  low $68,800.00  high $68,950.00",
        "Alert: above $100,000.00 (Nov 22, 14:03:05)",
      ])
  }

  @Test func theSparkline_takesTheLastFreeRow_butNotTheCursors() {
    // 5 lines with the 24-hour change, the sparkline and the cursor's row: 7 rows.
    #expect(chartPanel(height: 7, chart: false).count == 6)
    #expect(chartPanel(height: 7, chart: false).last?.hasSuffix("high $68,950.00") == true)
    #expect(chartPanel(height: 6, chart: false).count == 5)
    // With an alert the same 7 rows hold no sparkline.
    #expect(chartPanel(height: 7, chart: false, alert: true).count == 6)
    #expect(chartPanel(height: 8, chart: false, alert: true).count == 7)
  }

  @Test func theChart_isDrawnInBraille_withColours_andInPlainCharacters_without() {
    func braille(_ lines: [String]) -> Bool {
      lines.contains { $0.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }
    }

    #expect(braille(chartPanel(height: 40, colors: true)))
    #expect(!braille(chartPanel(height: 40, colors: false)))
  }

  // MARK: The frame

  @Test func aFrame_movesUpOverAPanelOfOneLine_andNoneOverNothing() {
    #expect(LiveFrame.compose(["a"], replacingHeight: 1) == "\u{1B}[1F\u{1B}[2Ka\n\u{1B}[J")
    #expect(LiveFrame.erase(height: 1) == "\u{1B}[1F\u{1B}[J")
    #expect(LiveFrame.erase(height: 0) == "\u{1B}[J")
  }

  // MARK: - Helpers

  private func panel(width: Int) -> [String] {
    let (state, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])
    return LivePanelRenderer.render(
      state, trend: presenter.presentTrend(history), width: width, colors: false)
  }

  /// At 60 columns, after three ticks, with the day's history; the chart when `chart`.
  private func chartPanel(
    height: Int, chart: Bool = true, alert: Bool = false, colors: Bool = false
  ) -> [String] {
    let (_, history) = presenter.afterTicks(["68800.00", "68950.00", "68901.23"])
    let day = CandleSeries.day(endingAt: 1_795_356_000) { "\(68_000 + abs($0 - 145) * 10)" }
    var state = presenter.present(.fresh(quote("68901.23")), dayHistory: day)
    if alert {
      state.alert = presenter.presentAlerts([
        PriceAlert(
          rule: AlertRule(.above(100_000)), direction: .up, quote: quote("100012"),
          reference: 100_000)
      ])
    }
    let drawn = ChartPresenter(timestamps: .utc(precision: .minutes))
      .present(day, range: .day, current: quote("68901.23"), now: quoteTime)
    return LivePanelRenderer.render(
      state, trend: presenter.presentTrend(history), width: 60, colors: colors,
      chart: chart ? drawn : nil, height: height)
  }

}
