import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Draw the chart in the terminal", .hangLimit(.seconds(30)))
struct DrawTheChartInTheTerminalTests {
  @Test func onATerminal_aBrailleLineBetweenTheHighAndTheLowWithItsTimeAxisAndTheChange() {
    #expect(
      ChartRenderer.render(chart(), width: 40, height: 7, glyphs: .braille, colors: false) == [
        "BTC/USD, last 24 hours · Binance",
        "$69,120.00 ⠀⠀⠀⠀⠀⢀⠔⠓⠢⢄⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀",
        "           ⠀⠀⠀⢀⠔⠁⠀⠀⠀⠀⠈⠑⠢⢄⣀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⢀⣠",
        "           ⠀⢀⠔⠁⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠈⠒⠤⣀⠀⠀⠀⠀⠀⠀⢀⡠⠒⠁⠀",
        "$67,980.00 ⠔⠁⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠉⠒⠤⣀⠤⠊⠁⠀⠀⠀⠀",
        "              18:00  00:00  06:00  12:00",
        "▲ +$1,140.00 (+1.68%) in 24 hours",
      ])
  }

  @Test func inAPipeOrWithNoColor_theSameChartInAsterisks() {
    #expect(
      ChartRenderer.render(chart(), width: 40, height: 7, glyphs: .ascii, colors: false) == [
        "BTC/USD, last 24 hours · Binance",
        "$69,120.00       ***                    ",
        "               **   ****              **",
        "             **         *****     ****  ",
        "$67,980.00 **                *****      ",
        "              18:00  00:00  06:00  12:00",
        "▲ +$1,140.00 (+1.68%) in 24 hours",
      ])
  }

  @Test func withColours_theLineAndTheChangeTakeTheColourOfTheDirection() {
    let lines = ChartRenderer.render(chart(), width: 40, height: 5, glyphs: .ascii, colors: true)

    #expect(lines[0] == "$69,120.00 \u{1B}[32m      *****                  \u{1B}[0m")
    #expect(lines[4] == "\u{1B}[32m▲ +$1,140.00 (+1.68%)\u{1B}[0m in 24 hours")
  }

  @Test func aShorterTerminal_dropsTheTitleFirst_thenTheWholeChart() {
    let six = ChartRenderer.render(chart(), width: 40, height: 6, glyphs: .ascii, colors: false)
    let five = ChartRenderer.render(chart(), width: 40, height: 5, glyphs: .ascii, colors: false)
    let four = ChartRenderer.render(chart(), width: 40, height: 4, glyphs: .ascii, colors: false)

    #expect(six.count == 6)
    #expect(six[0] == "BTC/USD, last 24 hours · Binance")
    #expect(five.count == 5)
    #expect(five[0].hasPrefix("$69,120.00 "))
    #expect(five[2].hasPrefix("$67,980.00 "))
    #expect(four.isEmpty, "the caller shows the sparkline instead")
    #expect(ChartRenderer.minimumHeight == 5)
  }

  @Test func aNarrowTerminal_dropsThePriceLabelsAndSaysTheRangeBelow_thenTheWholeChart() {
    let narrow = ChartRenderer.render(
      chart(change: false), width: 30, height: 5, glyphs: .ascii, colors: false)
    let tooNarrow = ChartRenderer.render(
      chart(), width: 19, height: 7, glyphs: .ascii, colors: false)

    #expect(
      narrow == [
        "      *****                   ",
        "  ****     ********       ****",
        "**                 *******    ",
        "   18:00  00:00  06:00   12:00",
        "low $67,980.00  high $69,120.…",
      ])
    #expect(tooNarrow.isEmpty)
    #expect(ChartRenderer.minimumPlotWidth == 20)
  }

  @Test func theChange_comesBeforeTheRangeAndTheRangeGoesFirstWhenBothDoNotFit() {
    let wide = ChartRenderer.render(chart(), width: 70, height: 5, glyphs: .ascii, colors: false)
    let narrow = ChartRenderer.render(chart(), width: 30, height: 5, glyphs: .ascii, colors: false)

    #expect(wide.last == "▲ +$1,140.00 (+1.68%) in 24 hours", "the range is beside the chart")
    #expect(narrow.last == "▲ +$1,140.00 (+1.68%) in 24 h…")
  }

  @Test func withoutATwentyFourHourChange_theLastLineSaysTheRange_besideTheLabelsToo() {
    let lines = ChartRenderer.render(
      chart(change: false), width: 40, height: 5, glyphs: .ascii, colors: false)

    #expect(lines.last == "low $67,980.00  high $69,120.00")
  }

  @Test(arguments: [30, 29])
  func aNarrowTerminal_keepsAChangeThatFits_andLeavesTheRangeOut(width: Int) {
    // Under 31 columns there is no room for the price labels; "▲ +$1.00 (+0.00%) in 24 hours"
    // is 29, so at 29 it fills the line exactly.
    let small = chart(changeFrom: 68_000, to: 68_001)

    let lines = ChartRenderer.render(small, width: width, height: 5, glyphs: .ascii, colors: false)

    #expect(lines.last == "▲ +$1.00 (+0.00%) in 24 hours")
  }

  @Test func aStepOverOneEmptyColumn_isJoinedThroughItsMiddle() {
    // From the bottom of column 0 to the top of column 2, over column 1's middle: column 2
    // reaches down to that middle, not to the bottom.
    let step = chart(points: [
      .init(x: 0, low: 0, high: 0, close: 0), .init(x: 2.0 / 19, low: 1, high: 1, close: 1),
    ])

    let plot = ChartRenderer.render(step, width: 31, height: 5, glyphs: .ascii, colors: false)
      .prefix(3).map { String($0.dropFirst(11).prefix(3)) }

    #expect(plot == ["  *", " **", "*  "])
  }

  @Test func anOldHistory_saysItsAgeInTheTitle() {
    let lines = ChartRenderer.render(
      chart(ageText: "as of Nov 22, 14:03"), width: 80, height: 7, glyphs: .ascii, colors: false)

    #expect(lines[0] == "BTC/USD, last 24 hours · Binance  as of Nov 22, 14:03")
  }

  @Test func timeLabelsCloserThanTwoSpaces_leaveOutTheLaterOne() {
    let crowded = chart(labels: [
      .init(x: 0, text: "18:00", at: .distantPast), .init(x: 0.1, text: "00:00", at: .distantPast),
      .init(x: 0.3, text: "06:00", at: .distantPast),
      .init(x: 1, text: "12:00", at: .distantPast),
    ])

    let axis = ChartRenderer.render(crowded, width: 31, height: 5, glyphs: .ascii, colors: false)[3]

    // 00:00 would overlap 18:00, and 06:00 stand one space after it.
    #expect(axis == "           18:00          12:00")
  }

  @Test(arguments: [
    (true, [String: String](), ChartRenderer.Glyphs.braille), (false, [:], .ascii),
    (true, ["NO_COLOR": "1"], .ascii), (true, ["TERM": "dumb"], .ascii),
    (true, ["NO_COLOR": ""], .braille),
  ])
  func braille_onlyOnATerminalThatShowsColours(
    isTerminal: Bool, environment: [String: String], glyphs: ChartRenderer.Glyphs
  ) {
    #expect(ChartRenderer.Glyphs.choose(isTerminal: isTerminal, environment: environment) == glyphs)
  }

  func chart(
    ageText: String? = nil, change: Bool = true, labels: [ChartViewState.TimeLabel]? = nil,
    changeFrom: Decimal = 67_980, to: Decimal = 69_120, points: [ChartViewState.Point]? = nil
  ) -> ChartViewState {
    ChartViewState(
      range: .day, title: "BTC/USD, last 24 hours · Binance",
      points: points ?? [
        .init(x: 0, low: 0, high: 0.2, close: 0.1), .init(x: 0.25, low: 0.3, high: 1, close: 1),
        .init(x: 0.5, low: 0.4, high: 0.6, close: 0.5), .init(x: 0.75, low: 0, high: 0.1, close: 0),
        .init(x: 1, low: 0.5, high: 0.7, close: 0.6),
      ],
      timeLabels: labels ?? [
        .init(x: 0.1, text: "18:00", at: .distantPast),
        .init(x: 0.35, text: "00:00", at: .distantPast),
        .init(x: 0.6, text: "06:00", at: .distantPast),
        .init(x: 0.85, text: "12:00", at: .distantPast),
      ],
      lowText: "$67,980.00", highText: "$69,120.00",
      rangeText: "low $67,980.00  high $69,120.00",
      change: change
        ? ChartPresenter(timestamps: .utc(precision: .minutes))
          .word(PriceChange(from: changeFrom, to: to)) : nil,
      changeValue: nil, direction: .up, sourceName: "Binance", ageText: ageText,
      accessibilityLabel: "")
  }
}
