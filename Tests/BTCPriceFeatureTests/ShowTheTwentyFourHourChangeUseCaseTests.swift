import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// The 24-hour change beside the price, in every view: the presenter words it (and gives it in
/// exact decimals for `--json` and the API) from the day's history, absent (never zero) when the
/// history cannot say; the tick loop records each fresh price into the history and hands every
/// view the change and the day's chart.
@Suite(
  "Show the 24-hour change with every tick", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ShowTheTwentyFourHourChangeUseCaseTests {
  /// 2026-11-22 14:00 UTC: the last candle of the day's history starts here (``quoteTime`` is
  /// 14:03:05).
  static let end: TimeInterval = 1_795_356_000
  /// A day flat at $68,000.00.
  static let day = CandleSeries.day(endingAt: end) { _ in "68000.00" }
  let presenter = PricePresenter(timestamps: .utc(precision: .seconds))
  let clock = SteppedTestClock()

  // MARK: The presenter

  @Test func present_wordsTheChangeAgainstThePriceADayBefore_andGivesItExactly() {
    let state = presenter.present(.fresh(quote("68901.23")), dayHistory: Self.day)

    #expect(state.change24h?.text == "▲ +$901.23 (+1.33%)")
    #expect(state.change24h?.label == "in 24 hours")
    #expect(state.change24h?.direction == .up)
    #expect(
      state.record.change24h
        == ChangeRecord(absolute: "901.23", percent: "1.33", since: "2026-11-21T14:05:00Z"))
  }

  /// `1.1 %` is written `1.10` and a change that rounds to nothing `0.00`, as every percent in
  /// every JSON object: two decimals, always.
  @Test(arguments: [("68748.00", "1.10"), ("68000.50", "0.00"), ("67999.00", "0.00")])
  func present_writesThePercentWithTwoDecimals(price: String, percent: String) {
    let state = presenter.present(.fresh(quote(price)), dayHistory: Self.day)

    #expect(state.record.change24h?.percent == percent)
  }

  @Test func present_aFall_isNegativeInEveryForm() {
    let state = presenter.present(.fresh(quote("67000")), dayHistory: Self.day)

    #expect(state.change24h?.text == "▼ -$1,000.00 (-1.47%)")
    #expect(state.record.change24h?.absolute == "-1000")
    #expect(state.record.change24h?.percent == "-1.47")
  }

  @Test func present_aStalePrice_isComparedWithTheDayBeforeItsOwnTime() {
    let state = presenter.present(
      .stale(lastKnown: quote("68901.23"), failure: PriceFetchFailure(failures: [])),
      dayHistory: Self.day)

    #expect(state.isStale)
    #expect(state.change24h?.text == "▲ +$901.23 (+1.33%)")
  }

  @Test func present_withoutAHistoryThatReachesADayBack_isAbsentNotZero() {
    let aDayOld = CandleSeries.day(endingAt: Self.end - 2 * 86_400) { _ in "68000.00" }
    let lastHour = CandleSeries.of(
      (0..<12).map { .flat(Self.end - TimeInterval(11 - $0) * 300, "68000.00") })
    let inEuros = CandleSeries.day(endingAt: Self.end, currency: .eur) { _ in "60000.00" }

    for history in [nil, aDayOld, lastHour, inEuros] {
      let state = presenter.present(.fresh(quote("68901.23")), dayHistory: history)
      #expect(state.change24h == nil)
      #expect(state.record.change24h == nil)
    }
    #expect(presenter.present(.fresh(quote("68901.23"))).change24h == nil)
  }

  @Test func json_carriesTheChangeInExactDecimals_andLeavesTheKeyOutWithoutIt() {
    let with = presenter.present(.fresh(quote("68901.23")), dayHistory: Self.day)
    let without = presenter.present(.fresh(quote("68901.23")), dayHistory: nil)

    #expect(
      JSONLineRenderer.render(with)
        == #"{"timestamp":"2026-11-22T14:03:05Z","price":"68901.23","currency":"USD","#
        + #""source":"binance","stale":false,"change24h":{"absolute":"901.23","percent":"1.33","#
        + #""since":"2026-11-21T14:05:00Z"},"satsPerUnit":"1451"}"#)
    #expect(!JSONLineRenderer.render(without).contains("change24h"))
  }

  // MARK: The tick loop

  @Test func eachFreshTick_extendsTheHistory_andCarriesTheChangeAndTheDaysChart() async throws {
    let store = InMemoryCandleStore(stored: [.day: Self.day])
    let history = CandleHistory(
      currency: .usd, store: store, load: { _ in throw PriceFetchFailure(failures: []) },
      clock: ContinuousClock(), now: { quoteTime })
    let ticks = Locked<[PriceTick]>([])
    let sut = makeSUT(
      ScriptedLoader(.answer(quote("68901.23")), .fail(.httpStatus(500, message: nil))),
      history: history)

    let running = Task { try await sut.run(count: 2) { tick in ticks.append(tick) } }
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    _ = try await running.value

    #expect(
      ticks.value.map { $0.state.change24h?.text } == [
        "▲ +$901.23 (+1.33%)", "▲ +$901.23 (+1.33%)",
      ])
    #expect(ticks.value.first?.chart?.change?.text == "▲ +$901.23 (+1.33%)")
    #expect(ticks.value.first?.chart?.title == "BTC/USD, last 24 hours · Binance")
    // The fresh price closed the candle under way; the stale tick recorded nothing.
    let last = try #require(history.held(.day)?.candles.last)
    #expect(last.start == Date(timeIntervalSince1970: Self.end))
    #expect(last.close == Decimal(string: "68901.23"))
    #expect(last.high == Decimal(string: "68901.23"))
    // What the store keeps is only what an exchange said.
    #expect(try store.load(.day) == Self.day)
  }

  @Test func withoutAHistory_aTickCarriesNoChangeAndNoChart() async throws {
    let ticks = Locked<[PriceTick]>([])
    let sut = makeSUT(ScriptedLoader(.answer(quote("68901.23"))), history: nil)

    let running = Task { try await sut.run(count: 1) { tick in ticks.append(tick) } }
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    _ = try await running.value

    #expect(ticks.value.count == 1)
    #expect(ticks.value.first?.state.change24h == nil)
    #expect(ticks.value.first?.chart == nil)
  }

  private func makeSUT(_ loader: ScriptedLoader, history: CandleHistory?) -> PriceTickLoop {
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    return PriceTickLoop(
      interval: .seconds(1), clock: clock, feed: PriceFeed(chain: chain, cache: nil),
      presenter: presenter,
      connections: history.map { history in
        PriceConnections(
          run: { await history.run([.day]) },
          ready: { await history.waitForFirstLook(atMost: .seconds(60)) })
      } ?? .none,
      history: history)
  }
}
