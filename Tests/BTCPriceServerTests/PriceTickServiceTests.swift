import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceServer
import BTCPriceTestSupport
import Logging
import ServiceLifecycle
import Testing

@Suite(
  "Tick once for every viewer, and stop cleanly", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct PriceTickServiceTests {
  let ticks = SteppedTestClock()

  @Test func eachTickIsPublishedAndCounted() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let metrics = ServerMetrics(sources: [.binance])
    let sut = PriceTickService(
      loop: makeLoop(
        ScriptedLoader(.answer(quote("68901.23")), .fail(.httpStatus(500, message: nil)))),
      broadcaster: broadcaster, metrics: metrics, clock: SteppedTestClock())

    let running = Task { try await sut.run() }
    // Each tick starts two sleeps: the source's deadline, then the wait for the next slot.
    await ticks.advance(to: .seconds(1), afterSleeps: 2)
    await waitUntil({ broadcaster.latest.id == 2 })
    running.cancel()
    try await running.value

    #expect(broadcaster.latest.state.isStale)
    let text = metrics.render(latest: broadcaster.latest, viewers: 0)
    #expect(text.contains("btc_price_ticks_total 2"), "\(text)")
    #expect(text.contains("btc_price_failed_ticks_total 1"), "\(text)")
  }

  @Test func theLoopsNotices_goToStderrOnce() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let warnings = Locked<[String]>([])
    let sut = PriceTickService(
      loop: makeLoop(ScriptedLoader(.fail(.unreachable("host not found")))),
      broadcaster: broadcaster, metrics: nil, clock: SteppedTestClock(),
      warn: { line in warnings.append(line) })

    let running = Task { try await sut.run() }
    for tick in 1...4 {
      await ticks.advance(to: .seconds(tick), afterSleeps: 2 * tick)
    }
    await waitUntil({ broadcaster.latest.id == 5 })
    running.cancel()
    try await running.value

    #expect(
      warnings.value == [
        "no source has given a price for 3 ticks: no source's host name could be found — is this "
          + "machine offline? Behind a company firewall, set --proxy (or $https_proxy)"
      ])
  }

  @Test func sendsAHeartbeatEveryFifteenSecondsOfItsClock() async throws {
    let clock = SteppedTestClock()
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let sut = PriceTickService(
      loop: makeLoop(ScriptedLoader(.hang)), broadcaster: broadcaster, metrics: nil, clock: clock)
    let sink = RecordingSink()
    _ = broadcaster.attach(sink)

    let running = Task { try await sut.run() }
    await clock.advance(to: .seconds(14), afterSleeps: 1)
    #expect(sink.deliveries.isEmpty)
    await clock.advance(to: .seconds(15))
    await waitUntil({ sink.deliveries == [.heartbeat] }, "no heartbeat at 15 s")
    await clock.advance(to: .seconds(30), afterSleeps: 2)
    await waitUntil({ sink.deliveries == [.heartbeat, .heartbeat] }, "no heartbeat at 30 s")

    running.cancel()
    try await running.value
  }

  @Test func gracefulShutdown_stopsTickingAndEndsEveryStream() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let loader = ScriptedLoader(.answer(quote("68901.23")))
    let sut = PriceTickService(
      loop: makeLoop(loader), broadcaster: broadcaster, metrics: nil, clock: SteppedTestClock())
    let sink = RecordingSink()
    _ = broadcaster.attach(sink)
    let group = ServiceGroup(
      services: [sut], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: Logger(label: "test"))
    let running = Task { try await group.run() }
    await waitUntil({ broadcaster.latest.id == 1 })

    await group.triggerGracefulShutdown()
    try await running.value
    await ticks.advance(to: .seconds(5))

    #expect(loader.calls.count == 1, "a tick after the shutdown")
    #expect(sink.eventIDs == [1])
    #expect(sink.finished)
    #expect(broadcaster.attach(RecordingSink()) == nil)
  }

  // MARK: - Helpers

  private func makeLoop(_ loader: ScriptedLoader) -> PriceTickLoop {
    let chain = PriceSourceChain(
      [.init(source: .binance, loader: loader)], clock: ticks, breakers: nil)
    return PriceTickLoop(
      interval: .seconds(1), clock: ticks, feed: PriceFeed(chain: chain, cache: nil),
      presenter: presenter)
  }
}
