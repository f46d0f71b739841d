import BTCPriceCore
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// Streams closed on purpose (the app going to the background) are down at once: their last
/// trade no longer gives a tick its price, however recent it is.
@Suite("Stop streaming", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct StopStreamingUseCaseTests {
  @Test func cancelledStreams_noLongerGiveTheTickTheirLastTrade() async throws {
    let connector = TestWebSocketConnector(greetings: [
      "data-stream.binance.vision": [FakeStreamMessage.binanceTrade(price: "70123.45")]
    ])
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68880.55"}"#)
    let pipeline = PricePipeline(
      .init(sources: [.binance], primaryTimeout: .seconds(1), stream: true),
      client: client, clock: SteppedTestClock(), now: { Date(timeIntervalSince1970: 0) },
      store: nil, limitStore: nil, streamConnector: connector, warn: { _ in })
    let streaming = Task { await pipeline.runStreams() }
    await waitUntil({ connector.delivered == 1 }, "the trade was not read")
    #expect(
      try await pipeline.feed.update(within: .seconds(1)).quote?.value
        == Decimal(string: "70123.45"))

    streaming.cancel()
    await streaming.value
    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(
      update.quote?.value == Decimal(string: "68880.55"), "the closed stream's trade was shown")
    #expect(client.requests.count == 1)
    #expect(
      pipeline.streams?.board.entry(for: .binance).lastError == nil,
      "closed on purpose is no failure: a first-price wait after reopening must not end on it")
  }
}
