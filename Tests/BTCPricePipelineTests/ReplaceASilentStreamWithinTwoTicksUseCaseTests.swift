import BTCPriceCore
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// A tick reads a stream for at most 1.5 intervals of silence (never less than 1.5 s, never more
/// than the stream's own bound), so at the default interval a stream that falls silent is
/// replaced within two ticks, while the reconnect watchdog keeps the stream's own bound: a quiet
/// stream is passed over, not redialled.
@Suite(
  "Replace a silent stream within two ticks", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ReplaceASilentStreamWithinTwoTicksUseCaseTests {
  @Test(arguments: [
    // (the stream's own bound, the interval, what a tick allows)
    (Duration.milliseconds(2_500), Duration.seconds(1), Duration.milliseconds(1_500)),
    (.milliseconds(2_500), .milliseconds(1_200), .milliseconds(1_800)),
    (.milliseconds(2_500), .milliseconds(200), .milliseconds(1_500)),
    (.milliseconds(2_500), .seconds(10), .milliseconds(2_500)),
    (.seconds(30), .seconds(1), .milliseconds(1_500)),
    (.seconds(30), .seconds(10), .seconds(15)),
  ])
  func aliveBound_isOneAndAHalfIntervals_atLeast1500ms_atMostTheStreamsOwnBound(
    own: Duration, interval: Duration, expected: Duration
  ) {
    #expect(
      StreamFirstPriceLoader.Stream.aliveBound(silenceBound: own, interval: interval) == expected)
  }

  @Test func streams_takeTheIntervalsBound_fromThePipelinesConfiguration() throws {
    let (pipeline, _, _) = makeSUT(interval: .milliseconds(1_200))

    let streams = try #require(pipeline.streams).streams

    #expect(streams.map(\.silenceBound) == [.milliseconds(1_800), .milliseconds(1_800)])
  }

  @Test func tick_readsTheStreamAtOneAndAHalfIntervalsOfSilence_andNotAMillisecondLater()
    async throws
  {
    let (pipeline, clock, client) = makeSUT(interval: .seconds(1))
    let board = try #require(pipeline.streams).board
    board.record(.trade(Decimal(string: "70123.45")!), from: .binance)
    board.record(.trade(Decimal(string: "70100.00")!), from: .coinbase)
    await clock.advance(to: .milliseconds(1_000))
    board.record(.alive, from: .coinbase)

    await clock.advance(to: .milliseconds(1_500))
    let atTheBound = try await pipeline.feed.update(within: .seconds(1))
    await clock.advance(to: .milliseconds(1_501))
    let pastTheBound = try await pipeline.feed.update(within: .seconds(1))

    #expect(atTheBound.quote?.source == .binance)
    #expect(pastTheBound.quote?.source == .coinbase)
    #expect(client.requests.isEmpty)
  }

  /// Whenever in its interval the stream's last message came, the first tick after it shows that
  /// message (the newest trade), the second may, and the third reads the next stream: at the
  /// default interval and any longer one (past 2.5 s, Binance's own bound, the first tick may
  /// already pass it over).
  @Test(
    arguments: [Duration.seconds(1), .milliseconds(1_200), .milliseconds(1_600)], [0.01, 0.5, 0.99])
  func silentPrimary_isReplacedByTheThirdTickAfterItsLastMessage_atAnyPhase(
    interval: Duration, phase: Double
  ) async throws {
    let (pipeline, clock, client) = makeSUT(interval: interval)
    let board = try #require(pipeline.streams).board
    let lastMessage = interval * phase
    await clock.advance(to: lastMessage)
    board.record(.trade(Decimal(string: "70123.45")!), from: .binance)

    var sources: [PriceSource?] = []
    for tick in 1...3 {
      await clock.advance(to: interval * tick)
      board.record(.trade(Decimal(string: "70100.00")!), from: .coinbase)
      sources.append(try await pipeline.feed.update(within: interval).quote?.source)
    }

    #expect(sources[0] == .binance)
    #expect(sources[2] == .coinbase)
    #expect(client.requests.isEmpty)
  }

  @Test func quietStream_atAShortInterval_isReadUntil1500msOfSilence_notAskedOverREST()
    async throws
  {
    let (pipeline, clock, client) = makeSUT(interval: .milliseconds(200))
    let board = try #require(pipeline.streams).board
    board.record(.trade(Decimal(string: "70123.45")!), from: .binance)

    await clock.advance(to: .milliseconds(1_400))
    let quiet = try await pipeline.feed.update(within: .milliseconds(200))
    await clock.advance(to: .milliseconds(1_600))
    let silent = try await pipeline.feed.update(within: .milliseconds(200))

    #expect(quiet.quote?.value == Decimal(string: "70123.45"))
    #expect(silent.quote?.value == Decimal(string: "68880.55"), "REST's price")
    #expect(client.requests.count == 1)
  }

  @Test func quietStream_isNotRedialled_beforeItsOwnBound_atAShortInterval() async throws {
    let connector = ScriptedConnector(scripts: [
      .init(
        messages: [.text(#"{"e":"trade","s":"BTCUSDT","p":"70123.45"}"#)],
        then: .waitForCancellation)
    ])
    let (pipeline, clock, _) = makeSUT(interval: .milliseconds(200), connector: connector)
    let streams = try #require(pipeline.streams)
    let running = Task { await streams.runners[0].run() }
    await waitUntil { streams.board.entry(for: .binance).quote != nil }

    // Binance's own bound is 2.5 s, so its watchdog waits max(2 × 2.5 s, 5 s); the ticks
    // stopped reading it after 1.5 s.
    await clock.advance(to: .milliseconds(4_900), afterSleeps: 1)
    let quiet = try await pipeline.feed.update(within: .milliseconds(200))

    #expect(quiet.quote?.value == Decimal(string: "68880.55"), "REST's price, not the stream's")
    #expect(connector.attempts == 1)
    running.cancel()
    await running.value
  }

  // MARK: Helpers

  private func makeSUT(interval: Duration, connector: ScriptedConnector? = nil) -> (
    PricePipeline, SteppedTestClock, StubHTTPClient
  ) {
    let clock = SteppedTestClock()
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68880.55"}"#)
    let pipeline = PricePipeline(
      .init(
        sources: [.binance, .coinbase], primaryTimeout: .milliseconds(100), stream: true,
        interval: interval),
      client: client, clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) },
      store: nil, limitStore: nil,
      streamConnector: connector ?? ScriptedConnector(scripts: []), warn: { _ in })
    return (pipeline, clock, client)
  }
}
