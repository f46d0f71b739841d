import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTerminal
import BTCPriceTestSupport
import Foundation
import Testing

/// `btc-price chart`'s library call: the history fetched unless young enough, one chart, and an
/// exit status like `--once`'s.
@Suite("Print one chart", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct PrintOneChartUseCaseTests {
  /// 2026-11-22 14:00 UTC.
  static let now: TimeInterval = 1_795_356_000
  /// A day of flat candles at 68,000 + index, the last one starting at 13:55 and fetched at 13:56.
  static let day = CandleSeries.day(endingAt: now - 300) { "\(68_000 + $0)" }
  static let failure = PriceFetchFailure(failures: [
    .init(source: .binance, error: .httpStatus(451, message: nil))
  ])

  @Test func size_isTheTerminalsWidth_andItsHeightLessThePromptUpTo20Lines() {
    #expect(ChartPrinter.size(columns: 120, rows: 50) == (width: 120, height: 20))
    #expect(ChartPrinter.size(columns: 60, rows: 21) == (width: 60, height: 20))
    #expect(ChartPrinter.size(columns: 60, rows: 10) == (width: 60, height: 9))
    // A pipe without $COLUMNS and $LINES, or a size of 0: 80 × 12.
    #expect(ChartPrinter.size(columns: nil, rows: nil) == (width: 80, height: 12))
    #expect(ChartPrinter.size(columns: 0, rows: 0) == (width: 80, height: 12))
    // One column and one row are a size, not a pipe: too small, and said so by the caller.
    #expect(ChartPrinter.size(columns: 1, rows: 1) == (width: 1, height: 0))
  }

  @Test func aFetchedHistory_isDrawnAndExitsZero() async throws {
    let fetches = Locked(0)
    let run = try await print(
      store: InMemoryCandleStore(),
      load: { _ in
        fetches.withValue { $0 += 1 }
        return Self.day
      })

    #expect(run.status == 0)
    #expect(run.lines.count == 7)
    #expect(run.lines[0] == "BTC/USD, last 24 hours · Binance")
    #expect(run.warnings.isEmpty)
    #expect(fetches.value == 1)
  }

  @Test func aKeptHistoryYoungerThanItsRefresh_isDrawnWithoutAskingAnyone() async throws {
    let run = try await print(
      store: InMemoryCandleStore(stored: [.day: Self.day]),
      load: { _ in
        Issue.record("fetched a history 4 minutes old")
        return Self.day
      })

    #expect(run.status == 0)
    #expect(run.lines.count == 7)
  }

  @Test func aFailedFetch_drawsTheKeptHistoryWithItsAgeAndExitsOne() async throws {
    let old = CandleSeries.day(endingAt: Self.now - 7_200) { "\(68_000 + $0)" }

    let run = try await print(
      store: InMemoryCandleStore(stored: [.day: old]), load: { _ in throw Self.failure })

    #expect(run.status == 1)
    #expect(
      run.warnings == [
        "Failed to update the price history (binance: HTTP 451); showing it as of Nov 22, 12:01"
      ])
    #expect(run.lines[0] == "BTC/USD, last 24 hours · Binance  as of Nov 22, 12:01")
  }

  /// A kept day 19 minutes old is due a fetch (every 15 minutes) but not yet "old" (30): when
  /// the fetch fails, the title still says how old what it draws is, as USAGE.md promises
  /// whenever the history could not be updated.
  @Test func aFailedFetch_ofAHistoryDueButNotOld_stillTitlesItsAge() async throws {
    let kept = CandleSeries.day(endingAt: Self.now - 1_200) { "\(68_000 + $0)" }

    let run = try await print(
      store: InMemoryCandleStore(stored: [.day: kept]), load: { _ in throw Self.failure })

    #expect(run.status == 1)
    #expect(run.lines[0] == "BTC/USD, last 24 hours · Binance  as of Nov 22, 13:41")
  }

  /// A terminal too narrow or too short for any chart says so and exits 1, rather than print
  /// nothing and exit 0.
  @Test func noRoomForAChart_saysTheSizeItNeedsAndExitsOne() async throws {
    let narrow = try await print(
      store: InMemoryCandleStore(stored: [.day: Self.day]), load: { _ in Self.day }, width: 19)
    let short = try await print(
      store: InMemoryCandleStore(stored: [.day: Self.day]), load: { _ in Self.day }, height: 4)
    let enough = try await print(
      store: InMemoryCandleStore(stored: [.day: Self.day]), load: { _ in Self.day }, width: 20,
      height: 5)

    #expect(narrow.status == 1)
    #expect(narrow.lines.isEmpty)
    #expect(
      narrow.warnings == [
        "No room for a chart in 19 columns and 7 lines: it needs at least 20 columns and 5 lines"
      ])
    #expect(short.status == 1)
    #expect(
      short.warnings.first?.hasPrefix("No room for a chart in 60 columns and 4 lines") == true)
    #expect(enough.status == 0)
    #expect(enough.lines.count == 5)
    #expect(enough.warnings.isEmpty)
  }

  @Test func nothingKnown_drawsNothingSaysWhyAndExitsOne() async throws {
    let run = try await print(store: InMemoryCandleStore(), load: { _ in throw Self.failure })

    #expect(run.status == 1)
    #expect(run.lines.isEmpty)
    #expect(run.warnings == ["No price history for the last 24 hours yet: binance: HTTP 451"])
  }

  @Test func aKeptHistoryInAnotherCurrency_isNoHistoryOfThisOne_andSaysSo() async throws {
    let euros = CandleSeries.day(endingAt: Self.now - 300, currency: .eur) { "\(63_000 + $0)" }

    let run = try await print(
      store: InMemoryCandleStore(stored: [.day: euros]), load: { _ in euros })

    #expect(run.status == 1)
    #expect(run.lines.isEmpty)
    #expect(run.warnings == ["No price history for the last 24 hours yet"])
  }

  @Test func aLastPriceNewerThanTheHistory_endsTheChartAndItsChange() async throws {
    let last = PriceQuote(
      value: 70_000, timestamp: Date(timeIntervalSince1970: Self.now), source: .coinbase)

    let run = try await print(
      store: InMemoryCandleStore(stored: [.day: Self.day]), current: last,
      load: { _ in Self.day })

    // A day before 14:00 the history knew 68,002 (the open of its third candle).
    #expect(run.lines.last == "▲ +$1,998.00 (+2.94%) in 24 hours")
    #expect(run.lines[1].hasPrefix("$70,000.00 "), "the price is the day's new high")
  }

  // MARK: --json and --csv

  @Test func export_printsTheRangesCandles_asJSONLines_inExactDecimals() async throws {
    let candles = [
      try Candle(
        start: Date(timeIntervalSince1970: Self.now - 600), open: Decimal(string: "68901.23")!,
        high: 68950,
        low: Decimal(string: "68890.1")!, close: 68920)
    ]
    let series = CandleSeries.of(candles, fetchedAt: Self.now - 240)

    let lines = CandleExport.lines(candles, format: .json)
    let csv = CandleExport.lines(series.candles, format: .csv)

    #expect(
      lines == [
        #"{"time":"2026-11-22T13:50:00Z","open":"68901.23","high":"68950","low":"68890.1","#
          + #""close":"68920"}"#
      ])
    #expect(
      csv == ["time,open,high,low,close", "2026-11-22T13:50:00Z,68901.23,68950,68890.1,68920"])
  }

  /// The day's range: the last 24 hours of the kept candles (288 of the 290 kept: the two that
  /// start before it are left out), oldest first; up to date, status 0 and nothing said.
  @Test func export_ofTheDay_isItsLast24Hours_oldestFirst() async throws {
    let run = try await export(
      store: InMemoryCandleStore(stored: [.day: Self.day]), load: { _ in Self.day })

    #expect(run.status == 0)
    #expect(run.warnings.isEmpty)
    #expect(run.lines.first == "time,open,high,low,close")
    #expect(run.lines.count == 1 + 288)
    #expect(run.lines[1] == "2026-11-21T14:00:00Z,68002,68002,68002,68002")
    #expect(run.lines.last == "2026-11-22T13:55:00Z,68289,68289,68289,68289")
  }

  /// Offline the kept candles are printed and the status is 1, with the same warning as the
  /// chart's; with nothing known, nothing is printed.
  @Test func export_offline_printsTheKeptCandles_andExitsOne() async throws {
    let old = CandleSeries.day(endingAt: Self.now - 7_200) { "\(68_000 + $0)" }

    let kept = try await export(
      store: InMemoryCandleStore(stored: [.day: old]), load: { _ in throw Self.failure })
    let nothing = try await export(store: InMemoryCandleStore(), load: { _ in throw Self.failure })

    #expect(kept.status == 1)
    #expect(kept.lines.count > 1)
    #expect(
      kept.warnings == [
        "Failed to update the price history (binance: HTTP 451); showing it as of Nov 22, 12:01"
      ])
    #expect(nothing.status == 1)
    #expect(nothing.lines.isEmpty)
    #expect(nothing.warnings.count == 1)
  }

  private func export(store: InMemoryCandleStore, load: @escaping CandleHistory.Loader)
    async throws -> (status: Int32, lines: [String], warnings: [String])
  {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Self.now) }
    let history = CandleHistory(
      currency: .usd, store: store, load: load, clock: SteppedTestClock(), now: now)
    var lines: [String] = []
    var warnings: [String] = []
    let status = try await ChartPrinter.export(
      .day, history: history, format: .csv,
      presenter: ChartPresenter(timestamps: .utc(precision: .minutes)),
      write: { lines.append($0) }, warn: { warnings.append($0) })
    return (status, lines, warnings)
  }

  private func print(
    store: InMemoryCandleStore, current: PriceQuote? = nil,
    load: @escaping CandleHistory.Loader, width: Int = 60, height: Int = 7
  ) async throws -> (status: Int32, lines: [String], warnings: [String]) {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: Self.now) }
    let history = CandleHistory(
      currency: .usd, store: store, load: load, clock: SteppedTestClock(), now: now)
    var lines: [String] = []
    var warnings: [String] = []
    let status = try await ChartPrinter.run(
      .day, history: history,
      presenter: ChartPresenter(timestamps: .utc(precision: .minutes)), current: current,
      width: width, height: height, glyphs: .ascii, colors: false, now: now,
      write: { lines.append($0) }, warn: { warnings.append($0) })
    return (status, lines, warnings)
  }
}
