import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import BTCPriceURLSession
import Foundation
import Testing

/// The app's view model over real HTTP on 127.0.0.1 through the URLSession adapter, with ticks
/// driven by a test clock: what backgrounding, foregrounding and leaving the screen do to requests.
@Suite("Price screen lifecycle over real HTTP", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
@MainActor
struct LifecycleIntegrationTests {
  let clock = SteppedTestClock()
  let cached = PriceStoreSpecs.sample

  @Test func background_stopsTickingSoTenSecondsSendNoRequest() async throws {
    try await withSUT { sut, server, requests, store in
      await server.stub(.binance, .binance(price: "68901.23"))
      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

      sut.phaseDidChange(to: .background)
      await clock.advance(to: .seconds(10))

      #expect(await server.waitForRequests(to: .binance, count: 2, timeout: .seconds(1)) == false)
      #expect(requests.starts == [.zero])
      #expect(store.savedQuotes.count == 1, "nothing is written in the background")
      await stop(running)
    }
  }

  @Test func background_cancelsTheRequestInFlightAndLeavesTheScreenAsItWas() async throws {
    try await withSUT(cache: cached) { sut, server, requests, store in
      await server.stub(.binance, .binance(price: "1.00", delay: .seconds(10)))
      let running = Task { await sut.run() }
      #expect(await server.waitForRequests(to: .binance, count: 1))

      sut.phaseDidChange(to: .background)
      await waitOnMainActor(
        until: { requests.cancelled.value == 1 }, "the request was not cancelled",
        timeout: .seconds(5))

      #expect(sut.priceText == "$68,901.23")
      #expect(sut.bannerText == nil, "a cancelled tick is not a failed one")
      #expect(store.savedQuotes.count == 0)
      await stop(running)
    }
  }

  @Test func active_ticksAtOnceThenEverySecond() async throws {
    try await withSUT { sut, server, requests, _ in
      await server.stub(
        .binance, .binance(price: "68901.00"), .binance(price: "68902.00"),
        .binance(price: "68903.00"))
      sut.phaseDidChange(to: .background)
      let running = Task { await sut.run() }
      await clock.advance(to: .seconds(5))
      #expect(await server.waitForRequests(to: .binance, count: 1, timeout: .seconds(1)) == false)

      sut.phaseDidChange(to: .active)
      await waitOnMainActor(until: { sut.priceText == "$68,901.00" })
      await clock.advance(to: .seconds(6))
      await waitOnMainActor(until: { sut.priceText == "$68,902.00" })
      await clock.advance(to: .seconds(7))
      await waitOnMainActor(until: { sut.priceText == "$68,903.00" })

      #expect(requests.starts == [.seconds(5), .seconds(6), .seconds(7)])
      await stop(running)
    }
  }

  @Test func rapidBackgroundActiveToggling_neverRunsTwoTickers() async throws {
    try await withSUT { sut, server, requests, _ in
      await server.stub(.binance, .binance(price: "68901.23", delay: .milliseconds(5)))
      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

      for _ in 0..<20 {
        sut.phaseDidChange(to: .background)
        sut.phaseDidChange(to: .active)
      }
      for _ in 0..<20 {
        sut.phaseDidChange(to: .background)
        await Task.yield()
        sut.phaseDidChange(to: .inactive)
        sut.phaseDidChange(to: .active)
        await Task.yield()
      }
      for second in 1...3 {
        await clock.advance(to: .seconds(second))
        await waitOnMainActor(
          until: { requests.finished(startedAt: .seconds(second)) == 1 },
          "no tick completed at \(second) s")
      }
      let sentMore = await server.waitForRequests(
        to: .binance, count: requests.starts.count + 1, timeout: .milliseconds(500))

      #expect(requests.maxInFlight.value == 1, "two requests overlapped")
      for second in 1...3 {
        #expect(requests.starts.filter { $0 == .seconds(second) }.count == 1)
      }
      #expect(sentMore == false)
      await stop(running)
    }
  }

  @Test func leavingTheScreen_cancelsTheRequestInFlightAndStopsTicking() async throws {
    try await withSUT { sut, server, requests, store in
      await server.stub(.binance, .binance(price: "1.00", delay: .seconds(10)))
      let running = Task { await sut.run() }
      #expect(await server.waitForRequests(to: .binance, count: 1))
      let left = ContinuousClock.now

      await stop(running)
      await clock.advance(to: .seconds(10))

      #expect(ContinuousClock.now - left < .seconds(5))
      #expect(requests.cancelled.value == 1)
      #expect(await server.waitForRequests(to: .binance, count: 2, timeout: .seconds(1)) == false)
      #expect(store.savedQuotes.count == 0)
    }
  }

  @Test func aPhaseChange_whileNoScreenRuns_sendsNothing() async throws {
    // SwiftUI can report the scene's phase before the screen's `.task` starts, and after it
    // ended: neither may start a ticker that nothing would stop.
    try await withSUT { sut, server, requests, _ in
      await server.stub(.binance, .binance(price: "68901.00"))
      sut.phaseDidChange(to: .background)
      sut.phaseDidChange(to: .active)
      await clock.advance(to: .seconds(3))
      #expect(
        await server.waitForRequests(to: .binance, count: 1, timeout: .seconds(1)) == false,
        "a request before the screen ran")

      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$68,901.00" })
      await stop(running)
      sut.phaseDidChange(to: .background)
      sut.phaseDidChange(to: .active)
      await clock.advance(to: .seconds(10))

      #expect(
        await server.waitForRequests(to: .binance, count: 2, timeout: .seconds(1)) == false,
        "a request after the screen went away")
      #expect(requests.starts == [.seconds(3)])
    }
  }

  @Test func backFromControlCenter_thenBackground_stopsTicking() async throws {
    // Control Center, a call's banner or the app switcher take the scene to inactive and back to
    // active without a background in between: the ticker already running is the only one, and
    // going to the background later stops it.
    try await withSUT { sut, server, requests, _ in
      await server.stub(.binance, .binance(price: "68901.23"))
      let running = Task { await sut.run() }
      await waitOnMainActor(until: { sut.priceText == "$68,901.23" })

      sut.phaseDidChange(to: .inactive)
      sut.phaseDidChange(to: .active)
      sut.phaseDidChange(to: .background)
      await clock.advance(to: .seconds(10))

      #expect(await server.waitForRequests(to: .binance, count: 2, timeout: .seconds(1)) == false)
      #expect(requests.starts == [.zero])
      await stop(running)
    }
  }

  // MARK: - Helpers

  private func withSUT(
    cache: PriceQuote? = nil,
    _ body: (PriceViewModel, FakeExchangeServer, RequestRecorder, InMemoryPriceStore) async throws
      -> Void
  ) async throws {
    // Not `FakeExchangeServer.withRunning`: its body is nonisolated, and this one is on the
    // main actor with the view model.
    let server = try await FakeExchangeServer.start()
    let client = URLSessionHTTPClient()
    let requests = RequestRecorder(client, clock: clock)
    let now = cached.timestamp
    let chain = PriceSourceChain(
      [
        .init(
          source: .binance,
          loader: RemotePriceLoader(
            client: requests, definition: .binance, currency: .usd, url: server.url(for: .binance),
            now: { now }),
          timeout: .milliseconds(800))
      ],
      clock: clock)
    let store = InMemoryPriceStore(stored: cache)
    let sut = PriceViewModel(
      feed: PriceFeed(chain: chain, cache: PriceCache(store: store, clock: clock)), clock: clock,
      timeZone: { TimeZone(identifier: "UTC")! })
    do {
      try await body(sut, server, requests, store)
    } catch {
      await server.stop()
      client.shutdown()
      throw error
    }
    await server.stop()
    client.shutdown()
  }

  private func stop(_ running: Task<Void, Never>) async {
    running.cancel()
    await running.value
  }
}

/// Wraps the real client and records, on the test clock, when each request started, how many
/// were cancelled and how many were ever in flight at once.
private final class RequestRecorder: BTCHTTPClient {
  private let client: any BTCHTTPClient
  private let clock: SteppedTestClock
  private let log = Locked<[(start: Duration, finished: Bool)]>([])
  private let inFlight = Locked(0)
  let maxInFlight = Locked(0)
  let cancelled = Locked(0)

  init(_ client: any BTCHTTPClient, clock: SteppedTestClock) {
    self.client = client
    self.clock = clock
  }

  var starts: [Duration] { log.value.map(\.start) }

  func finished(startedAt start: Duration) -> Int {
    log.value.filter { $0.start == start && $0.finished }.count
  }

  func get(_ request: BTCHTTPRequest) async throws -> BTCHTTPResponse {
    let index = log.withValue {
      $0.append((clock.elapsed, false))
      return $0.count - 1
    }
    let running = inFlight.withValue {
      $0 += 1
      return $0
    }
    maxInFlight.withValue { $0 = max($0, running) }
    defer { inFlight.withValue { $0 -= 1 } }
    do {
      let response = try await client.get(request)
      log.withValue { $0[index].finished = true }
      return response
    } catch {
      if error is CancellationError { cancelled.withValue { $0 += 1 } }
      throw error
    }
  }
}

/// An in-memory store that counts saves.
