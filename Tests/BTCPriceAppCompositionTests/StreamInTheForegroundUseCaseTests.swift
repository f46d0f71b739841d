import BTCPriceAppComposition
import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The app as composed, with a test connector for its streams and the test clock: the ticks read
/// the streams while the app is in the foreground, make no REST request while they are healthy,
/// and the streams close in the background and reopen at once on return.
@Suite("Stream the price in the foreground", .timeLimit(.minutes(1)), .hangLimit(.seconds(20)))
@MainActor
struct StreamInTheForegroundUseCaseTests {
  let clock = SteppedTestClock()
  static let binance = "data-stream.binance.vision"
  static let coinbase = "ws-feed.exchange.coinbase.com"

  @Test func foreground_ticksFromTheStreams_withoutARESTRequest() async throws {
    let (sut, client, connector) = makeSUT(greeting: "70123.45")
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { connector.openHosts == [Self.coinbase, Self.binance].sorted() })
    await waitOnMainActor(until: { connector.delivered == 2 }, "the greetings were not read")
    await advance(until: { sut.priceText == "$70,123.45" }, "the stream's trade was never shown")

    for (tick, price) in ["70130.00", "70140.50", "70150.25"].enumerated() {
      let delivered = connector.delivered
      connector.send(FakeStreamMessage.binanceTrade(price: price), toHost: Self.binance)
      connector.send(FakeStreamMessage.coinbaseTicker(price: price), toHost: Self.coinbase)
      await waitOnMainActor(until: { connector.delivered == delivered + 2 })
      let shown = "$" + Self.grouped(price)
      await advance(
        until: { sut.priceText == shown }, "tick \(tick + 1) never showed \(shown)",
        step: .milliseconds(250))
    }

    #expect(sut.sourceName == "Binance")
    #expect(client.hosts.isEmpty, "a REST request while the streams were healthy")
    #expect(connector.attempts.count == 2, "one connection per stream")
    await stop(running)
  }

  @Test func background_closesTheStreams_andReturnReopensThemAtOnce() async throws {
    let (sut, client, connector) = makeSUT(greeting: "70123.45")
    let running = Task { await sut.run() }
    await waitOnMainActor(until: { connector.delivered == 2 }, "the greetings were not read")
    await advance(until: { sut.priceText == "$70,123.45" }, "the stream's trade was never shown")

    sut.phaseDidChange(to: .background)
    await waitOnMainActor(until: { connector.openHosts.isEmpty }, "the streams stayed open")
    await clock.advance(to: clock.elapsed + .seconds(10))
    #expect(connector.attempts.count == 2, "a stream was reopened in the background")

    connector.greet(Self.binance, with: [FakeStreamMessage.binanceTrade(price: "71000.00")])
    connector.greet(Self.coinbase, with: [FakeStreamMessage.coinbaseTicker(price: "71005.00")])
    sut.phaseDidChange(to: .active)
    // No clock advance: the streams reopen at once, not after a tick or a back-off.
    await waitOnMainActor(
      until: { connector.openHosts.count == 2 && connector.attempts.count == 4 },
      "the streams were not reopened on return")
    await waitOnMainActor(until: { connector.delivered == 4 }, "the greetings were not read")
    await advance(until: { sut.priceText == "$71,000.00" }, "the reopened stream was not shown")

    #expect(client.hosts.isEmpty, "a REST request while the streams were healthy")
    await stop(running)
  }

  @Test func streamsThatNeverSpeak_leaveTheTickToREST() async throws {
    let (sut, client, _) = makeSUT(greeting: nil)
    let running = Task { await sut.run() }

    await advance(until: { sut.priceText == "$68,880.55" }, "REST never answered the tick")

    #expect(client.hosts == ["api.binance.com"])
    await stop(running)
  }

  // MARK: - Helpers

  private func makeSUT(greeting price: String?) -> (
    PriceViewModel, StubHTTPClient, TestWebSocketConnector
  ) {
    let greetings =
      price.map {
        [
          Self.binance: [FakeStreamMessage.binanceTrade(price: $0)],
          Self.coinbase: [FakeStreamMessage.coinbaseTicker(price: $0)],
        ]
      } ?? [:]
    let connector = TestWebSocketConnector(greetings: greetings)
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68880.55"}"#)
    let sut = AppComposition.makePriceViewModel(
      client: client, clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) },
      cacheFileURL: nil, streamConnector: connector, log: { _ in })
    return (sut, client, connector)
  }

  /// Moves the test clock on in small steps, giving the streams and ticks real time to run after
  /// each, until `condition` holds (a tick waits on the clock for the first stream price, then
  /// for its slot).
  private func advance(
    until condition: () -> Bool, _ comment: Comment, step: Duration = .milliseconds(50),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    for _ in 0..<60 {
      let deadline = ContinuousClock.now + .milliseconds(30)
      while ContinuousClock.now < deadline {
        if condition() { return }
        await Task.yield()
      }
      await clock.advance(to: clock.elapsed + step)
    }
    if condition() { return }
    Issue.record(comment, sourceLocation: sourceLocation)
  }

  private func stop(_ running: Task<Void, Never>) async {
    running.cancel()
    await running.value
  }

  private static func grouped(_ price: String) -> String {
    let (whole, fraction) = (price.prefix(2), price.dropFirst(2))
    return "\(whole),\(fraction)"
  }
}
