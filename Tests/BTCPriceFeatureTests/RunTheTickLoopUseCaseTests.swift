import BTCPriceCore
import BTCPriceFeature
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceTickLoop`: the one loop the terminal, `serve` and the app run. On the grid, each tick
/// asks the feed within its budget and hands the presenter's state to the view.
@Suite(
  "Run the tick loop every front end shares", .timeLimit(.minutes(1)), .hangLimit(.seconds(10)))
struct RunTheTickLoopUseCaseTests {
  let clock = SteppedTestClock()

  @Test func run_showsEachTicksPresentedState_thenReturnsAfterCount() async throws {
    let shown = Locked<[String]>([])
    let sut = makeSUT(
      ScriptedLoader(.answer(quote("68901.23")), .fail(.httpStatus(500, message: nil))))

    let running = Task {
      try await sut.run(count: 2) { state in
        shown.withValue { $0.append(state.isStale ? "stale \(state.priceText)" : state.priceText) }
      }
    }
    // Each tick starts two sleeps: the source's deadline, then the wait for the next slot.
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    try await running.value

    #expect(shown.value == ["$68,901.23", "stale $68,901.23"])
  }

  @Test func run_tellsEachTicksSlotAndBudgetBeforeAskingTheSources() async throws {
    let started = Locked<[String]>([])
    let loader = ScriptedLoader(.answer(quote("68901.23")))
    let sut = makeSUT(loader) { slot, budget in
      started.withValue { $0.append("\(slot) \(budget) asked \(loader.calls.count)") }
    }

    let running = Task { try await sut.run(count: 2) { _ in } }
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    try await running.value

    #expect(started.value == ["0 1.0 seconds asked 0", "1 1.0 seconds asked 1"])
  }

  @Test func run_endsWithWhatTheViewThrows() async {
    struct ReaderGone: Error {}
    let sut = makeSUT(ScriptedLoader(.answer(quote("68901.23"))))

    await #expect(throws: ReaderGone.self) {
      try await sut.run { _ in throw ReaderGone() }
    }
  }

  @Test func run_showsNothingForATickCancelledInFlight() async {
    let shown = Locked(0)
    let sut = makeSUT(ScriptedLoader(.hang))

    let running = Task { try await sut.run { _ in shown.withValue { $0 += 1 } } }
    await waitUntil({ self.clock.sleepsStarted >= 1 }, "the first tick never asked its source")
    running.cancel()
    _ = await running.result

    #expect(shown.value == 0)
  }

  // MARK: - Helpers

  private func makeSUT(
    _ loader: ScriptedLoader,
    tickStarted: @escaping @Sendable (Int, Duration) -> Void = { _, _ in }
  ) -> PriceTickLoop {
    let chain = PriceSourceChain([.init(source: .binance, loader: loader)], clock: clock)
    return PriceTickLoop(
      interval: .seconds(1), clock: clock, feed: PriceFeed(chain: chain, cache: nil),
      presenter: PricePresenter(timestamps: TimestampFormatter(precision: .seconds)),
      tickStarted: tickStarted)
  }

}
