import BTCPriceCore
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

@Suite("Keep the price history", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct KeepThePriceHistoryUseCaseTests {
  let clock = SteppedTestClock()
  /// The wall clock follows the test clock from 1,795,356,000.
  var now: @Sendable () -> Date {
    { [clock] in Date(timeIntervalSince1970: 1_795_356_000 + clock.elapsed.timeInterval) }
  }

  @Test func aStartWithoutHistory_fetchesAtOnceAndKeepsWhatCame() async throws {
    let store = InMemoryCandleStore()
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_000))])
    let sut = makeSUT(store: store, loader: loader)

    #expect(try await sut.refreshIfDue(.day) == .refreshed(fetched(at: 1_795_356_000)))
    #expect(sut.series(.day) == fetched(at: 1_795_356_000))
    #expect(store.saved.map(\.range) == [.day])
    #expect(loader.asked == [.day])
  }

  @Test func aKeptHistoryYoungerThanItsRefresh_isNotFetchedAgain() async throws {
    // Fetched 14 min 59 s before: a status bar's `--once` every few seconds asks nobody.
    let kept = fetched(at: 1_795_356_000 - 899)
    let loader = ScriptedHistoryLoader([])
    let sut = makeSUT(store: InMemoryCandleStore(stored: [.day: kept]), loader: loader)

    #expect(
      try await sut.refreshIfDue(.day)
        == .notDue(until: Date(timeIntervalSince1970: 1_795_356_001)))
    #expect(sut.series(.day) == kept)
    #expect(loader.asked.isEmpty)
  }

  @Test func aKeptHistoryAsOldAsItsRefresh_isFetchedAgain() async throws {
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_000))])
    let sut = makeSUT(
      store: InMemoryCandleStore(stored: [.day: fetched(at: 1_795_356_000 - 900)]),
      loader: loader)

    #expect(try await sut.refreshIfDue(.day) == .refreshed(fetched(at: 1_795_356_000)))
  }

  @Test func aKeptHistoryFromTheFuture_isFetchedAgain() async throws {
    // A clock set back says nothing about how old the history is.
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_000))])
    let sut = makeSUT(
      store: InMemoryCandleStore(stored: [.day: fetched(at: 1_795_356_060)]), loader: loader)

    #expect(try await sut.refreshIfDue(.day) == .refreshed(fetched(at: 1_795_356_000)))
  }

  @Test func aFailedFetch_keepsTheHistoryHeldAndIsRetriedAfterTwoMinutes() async throws {
    let kept = fetched(at: 1_795_356_000 - 3_600)
    let failure = PriceFetchFailure(failures: [
      .init(source: .binance, error: .httpStatus(503, message: nil))
    ])
    let sut = makeSUT(
      store: InMemoryCandleStore(stored: [.day: kept]),
      loader: ScriptedHistoryLoader([.failure(failure)]))

    #expect(try await sut.refreshIfDue(.day) == .failed(failure))
    #expect(sut.series(.day) == kept)
    #expect(sut.nextRefresh(.day) == Date(timeIntervalSince1970: 1_795_356_120))
  }

  @Test func aStoreThatCannotBeRead_isNoHistoryAndOneWarning() async throws {
    let warnings = Locked<[String]>([])
    let sut = makeSUT(
      store: InMemoryCandleStore(loadError: "ignoring corrupt cache history-24h.json"),
      loader: ScriptedHistoryLoader([]), warn: { warnings.append($0) })

    #expect(sut.series(.day) == nil)
    #expect(sut.series(.day) == nil)
    _ = sut.nextRefresh(.day)

    #expect(
      warnings.value == [
        "ignoring corrupt cache history-24h.json; no 24h price history is known"
      ])
  }

  @Test func aHistoryInAnotherCurrency_isNoHistory() {
    let sut = makeSUT(
      store: InMemoryCandleStore(stored: [.day: .of([.flat(0, "1")], currency: .eur)]),
      loader: ScriptedHistoryLoader([]))

    #expect(sut.series(.day) == nil)
  }

  @Test func aStoreThatCannotBeWritten_isWarnedOfOncePerRunOfFailures() async throws {
    let warnings = Locked<[String]>([])
    let store = InMemoryCandleStore(saveError: "cannot write history-24h.json: disk full")
    let loader = ScriptedHistoryLoader(
      (0..<3).map { .success(fetched(at: 1_795_356_000 + TimeInterval($0) * 900)) })
    let sut = makeSUT(store: store, loader: loader, warn: { warnings.append($0) })

    _ = try await sut.refreshIfDue(.day)
    await clock.advance(to: .seconds(900))
    _ = try await sut.refreshIfDue(.day)
    store.failSaves(nil)
    await clock.advance(to: .seconds(1_800))
    _ = try await sut.refreshIfDue(.day)

    #expect(
      warnings.value == [
        "cannot write history-24h.json: disk full (will keep running without saving the price "
          + "history)"
      ])
    #expect(store.saved.count == 1)
  }

  @Test func aStoreThatCannotBeWritten_isWarnedOfAtOnceAndAgainAfterARecovery() async throws {
    let warnings = Locked<[String]>([])
    let store = InMemoryCandleStore(saveError: "disk full")
    let loader = ScriptedHistoryLoader(
      (0..<3).map { .success(fetched(at: 1_795_356_000 + TimeInterval($0) * 900)) })
    let sut = makeSUT(store: store, loader: loader, warn: { warnings.append($0) })

    _ = try await sut.refreshIfDue(.day)
    #expect(warnings.value.count == 1, "the first failed write is warned of")
    store.failSaves(nil)
    await clock.advance(to: .seconds(900))
    _ = try await sut.refreshIfDue(.day)
    store.failSaves("disk full")
    await clock.advance(to: .seconds(1_800))
    _ = try await sut.refreshIfDue(.day)

    #expect(warnings.value.count == 2, "a new run of failures after a good write")
  }

  @Test func livePrices_extendTheHistoryHeldButNeverFetchNorSave() async throws {
    let store = InMemoryCandleStore()
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_000))])
    let sut = makeSUT(store: store, loader: loader)
    _ = try await sut.refreshIfDue(.day)

    for second in 0..<60 {
      sut.record(
        quote("70000.5", at: Date(timeIntervalSince1970: 1_795_356_000 + TimeInterval(second))))
    }
    sut.record(PriceQuote(value: 1, currency: "EUR", timestamp: now(), source: .binance))

    #expect(sut.series(.day)?.candles.last?.close == Decimal(string: "70000.5"))
    #expect(sut.series(.day)?.candles.last?.high == Decimal(string: "70000.5"))
    #expect(loader.asked == [.day])
    #expect(store.saved.count == 1)
  }

  @Test func running_fetchesEachRangeAtStartThenAtItsOwnPace() async throws {
    let now = now
    let loader = ScriptedHistoryLoader([]) {
      .of([.flat(1_795_355_700, "68900")], fetchedAt: now().timeIntervalSince1970)
    }
    let sut = makeSUT(store: nil, loader: loader)

    let running = Task { await sut.run([.day, .week]) }
    // At start both; the day again at 15, 30 and 45 minutes; both at the hour.
    await clock.advance(to: .seconds(900), afterSleeps: 1)
    await clock.advance(to: .seconds(1_800), afterSleeps: 2)
    await clock.advance(to: .seconds(2_700), afterSleeps: 3)
    await clock.advance(to: .seconds(3_600), afterSleeps: 4)
    await waitUntil({ loader.asked.count == 7 }, "seven fetches")
    running.cancel()
    await running.value

    #expect(loader.asked == [.day, .week, .day, .day, .day, .day, .week])
  }

  @Test func aFetchThatFailsInAnotherWay_isAlsoRetriedAfterTwoMinutes() async throws {
    struct Unexpected: Error {}
    let sut = CandleHistory(
      currency: .usd, store: nil, load: { _ in throw Unexpected() }, clock: clock, now: now)

    #expect(try await sut.refreshIfDue(.day) == .failed(PriceFetchFailure(failures: [])))
    #expect(sut.nextRefresh(.day) == Date(timeIntervalSince1970: 1_795_356_120))
  }

  @Test func aSuccessAfterAFailure_isNextDueAtItsOwnPace() async throws {
    let loader = ScriptedHistoryLoader([
      .failure(PriceFetchFailure(failures: [])), .success(fetched(at: 1_795_356_120)),
    ])
    let sut = makeSUT(store: nil, loader: loader)

    _ = try await sut.refreshIfDue(.day)
    await clock.advance(to: .seconds(120))
    #expect(try await sut.refreshIfDue(.day) == .refreshed(fetched(at: 1_795_356_120)))

    #expect(
      sut.nextRefresh(.day) == Date(timeIntervalSince1970: 1_795_356_120 + 900),
      "15 minutes after the fetch, not 2 minutes after the failure")
  }

  @Test(arguments: ["a failure", "another error", "a history"])
  func aFetchCancelledOnItsWay_isCancelledWhateverItBrings(brings: String) async throws {
    struct Unexpected: Error {}
    let clock = clock
    let fetched = fetched(at: 1_795_356_000)
    // A loader that notices no cancellation: it answers once the wait ends, however it ended.
    let sut = CandleHistory(
      currency: .usd, store: nil,
      load: { _ in
        try? await clock.sleep(until: clock.origin.advanced(by: .seconds(3600)))
        switch brings {
        case "a failure": throw PriceFetchFailure(failures: [])
        case "another error": throw Unexpected()
        default: return fetched
        }
      }, clock: clock, now: now)

    let refreshing = Task { try await sut.refreshIfDue(.day) }
    await waitUntil({ clock.sleepsStarted >= 1 })
    refreshing.cancel()

    await #expect(throws: CancellationError.self) { try await refreshing.value }
    #expect(sut.series(.day) == nil)
    #expect(sut.nextRefresh(.day) == now(), "no failure recorded: still due at once")
  }

  @Test func aFetchAlreadyUnderWay_isNotStartedTwice() async throws {
    let clock = clock
    let fetched = fetched(at: 1_795_356_000)
    let calls = Locked(0)
    let sut = CandleHistory(
      currency: .usd, store: nil,
      load: { _ in
        // The first fetch waits on the clock; any other answers at once.
        if calls.withValue({ calls in
          defer { calls += 1 }
          return calls == 0
        }) {
          try await clock.sleep(until: clock.origin.advanced(by: .seconds(5)))
        }
        return fetched
      }, clock: clock, now: now)

    let first = Task { try await sut.refreshIfDue(.day) }
    await waitUntil({ clock.sleepsStarted >= 1 })

    #expect(try await sut.refreshIfDue(.day) == .notDue(until: now()))
    #expect(calls.value == 1)
    await clock.advance(to: .seconds(5))
    #expect(try await first.value == .refreshed(fetched))
  }

  @Test func waitingForTheFirstLook_endsAtItsLimit() async throws {
    let sut = makeSUTWhoseLoadHangs()
    let running = Task { await sut.run([.day]) }
    let waited = Locked(false)

    let waiting = Task {
      await sut.waitForFirstLook(atMost: .seconds(2))
      waited.withValue { $0 = true }
    }
    await clock.advance(to: .seconds(2), afterSleeps: 2)

    await waitUntil({ waited.value }, "the wait outlived its limit")
    running.cancel()
    waiting.cancel()
  }

  @Test func everyoneWaitingForTheFirstLook_isLetGoWhenItEnds() async throws {
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_000))])
    let sut = makeSUT(store: nil, loader: loader)
    let waited = Locked(0)

    let waiting = (0..<2).map { _ in
      Task {
        await sut.waitForFirstLook(atMost: .seconds(60))
        waited.withValue { $0 += 1 }
      }
    }
    await waitUntil({ clock.sleepsStarted >= 2 })
    for _ in 0..<1000 { await Task.yield() }
    let running = Task { await sut.run([.day]) }

    await waitUntil({ waited.value == 2 }, "both waiters go once the day was fetched")
    running.cancel()
    for task in waiting { task.cancel() }
  }

  @Test func livePrices_keepTheDaysCandlesForADayAndTwoCandlesMore() {
    let start: TimeInterval = 1_795_000_000
    let kept = CandleSeries.of(
      [.flat(start, "68900"), .flat(start + 300, "69000")], fetchedAt: start)
    let sut = makeSUT(
      store: InMemoryCandleStore(stored: [.day: kept]), loader: ScriptedHistoryLoader([]))
    _ = sut.series(.day)

    // 24 h 10 min after the first candle ended: it is still kept.
    sut.record(quote("69100", at: Date(timeIntervalSince1970: start + 300 + 87_000)))
    #expect(sut.held(.day)?.candles.first?.start == Date(timeIntervalSince1970: start))
    // A candle later it is not.
    sut.record(quote("69200", at: Date(timeIntervalSince1970: start + 600 + 87_000)))
    #expect(sut.held(.day)?.candles.first?.start == Date(timeIntervalSince1970: start + 300))
  }

  @Test func aRunEndedBeforeItsFirstLook_letsItsWaitersGo() async throws {
    let sut = makeSUTWhoseLoadHangs()
    let running = Task { await sut.run([.day]) }
    let waited = Locked(false)
    let waiting = Task {
      await sut.waitForFirstLook(atMost: .seconds(60))
      waited.withValue { $0 = true }
    }
    await waitUntil({ clock.sleepsStarted >= 2 })

    running.cancel()

    await waitUntil({ waited.value }, "the waiter waits for a look that will never come")
    waiting.cancel()
  }

  @Test func aRangeDueWithinASecond_isFetchedASecondOnNotSooner() async throws {
    // Due half a second after the start: the loop still waits its one second.
    let kept = CandleSeries.of(
      [.flat(1_795_355_100, "68900")], fetchedAt: 1_795_356_000 - 899.5)
    let loader = ScriptedHistoryLoader([.success(fetched(at: 1_795_356_001))])
    let sut = makeSUT(store: InMemoryCandleStore(stored: [.day: kept]), loader: loader)

    let running = Task { await sut.run([.day]) }
    await clock.advance(to: .milliseconds(500), afterSleeps: 1)
    for _ in 0..<1000 { await Task.yield() }
    #expect(loader.asked.isEmpty, "not before a second")
    await clock.advance(to: .seconds(1))

    await waitUntil({ loader.asked == [.day] }, "fetched a second after the start")
    running.cancel()
  }

  /// A history whose every load waits an hour of the test clock (which no test advances that
  /// far) and then fails: its first look never comes on its own.
  private func makeSUTWhoseLoadHangs() -> CandleHistory {
    let clock = clock
    return CandleHistory(
      currency: .usd, store: nil,
      load: { _ in
        try await clock.sleep(until: clock.origin.advanced(by: .seconds(3600)))
        throw PriceFetchFailure(failures: [])
      }, clock: clock, now: now)
  }

  private func makeSUT(
    store: InMemoryCandleStore?, loader: ScriptedHistoryLoader,
    warn: @escaping @Sendable (String) -> Void = { _ in }
  ) -> CandleHistory {
    CandleHistory(
      currency: .usd, store: store, load: { try await loader.load($0) }, clock: clock, now: now,
      warn: warn)
  }

  private func fetched(at seconds: TimeInterval) -> CandleSeries {
    .of([.flat(seconds - 600, "68900"), .flat(seconds - 300, "69000")], fetchedAt: seconds)
  }
}

/// Answers each fetch with the next scripted result, then with `then` (or a failure), recording
/// the ranges asked for.
final class ScriptedHistoryLoader: Sendable {
  private let results: Locked<[Result<CandleSeries, PriceFetchFailure>]>
  private let then: (@Sendable () -> CandleSeries)?
  private let recorded = Locked<[ChartRange]>([])

  init(
    _ results: [Result<CandleSeries, PriceFetchFailure>],
    then: (@Sendable () -> CandleSeries)? = nil
  ) {
    self.results = Locked(results)
    self.then = then
  }

  var asked: [ChartRange] { recorded.value }

  func load(_ range: ChartRange) async throws -> CandleSeries {
    recorded.append(range)
    let next = results.withValue { $0.isEmpty ? nil : $0.removeFirst() }
    if let next { return try next.get() }
    guard let then else { throw PriceFetchFailure(failures: []) }
    return then()
  }
}
