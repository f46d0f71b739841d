import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// The live panel and Waybar show a state, not a log: while stdout's reader is behind (Ctrl-S, a
/// status bar that hangs), their frames are held back, and the newest is drawn once the output
/// has caught up: never a backlog of frames, never a frame drawn over the wrong rows.
@Suite("Draw only the newest frame while the output is behind", .hangLimit(.seconds(30)))
struct DrawOnlyTheNewestFrameUseCaseTests {
  let presenter = PricePresenter(
    timestamps: TimestampFormatter(precision: .seconds, timeZone: TimeZone(identifier: "UTC")!))

  @Test func live_holdsFramesBackWhileBehind_andDrawsOnlyTheNewestWhenCaughtUp() throws {
    let (sut, output, behind) = makeSUT(.live(colors: false))
    try sut.show(fresh("68800.00"))
    behind.withValue { $0 = true }

    try sut.show(fresh("68850.00"))
    try sut.show(fresh("68900.00"))
    #expect(output.value.count == 1, "nothing more while behind")
    behind.withValue { $0 = false }
    sut.outputCaughtUp()
    sut.outputCaughtUp()

    #expect(output.value.count == 2, "one frame, once")
    #expect(output.value[1].hasPrefix("\u{1B}[4F\u{1B}[2KBTC/USD  $68,900.00   $1 = 1,451 sats\n"))
    #expect(output.value[1].contains("▁▅█"), "the sparkline still has every tick")
  }

  @Test func live_aResizeWhileBehind_movesBackOverTheRowsThePanelTakesWhenDrawn() throws {
    let width = Locked(80)
    let (sut, output, behind) = makeSUT(.live(colors: false), width: width)
    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68950.00"))
    behind.withValue { $0 = true }

    width.withValue { $0 = 30 }
    try sut.terminalResized()
    behind.withValue { $0 = false }
    sut.outputCaughtUp()

    // As when drawn at once: the 4 lines, up to 70 columns wide, take 9 rows at 30 columns
    // (the first, 39 wide with its sats, two); redrawn at 30, there is no room for the sats.
    #expect(output.value.last?.hasPrefix("\u{1B}[9F\u{1B}[2KBTC/USD  $68,950.00\n") == true)
  }

  @Test func live_aWarningWhileBehind_goesAboveThePanel_whichIsDrawnOnceCaughtUp() throws {
    let output = Locked<[String]>([])
    let behind = Locked(false)
    let sut = TerminalSession(
      mode: .live(colors: false), presenter: presenter, write: { output.append($0) },
      writeDiagnostic: { output.append("stderr: " + $0) }, outputIsBehind: { behind.value },
      width: { 80 })
    try sut.show(fresh("68800.00"))
    behind.withValue { $0 = true }

    sut.diagnostic("w1\n")
    sut.diagnostic("w2\n")
    behind.withValue { $0 = false }
    sut.outputCaughtUp()

    let writes = output.value
    #expect(writes[1] == "\u{1B}[4F\u{1B}[J", "the panel is erased once")
    #expect(writes[2] == "stderr: w1\n")
    #expect(writes[3] == "stderr: w2\n")
    #expect(
      writes[4].hasPrefix("\u{1B}[2KBTC/USD  $68,800.00   $1 = 1,453 sats\n"),
      "drawn below, over nothing")
    #expect(writes.count == 5)
  }

  @Test func live_aBellHeldBack_ringsOnceWithTheFrame() throws {
    let (sut, output, behind) = makeSUT(.live(colors: false))
    try sut.show(fresh("68800.00"))
    behind.withValue { $0 = true }

    try sut.show(alerted("68900.00"))
    try sut.show(alerted("69000.00"))
    behind.withValue { $0 = false }
    sut.outputCaughtUp()

    #expect(output.value.filter { $0 == "\u{07}" }.count == 1)
    #expect(output.value.last?.contains("$69,000.00") == true)
  }

  @Test func end_drawsTheFrameHeldBackBeforeGivingTheCursorBack() throws {
    let (sut, output, behind) = makeSUT(.live(colors: false))
    try sut.begin()
    try sut.show(fresh("68800.00"))
    behind.withValue { $0 = true }
    try sut.show(fresh("68900.00"))

    try sut.end()

    #expect(output.value.suffix(2).first?.contains("$68,900.00") == true)
    #expect(output.value.last == "\u{1B}[?25h")
  }

  @Test func waybar_writesOnlyItsNewestStateWhenCaughtUp() throws {
    let (sut, output, behind) = makeSUT(.waybar(nil))
    behind.withValue { $0 = true }

    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68900.00"))
    #expect(output.value.isEmpty)
    behind.withValue { $0 = false }
    sut.outputCaughtUp()

    #expect(output.value.count == 1)
    #expect(output.value[0].contains("$68,900.00"))
    #expect(output.value[0].contains(#""class":"up""#), "its change since the tick before")
  }

  @Test func plainLines_areNeverHeldBack_theWriterKeepsThem() throws {
    let (sut, output, behind) = makeSUT(.plain(colors: false))
    behind.withValue { $0 = true }

    try sut.show(fresh("68800.00"))
    try sut.show(fresh("68900.00"))

    #expect(output.value.count == 2)
  }

  // MARK: - Helpers

  /// A log (plain lines, `--format`, `--json`) holds no frame back, so the writer's "caught
  /// up" has nothing to draw and never waits for the session: the writer tells it right after
  /// writing the line of a tick that may still be showing it.
  @Test(arguments: [TerminalSession.Mode.plain(colors: false), .plain(colors: true), .json])
  func log_caughtUpWhileATickIsShowing_returnsWithoutWaitingForIt(
    mode: TerminalSession.Mode
  ) throws {
    let writing = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let sut = TerminalSession(
      mode: mode, presenter: presenter,
      write: { _ in
        writing.signal()
        release.wait()
      },
      writeDiagnostic: { _ in }, outputIsBehind: { false }, width: { 80 })
    let state = fresh("68800.00")
    Thread { try? sut.show(state) }.start()
    #expect(writing.wait(timeout: .now() + 5) == .success)

    let returned = DispatchSemaphore(value: 0)
    Thread {
      sut.outputCaughtUp()
      returned.signal()
    }.start()

    #expect(returned.wait(timeout: .now() + 2) == .success, "caught up waited for the tick")
    release.signal()
  }

  private func makeSUT(_ mode: TerminalSession.Mode, width: Locked<Int> = Locked(80))
    -> (TerminalSession, Locked<[String]>, Locked<Bool>)
  {
    let output = Locked<[String]>([])
    let behind = Locked(false)
    let sut = TerminalSession(
      mode: mode, presenter: presenter, write: { output.append($0) },
      outputIsBehind: { behind.value }, width: { width.value })
    return (sut, output, behind)
  }

  private func fresh(_ value: String) -> PriceViewState {
    presenter.present(.fresh(quote(value)))
  }

  private func alerted(_ value: String) -> PriceViewState {
    var state = fresh(value)
    state.alert = presenter.presentAlerts([
      PriceAlert(
        rule: AlertRule(.above(68_850)), direction: .up, quote: quote(value), reference: 68_850)
    ])
    return state
  }

  private func quote(_ value: String) -> PriceQuote {
    PriceQuote(
      value: Decimal(string: value)!, timestamp: Date(timeIntervalSince1970: 1_795_356_185),
      source: .binance)
  }
}
