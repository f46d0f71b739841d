import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceTestSupport
import Foundation
import Testing

/// `PriceTickLoop`: the one path of every tick, for every front end. On the grid, each tick asks
/// the feed within its budget, has the presenter word it, says the notices once, fires the alerts
/// into the deliveries, and hands the view one tick; the connections live as long as the loop.
@Suite(
  "Run the tick loop every front end shares", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct RunTheTickLoopUseCaseTests {
  let clock = SteppedTestClock()

  @Test func run_showsEachTicksPresentedState_thenReturnsTheLastAfterCount() async throws {
    let shown = Locked<[String]>([])
    let sut = makeSUT(
      ScriptedLoader(.answer(quote("68901.23")), .fail(.httpStatus(500, message: nil))))

    let running = Task {
      try await sut.run(count: 2) { tick in
        let state = tick.state
        shown.withValue { $0.append(state.isStale ? "stale \(state.priceText)" : state.priceText) }
      }
    }
    // Each tick starts two sleeps: the source's deadline, then the wait for the next slot.
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    let last = try await running.value

    #expect(shown.value == ["$68,901.23", "stale $68,901.23"])
    #expect(last?.state.isStale == true)
  }

  @Test func run_tellsEachTicksSlotAndBudgetBeforeAskingTheSources() async throws {
    let started = Locked<[String]>([])
    let loader = ScriptedLoader(.answer(quote("68901.23")))
    let sut = makeSUT(loader) { slot, budget in
      started.withValue { $0.append("\(slot) \(budget) asked \(loader.calls.count)") }
    }

    let running = Task { try await sut.run(count: 2) { _ in } }
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    _ = try await running.value

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

  // MARK: Notices

  @Test func theOutage_isSaidOnceOnItsThirdFailedTick_beforeThatTicksState_withItsReason()
    async throws
  {
    let view = ViewSpy()
    let sut = makeSUT(
      ScriptedLoader(
        .fail(.unreachable("host not found")), .fail(.unreachable("host not found")),
        .fail(.unreachable("host not found")), .fail(.unreachable("host not found")),
        .answer(quote("68901.23"))),
      breakers: nil)

    let running = Task { try await sut.run(count: 5, view: view) }
    for tick in 1...4 { await clock.advance(to: .seconds(tick), afterSleeps: 2 * tick) }
    _ = try await running.value

    let reason =
      "no source's host name could be found — is this machine offline? Behind a company firewall, "
      + "set --proxy (or $https_proxy)"
    #expect(
      view.events == [
        "show stale", "show stale", "notice no source has given a price for 3 ticks: \(reason)",
        "show stale (\(reason))", "show stale (\(reason))", "notice prices are back (from binance)",
        "show $68,901.23",
      ])
  }

  @Test func aRunOfFewerTicksThanTheOutageThreshold_saysWhyOnItsLastTick() async throws {
    let view = ViewSpy()
    let sut = makeSUT(ScriptedLoader(.fail(.unreachable("connection refused"))))

    _ = try await sut.run(count: 1, view: view)

    #expect(view.events.first?.hasPrefix("notice no source has given a price: ") == true)
  }

  @Test func twoStreamsThatStartToDisagree_areSaidOnce() async throws {
    let view = ViewSpy()
    let shown = quote("68880.55", source: .coinbase)
    let settled = StreamFirstPriceLoader.Tick(
      quote: shown, transport: .stream(.coinbase),
      crossCheck: .settled(
        shown, rejected: quote("6890.12", source: .binance), referee: .kraken))
    let sut = makeSUT(feed: PriceFeed(load: { _ in settled }, cache: nil))

    let running = Task { try await sut.run(count: 2, view: view) }
    await clock.advance(to: .seconds(1), afterSleeps: 1)
    _ = try await running.value

    #expect(view.events.filter { $0.hasPrefix("notice ") }.count == 1)
    #expect(view.events.first?.hasPrefix("notice the binance stream's price") == true)
  }

  // MARK: Alerts

  @Test func aFiredRule_isWordedOnTheTicksState_andHandedToEachDeliveryBeforeTheViewShowsIt()
    async throws
  {
    let order = Locked<[String]>([])
    let view = ViewSpy(order: order)
    let deliveries = [DeliverySpy(order: order), DeliverySpy(order: order)]
    let engine = AlertEngine(
      rules: [try AlertRule.parse("above:100000")], currency: "USD", clock: clock,
      runStarted: quote().timestamp.addingTimeInterval(-1), store: nil)
    let sut = makeSUT(
      ScriptedLoader(.answer(quote("99000")), .answer(quote("100500"))), alerts: engine,
      deliveries: deliveries)

    let running = Task { try await sut.run(count: 2, view: view) }
    await clock.advance(to: .seconds(1), afterSleeps: 2)
    let last = try await running.value

    #expect(last?.state.alert?.text == "above $100,000.00")
    #expect(deliveries.map(\.delivered) == [["above $100,000.00"], ["above $100,000.00"]])
    #expect(order.value == ["show $99,000.00", "deliver", "deliver", "show $100,500.00"])
  }

  // MARK: Connections

  @Test func theConnections_openBeforeTheFirstTick_whichWaitsUntilTheyAreReady_andCloseAfter()
    async throws
  {
    let events = Locked<[String]>([])
    let (ready, becomeReady) = AsyncStream.makeStream(of: Void.self)
    let connections = PriceConnections(
      run: {
        events.append("open")
        let (never, end) = AsyncStream.makeStream(of: Void.self)
        await withTaskCancellationHandler {
          for await _ in never {}
        } onCancel: {
          end.finish()
        }
        events.append("closed")
      },
      ready: {
        for await _ in ready { return }
      })
    let sut = makeSUT(ScriptedLoader(.answer(quote("68901.23"))), connections: connections)

    let running = Task {
      try await sut.run(count: 1) { _ in events.append("tick") }
    }
    await waitUntil({ events.value == ["open"] })
    #expect(events.value == ["open"], "a tick before the connections were ready")
    becomeReady.yield()
    _ = try await running.value

    #expect(events.value == ["open", "tick", "closed"])
  }

  // MARK: - Helpers

  private func makeSUT(
    _ loader: ScriptedLoader, breakers: CircuitBreakerPolicy? = .standard,
    connections: PriceConnections = .none, alerts: AlertEngine? = nil,
    deliveries: [any AlertDelivery] = [],
    tickStarted: @escaping @Sendable (Int, Duration) -> Void = { _, _ in }
  ) -> PriceTickLoop {
    let chain = PriceSourceChain(
      [.init(source: .binance, loader: loader)], clock: clock, breakers: breakers)
    return makeSUT(
      feed: PriceFeed(chain: chain, cache: nil), connections: connections, alerts: alerts,
      deliveries: deliveries, tickStarted: tickStarted)
  }

  private func makeSUT(
    feed: PriceFeed, connections: PriceConnections = .none, alerts: AlertEngine? = nil,
    deliveries: [any AlertDelivery] = [],
    tickStarted: @escaping @Sendable (Int, Duration) -> Void = { _, _ in }
  ) -> PriceTickLoop {
    PriceTickLoop(
      interval: .seconds(1), clock: clock, feed: feed,
      presenter: PricePresenter(timestamps: TimestampFormatter(precision: .seconds)),
      connections: connections, alerts: alerts, deliveries: deliveries, tickStarted: tickStarted)
  }
}

/// Records what the loop hands a view, in order.
private final class ViewSpy: PriceTickView {
  private let order: Locked<[String]>

  init(order: Locked<[String]> = Locked([])) {
    self.order = order
  }

  var events: [String] { order.value }

  func notice(_ line: String) {
    order.append("notice \(line)")
  }

  func show(_ tick: PriceTick) {
    let reason = tick.outageReason.map { " (\($0))" } ?? ""
    order.append("show \(tick.state.isStale ? "stale" : tick.state.priceText)\(reason)")
  }
}

/// Records the alerts it is handed.
private final class DeliverySpy: AlertDelivery {
  private let order: Locked<[String]>
  private let texts = Locked<[String]>([])

  init(order: Locked<[String]>) {
    self.order = order
  }

  var delivered: [String] { texts.value }

  func deliver(_ alerts: AlertViewState) {
    texts.append(alerts.text)
    order.append("deliver")
  }
}
