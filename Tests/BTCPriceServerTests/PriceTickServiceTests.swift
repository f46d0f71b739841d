import BTCPriceCore
import BTCPriceFeature
import BTCPriceServer
import BTCPriceTestSupport
import Logging
import ServiceLifecycle
import Testing

@Suite(
  "Tick once for every viewer, and stop cleanly", .timeLimit(.minutes(1)), .hangLimit(.seconds(10)))
struct PriceTickServiceTests {
  @Test func eachTickIsPublishedAndCounted() async throws {
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let metrics = ServerMetrics(sources: [.binance])
    let sut = PriceTickService(
      broadcaster: broadcaster, metrics: metrics, clock: SteppedTestClock()
    ) {
      publish in
      publish(fresh("68901.23"))
      publish(stale(quote("68901.23")))
      try await Task.sleep(for: .seconds(3600))
    }

    let running = Task { try await sut.run() }
    await waitUntil({ broadcaster.latest.id == 2 })
    running.cancel()
    try await running.value

    let text = metrics.render(latest: broadcaster.latest, viewers: 0)
    #expect(text.contains("btc_price_ticks_total 2"), "\(text)")
    #expect(text.contains("btc_price_failed_ticks_total 1"), "\(text)")
  }

  @Test func sendsAHeartbeatEveryFifteenSecondsOfItsClock() async throws {
    let clock = SteppedTestClock()
    let broadcaster = PriceBroadcaster(initial: nothingKnown)
    let sut = PriceTickService(broadcaster: broadcaster, metrics: nil, clock: clock) { _ in
      try await Task.sleep(for: .seconds(3600))
    }
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
    let ticking = Locked(true)
    let sut = PriceTickService(broadcaster: broadcaster, metrics: nil, clock: SteppedTestClock()) {
      publish in
      publish(fresh("68901.23"))
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        ticking.withValue { $0 = false }
        throw error
      }
    }
    let sink = RecordingSink()
    _ = broadcaster.attach(sink)
    let group = ServiceGroup(
      services: [sut], gracefulShutdownSignals: [], cancellationSignals: [],
      logger: Logger(label: "test"))
    let running = Task { try await group.run() }
    await waitUntil({ broadcaster.latest.id == 1 })

    await group.triggerGracefulShutdown()
    try await running.value

    #expect(ticking.value == false)
    #expect(sink.eventIDs == [1])
    #expect(sink.finished)
    #expect(broadcaster.attach(RecordingSink()) == nil)
  }
}
