import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Show ticks in a terminal session")
struct TerminalSessionTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func mode_followsTheFlagsAndWhatStdoutIs() {
    let terminal = ["TERM": "xterm-256color"]
    #expect(
      TerminalSession.mode(json: false, live: false, isTerminal: true, environment: terminal)
        == (.plain(colors: true), nil))
    #expect(
      TerminalSession.mode(json: false, live: false, isTerminal: false, environment: terminal)
        == (.plain(colors: false), nil))
    #expect(
      TerminalSession.mode(json: true, live: false, isTerminal: true, environment: terminal)
        == (.json, nil))
    #expect(
      TerminalSession.mode(json: false, live: true, isTerminal: true, environment: terminal)
        == (.live(colors: true), nil))
    #expect(
      TerminalSession.mode(
        json: false, live: true, isTerminal: true, environment: ["NO_COLOR": "1"])
        == (.live(colors: false), nil))
  }

  @Test func mode_liveIntoAPipe_fallsBackToPlainLinesWithANote() {
    let (mode, note) = TerminalSession.mode(
      json: false, live: true, isTerminal: false, environment: [:])

    #expect(mode == .plain(colors: false))
    #expect(note == "--live needs a terminal; printing plain lines instead")
  }

  @Test func plain_writesOneLinePerTickAndColoursTheMoveSinceTheLastTick() {
    let (sut, output) = makeSUT(.plain(colors: true))

    sut.begin()
    sut.show(fresh("68901.23"))
    sut.show(fresh("68950.00"))
    sut.end()

    #expect(
      output.value == [
        "Nov 22, 14:03:05 - $68,901.23\n",
        "Nov 22, 14:03:05 - \u{1B}[32m$68,950.00\u{1B}[0m\n",
      ])
  }

  @Test func json_writesOneObjectPerLine() {
    let (sut, output) = makeSUT(.json)

    sut.show(fresh("68901.23"))

    #expect(
      output.value == [
        #"{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","source":"binance","stale":false}"#
          + "\n"
      ])
  }

  @Test func live_hidesTheCursorRedrawsOverThePreviousPanelAndGivesTheCursorBackOnce() {
    let (sut, output) = makeSUT(.live(colors: false), width: 80)

    sut.begin()
    sut.show(fresh("68800.00"))
    sut.show(fresh("68950.00"))
    sut.end()
    sut.end()

    let writes = output.value
    #expect(writes.count == 4)
    #expect(writes.first == "\u{1B}[?25l")
    #expect(writes.last == "\u{1B}[?25h")
    // The first panel is drawn where the cursor is; the second moves up over its 4 lines.
    #expect(writes[1].hasPrefix("\u{1B}[2KBTC/USD  $68,800.00\n"))
    #expect(writes[2].hasPrefix("\u{1B}[4F\u{1B}[2KBTC/USD  $68,950.00\n"))
    #expect(writes[2].contains("▲ +$150.00 (+0.22%) since last tick"))
    #expect(writes[2].contains("▁█  low $68,800.00  high $68,950.00"))
  }

  @Test func live_laysThePanelOutAtTheWidthOfTheTerminalNow() {
    let width = Locked(80)
    let (sut, output) = makeSUT(.live(colors: false), width: 80, widthSource: width)

    sut.show(fresh("68800.00"))
    width.withValue { $0 = 40 }
    sut.show(fresh("68950.00"))

    #expect(output.value[0].contains("low $68,800.00"))
    #expect(!output.value[1].contains("low"), "no sparkline under 60 columns")
    #expect(output.value[1].contains("Updated Nov 22, 14:03:05 · Binance"))
  }

  @Test func plainAndJSON_neverHideTheCursor() {
    for mode in [TerminalSession.Mode.plain(colors: true), .json] {
      let (sut, output) = makeSUT(mode)
      sut.begin()
      sut.end()
      #expect(output.value.isEmpty, "\(mode)")
    }
  }

  // MARK: - Helpers

  private func makeSUT(
    _ mode: TerminalSession.Mode, width: Int = 80, widthSource: Locked<Int>? = nil
  ) -> (TerminalSession, Locked<[String]>) {
    let output = Locked<[String]>([])
    let columns = widthSource ?? Locked(width)
    let sut = TerminalSession(
      mode: mode, presenter: presenter, write: { output.append($0) },
      width: { columns.value })
    return (sut, output)
  }

  private func fresh(_ value: String) -> PriceViewState {
    presenter.present(
      .fresh(
        PriceQuote(
          value: Decimal(string: value)!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
          source: .binance)))
  }
}
