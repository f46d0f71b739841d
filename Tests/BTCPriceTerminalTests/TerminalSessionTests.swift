import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Show ticks in a terminal session", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
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

  @Test func plain_writesOneLinePerTickAndColoursTheMoveSinceTheLastTick() throws {
    let (sut, output) = makeSUT(.plain(colors: true))

    try sut.begin()
    try sut.show(fresh("68901.23"))
    try sut.show(fresh("68950.00"))
    try sut.end()

    #expect(
      output.value == [
        "Nov 22, 14:03:05 - $68,901.23\n",
        "Nov 22, 14:03:05 - \u{1B}[32m$68,950.00\u{1B}[0m\n",
      ])
  }

  @Test func json_writesOneObjectPerLine() throws {
    let (sut, output) = makeSUT(.json)

    try sut.show(fresh("68901.23"))

    #expect(
      output.value == [
        #"{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","source":"binance","stale":false,"satsPerUnit":"1451"}"#
          + "\n"
      ])
  }

  @Test func live_hidesTheCursorRedrawsOverThePreviousPanelAndGivesTheCursorBackOnce() throws {
    let (sut, output) = makeSUT(.live(colors: false), width: 80)

    try sut.begin()
    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68950.00"))
    try sut.end()
    try sut.end()

    let writes = output.value
    #expect(writes.count == 4)
    #expect(writes.first == "\u{1B}[?25l")
    #expect(writes.last == "\u{1B}[?25h")
    // The first panel is drawn where the cursor is; the second moves up over its 4 lines.
    #expect(writes[1].hasPrefix("\u{1B}[2KBTC/USD  $68,800.00   $1 = 1,453 sats\n"))
    #expect(writes[2].hasPrefix("\u{1B}[4F\u{1B}[2KBTC/USD  $68,950.00   $1 = 1,450 sats\n"))
    #expect(writes[2].contains("▲ +$150.00 (+0.22%) since last tick"))
    #expect(writes[2].contains("▁█  low $68,800.00  high $68,950.00"))
  }

  @Test func live_laysThePanelOutAtTheWidthOfTheTerminalNow() throws {
    let width = Locked(80)
    let (sut, output) = makeSUT(.live(colors: false), width: 80, widthSource: width)

    try sut.show(fresh("68800.00"))
    width.withValue { $0 = 40 }
    try sut.show(fresh("68950.00"))

    #expect(output.value[0].contains("low $68,800.00"))
    #expect(!output.value[1].contains("low"), "no sparkline under 60 columns")
    #expect(output.value[1].contains("Updated Nov 22, 14:03:05 · Binance"))
  }

  @Test func live_drawsTheDaysChartATickBrings_andKeepsItThroughAResize() throws {
    let day = CandleSeries.day(endingAt: 1_795_356_000) { "\(68_000 + abs($0 - 145) * 10)" }
    let chart = ChartPresenter(timestamps: .utc(precision: .minutes))
      .present(day, range: .day, current: quote("68901.23"), now: quoteTime)
    let (sut, output) = makeSUT(.live(colors: false), height: 40)

    try sut.show(fresh("68901.23"), chart: chart)
    try sut.terminalResized()

    #expect(output.value.count == 2)
    #expect(output.value.allSatisfy { $0.contains("BTC/USD, last 24 hours · Binance") })
  }

  @Test func plainAndJSON_neverHideTheCursor() throws {
    for mode in [TerminalSession.Mode.plain(colors: true), .json] {
      let (sut, output) = makeSUT(mode)
      try sut.begin()
      try sut.end()
      #expect(output.value.isEmpty, "\(mode)")
    }
  }

  @Test func live_drawsAWarningAboveThePanelNeverThroughIt() throws {
    let output = Locked<[String]>([])
    let sut = TerminalSession(
      mode: .live(colors: false), presenter: presenter, write: { output.append($0) },
      writeDiagnostic: { output.append("stderr: " + $0) }, width: { 80 })
    try sut.show(fresh("68800.00"))

    sut.diagnostic("btc-price: warning: cannot write cache\n")

    let writes = output.value
    #expect(writes.count == 4)
    #expect(writes[1] == "\u{1B}[4F\u{1B}[J", "moves up over the 4-line panel and clears it")
    #expect(writes[2] == "stderr: btc-price: warning: cannot write cache\n")
    #expect(
      writes[3].hasPrefix("\u{1B}[2KBTC/USD  $68,800.00   $1 = 1,453 sats\n"),
      "the panel again, below it")
    try sut.show(fresh("68850.00"))
    #expect(output.value[4].hasPrefix("\u{1B}[4F"), "the next tick replaces the redrawn panel")
  }

  @Test func plain_writesAWarningStraightToStderr() {
    let output = Locked<[String]>([])
    let sut = TerminalSession(
      mode: .plain(colors: false), presenter: presenter, write: { output.append($0) },
      writeDiagnostic: { output.append("stderr: " + $0) }, width: { 80 })

    sut.diagnostic("w\n")

    #expect(output.value == ["stderr: w\n"])
  }

  @Test func live_redrawsAtTheNewWidthAtOnceWhenTheTerminalIsResized() throws {
    let width = Locked(80)
    let (sut, output) = makeSUT(.live(colors: false), widthSource: width)
    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68950.00"))

    width.withValue { $0 = 30 }
    try sut.terminalResized()

    let redraw = try #require(output.value.last)
    // The 4 old lines were up to 70 columns wide: at 30 columns a reflowing terminal shows them
    // on 2 + 3 + 2 + 2 rows (the first, with its sats, is 39 wide), so the redraw moves up over
    // 9; at 30 columns the sats leave the first line.
    #expect(redraw.hasPrefix("\u{1B}[9F\u{1B}[2KBTC/USD  $68,950.00\n"))
    #expect(!redraw.contains("low"), "no sparkline at 30 columns")
  }

  @Test(arguments: [
    // At 80 columns the panel's lines are 39 (with the sats), 68, 42 and 35 columns wide. At 42
    // the third fits its row exactly; at 41 it takes a second one, as the changes take two
    // either way.
    (42, 5), (41, 6),
  ])
  func live_aResize_movesUpOverTheRowsALineExactlyAsWideAsTheTerminalTakes(
    columns: Int, rows: Int
  ) throws {
    let width = Locked(80)
    let (sut, output) = makeSUT(.live(colors: false), width: 80, widthSource: width)
    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68950.00"))

    width.withValue { $0 = columns }
    try sut.terminalResized()

    #expect(try #require(output.value.last).hasPrefix("\u{1B}[\(rows)F\u{1B}[2KBTC/USD"))
  }

  @Test func live_suspendGivesTheCursorBackAndResumeDrawsAFreshPanelBelowThePrompt() throws {
    let (sut, output) = makeSUT(.live(colors: false))
    try sut.begin()
    try sut.show(fresh("68800.00"))

    sut.suspend()
    try sut.resume()

    let writes = output.value
    #expect(writes[2] == "\u{1B}[0m\u{1B}[?25h")
    #expect(writes[3] == "\u{1B}[?25l")
    #expect(
      writes[4].hasPrefix("\u{1B}[2KBTC/USD"), "drawn where the cursor is, not over the shell")
  }

  @Test func live_whileSuspended_aWarningOrACaughtUpReaderDrawsNothingOverTheShell() throws {
    // Ctrl-Z: the shell's prompt is now where the panel was. A warning printed before `fg`, or a
    // reader that catches up then, must not move up over it or draw a frame owed from before.
    let behind = Locked(false)
    let (sut, output) = makeSUT(.live(colors: false), behind: behind)
    try sut.begin()
    try sut.show(fresh("68800.00"))
    behind.withValue { $0 = true }
    try sut.show(fresh("68950.00"))

    sut.suspend()
    let suspended = output.value.count
    behind.withValue { $0 = false }
    sut.outputCaughtUp()
    sut.diagnostic("btc-price: warning: binance: timed out")

    #expect(output.value.count == suspended, "nothing on the shell's screen")
  }

  @Test func restoreTerminal_showsTheCursorOnce_andOnlyIfTheSessionHidIt() throws {
    let (live, output) = makeSUT(.live(colors: false))
    live.restoreTerminal(waitingAtMost: 1)
    #expect(output.value.isEmpty, "the cursor was never hidden")

    try live.begin()
    live.restoreTerminal(waitingAtMost: 1)
    #expect(output.value == ["\u{1B}[?25l", "\u{1B}[?25h"])
    live.restoreTerminal(waitingAtMost: 1)
    try live.end()

    #expect(output.value == ["\u{1B}[?25l", "\u{1B}[?25h"], "given back once")
    let (plain, plainOutput) = makeSUT(.plain(colors: false))
    try plain.begin()
    plain.restoreTerminal(waitingAtMost: 1)
    #expect(plainOutput.value.isEmpty)
  }

  @Test func show_reportsAWriteErrorToTheCaller() {
    let sut = TerminalSession(
      mode: .plain(colors: false), presenter: presenter,
      write: { _ throws(TerminalOutputError) in throw .readerGone },
      width: { 80 })

    #expect(throws: TerminalOutputError.readerGone) { try sut.show(fresh("1")) }
  }

  /// A write blocked by a stalled reader holds the session's lock; the exit path gives up on it
  /// instead of waiting for ever.
  @Test func restoreTerminal_givesUpWhenAWriteIsStuck() async throws {
    let writeStarted = DispatchSemaphore(value: 0)
    let readerBack = DispatchSemaphore(value: 0)
    let unblocked = Locked(false)
    let sut = TerminalSession(
      mode: .live(colors: false), presenter: presenter,
      write: { _ in
        writeStarted.signal()
        if !unblocked.value { readerBack.wait() }
      }, width: { 80 })
    let stuck = Thread { try? sut.show(fresh("1")) }
    stuck.start()
    #expect(writeStarted.wait(timeout: .now() + 5) == .success)

    let started = ContinuousClock.now
    sut.restoreTerminal(waitingAtMost: 10)

    #expect(ContinuousClock.now - started < .seconds(2))
    unblocked.withValue { $0 = true }
    readerBack.signal()
  }

  // MARK: - Helpers

  private func makeSUT(
    _ mode: TerminalSession.Mode, width: Int = 80, widthSource: Locked<Int>? = nil,
    height: Int? = nil, behind: Locked<Bool> = Locked(false)
  ) -> (TerminalSession, Locked<[String]>) {
    let output = Locked<[String]>([])
    let columns = widthSource ?? Locked(width)
    let sut = TerminalSession(
      mode: mode, presenter: presenter, write: { output.append($0) },
      outputIsBehind: { behind.value }, width: { columns.value }, height: { height })
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
