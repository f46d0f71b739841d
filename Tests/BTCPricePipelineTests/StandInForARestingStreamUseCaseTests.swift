import BTCPriceCore
import BTCPricePipeline
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The third source with a stream stands in while one of the two kept streams rests after a
/// refusal (Binance's 451 in some countries lasts for hours), so two streams still check each
/// other, and it is closed again once the rested stream delivers. All on the test clock.
@Suite(
  "Stand in for a stream that rests after a refusal", .timeLimit(.minutes(1)),
  .hangLimit(.seconds(30)))
struct StandInForARestingStreamUseCaseTests {
  static let binance = "data-stream.binance.vision"
  static let coinbase = "ws-feed.exchange.coinbase.com"
  static let kraken = "ws.kraken.com"

  @Test func healthyStreams_theStandbyNeverConnects() async throws {
    let (set, connector, _) = makeSUT(binance: [
      .init(messages: [trade], then: .waitForCancellation)
    ])
    let running = Task { await set.run() }
    await waitUntil { set.board.freshQuote(of: .binance, within: .seconds(2)) != nil }
    await waitUntil { set.board.freshQuote(of: .coinbase, within: .seconds(2)) != nil }

    #expect(set.standby?.source == .kraken)
    #expect(connector.others.attempts.sorted() == [Self.coinbase])
    #expect(set.expected.map(\.source) == [.binance, .coinbase])
    running.cancel()
    await running.value
  }

  @Test func refusedPrimary_theStandbyConnects_untilThePrimaryDeliversAgain() async throws {
    let events = Locked<[PriceStreamEvent]>([])
    let (set, connector, clock) = makeSUT(
      binance: [
        .init(messages: [], then: .end(refused429(retryAfter: .seconds(2)))),
        .init(messages: [trade], then: .waitForCancellation),
      ], events: events)
    let running = Task { await set.run() }

    await waitUntil { set.board.freshQuote(of: .kraken, within: .seconds(2)) != nil }
    #expect(connector.others.openHosts == [Self.coinbase, Self.kraken])
    #expect(set.expected.map(\.source) == [.coinbase, .kraken])
    #expect(events.value.contains(.standingIn(.kraken, for: [.binance])))

    // Once its Retry-After has passed the primary is asked again and delivers: the standby is
    // let go. (A rest shorter than the silence watchdog's 5 s: the other streams say nothing
    // while the test clock moves.)
    await clock.advance(to: .seconds(2))
    await waitUntil { events.value.last == .standingDown(.kraken) }
    #expect(connector.others.openHosts == [Self.coinbase])
    #expect(set.board.freshQuote(of: .kraken, within: .seconds(2)) == nil)
    #expect(set.board.freshQuote(of: .binance, within: .seconds(2)) != nil)
    #expect(set.expected.map(\.source) == [.binance, .coinbase])
    running.cancel()
    await running.value
    #expect(connector.others.openHosts.isEmpty)
  }

  @Test func limitFromAnEarlierRun_theStandbyStandsInAtOnce() async throws {
    let (set, connector, _) = makeSUT(
      binance: [.init(messages: [trade], then: .waitForCancellation)], binanceResting: true)

    #expect(set.expected.map(\.source) == [.coinbase, .kraken])
    let running = Task { await set.run() }
    await waitUntil { set.board.freshQuote(of: .kraken, within: .seconds(2)) != nil }

    #expect(connector.binance.attempts == 0)
    running.cancel()
    await running.value
  }

  /// Between the board learning of the refusal and the runner telling of its rest, a first
  /// tick's wait must already expect the standby, not go ahead with one stream.
  @Test func refusalOnTheBoard_alreadyExpectsTheStandby() {
    let (set, _, _) = makeSUT(binance: [])

    set.board.markDown(.binance, because: refused429(retryAfter: .seconds(2)))
    #expect(set.expected.map(\.source) == [.coinbase, .kraken])

    set.board.markDown(.binance, because: .closed(code: 1001))
    #expect(set.expected.map(\.source) == [.binance, .coinbase], "a close is no refusal")
  }

  /// The app runs the set again on each return to the foreground: the standby stands in again.
  @Test func runAgain_whileThePrimaryStillRests_theStandbyStandsInAgain() async throws {
    let (set, connector, _) = makeSUT(binance: [], binanceResting: true)
    for run in 1...2 {
      let running = Task { await set.run() }
      await waitUntil { connector.others.attempts.filter { $0 == Self.kraken }.count == run }
      await waitUntil { set.board.freshQuote(of: .kraken, within: .seconds(2)) != nil }
      running.cancel()
      await running.value
      #expect(connector.others.openHosts.isEmpty)
      #expect(set.board.freshQuote(of: .kraken, within: .seconds(2)) == nil)
    }
  }

  /// The first tick waits for the streams that can answer: the standby, not the resting primary.
  /// The test clock never moves, so only the streams' prices can end the wait.
  @Test func firstTick_waitsForTheStandby_notForTheRestingStream_andIsCrossChecked()
    async throws
  {
    let store = InMemorySourceLimitStore(stored: [
      SourceLimit(
        source: "binance", endpoint: "wss://\(Self.binance)",
        until: Date(timeIntervalSince1970: 3600),
        cause: .httpStatus(451, message: "the stream's upgrade was refused"), apiKeyGiven: false)
    ])
    let connector = ThreeStreamsConnector(binance: [])
    let client = StubHTTPClient(status: 500, body: "{}")
    let pipeline = PricePipeline(
      .init(sources: [.binance, .coinbase, .kraken], primaryTimeout: .seconds(1), stream: true),
      client: client, clock: SteppedTestClock(), now: { Date(timeIntervalSince1970: 0) },
      store: nil, limitStore: store, streamConnector: connector, warn: { _ in })
    let running = Task { await pipeline.runStreams() }
    let streams = try #require(pipeline.streams)
    await waitUntil { streams.board.freshQuote(of: .kraken, within: .seconds(2)) != nil }
    await waitUntil { streams.board.freshQuote(of: .coinbase, within: .seconds(2)) != nil }

    // Waiting for Binance's stream would sleep on a clock that never moves: a hang.
    await pipeline.waitForFirstStreamPrice(atMost: .seconds(1))
    let update = try await pipeline.feed.update(within: .seconds(1))

    #expect(update.quote?.source == .coinbase)
    guard case .fresh(_, let crossCheck?) = update else {
      Issue.record("not cross-checked: \(update)")
      return
    }
    #expect(crossCheck == .agreed(try #require(update.quote), with: .kraken))
    #expect(client.requests.isEmpty)
    running.cancel()
    await running.value
  }

  /// With the standby's stream standing in, its own exchange's REST never referees a
  /// disagreement it is part of: the next referee is asked.
  @Test func disagreementWithTheStandby_isNotRefereedByTheStandbysOwnREST() async throws {
    let board = StreamPriceBoard(clock: SteppedTestClock(), now: { Date(timeIntervalSince1970: 0) })
    board.record(.trade(Decimal(string: "68900")!), from: .coinbase)
    board.record(.trade(Decimal(string: "6890")!), from: .kraken)
    let asked = Locked<[PriceSource]>([])
    func link(_ source: PriceSource, _ price: String) -> PriceSourceChain.Link {
      .init(source: source, loader: AnsweringLoader(source: source, price: price, asked: asked))
    }
    let referee = PriceSourceChain(
      [link(.kraken, "6890"), link(.cryptoCompare, "68910")], clock: SteppedTestClock())
    let loader = StreamFirstPriceLoader(
      board: board,
      streams: [.binance, .coinbase, .kraken].map { .init(source: $0, silenceBound: .seconds(2)) },
      chain: PriceSourceChain([], clock: SteppedTestClock()), referee: referee)

    let tick = try await loader.load(within: .seconds(1))

    #expect(asked.value == [.cryptoCompare])
    #expect(tick.quote.source == .coinbase)
    #expect(tick.crossCheck?.rejected?.source == .kraken)
  }

  // MARK: Helpers

  private var trade: WebSocketInbound { .text(FakeStreamMessage.binanceTrade(price: "68901.23")) }

  private func refused429(retryAfter: Duration) -> PriceStreamError {
    .handshakeFailed(status: 429, reason: "refused", retryAfter: retryAfter)
  }

  /// Binance, Coinbase and Kraken with streams: Binance's connections play `binance`; Coinbase
  /// and Kraken greet each connection with a trade and stay open.
  private func makeSUT(
    binance: [ScriptedConnector.Script], binanceResting: Bool = false,
    events: Locked<[PriceStreamEvent]> = Locked([])
  ) -> (PriceStreamSet, ThreeStreamsConnector, SteppedTestClock) {
    let clock = SteppedTestClock()
    let connector = ThreeStreamsConnector(binance: binance)
    let set = PriceStreamSet(
      sources: [.binance, .coinbase, .kraken], currency: .usd, connector: connector,
      clock: clock, now: { Date(timeIntervalSince1970: 0) },
      inheritedLimit: { source, _ in
        guard binanceResting, source == .binance else { return nil }
        return .init(
          remaining: .seconds(3600),
          cause: .httpStatus(451, message: "the stream's upgrade was refused"))
      }, onEvent: { events.append($0) })
    return (set, connector, clock)
  }
}

/// Binance's stream plays its scripts; Coinbase's and Kraken's greet with a trade (within 2 % of
/// each other) and stay open.
private final class ThreeStreamsConnector: WebSocketConnector {
  let binance: ScriptedConnector
  let others = TestWebSocketConnector(greetings: [
    StandInForARestingStreamUseCaseTests.coinbase: [
      FakeStreamMessage.coinbaseTicker(price: "68880.55")
    ],
    StandInForARestingStreamUseCaseTests.kraken: [FakeStreamMessage.krakenTicker(price: "68870.1")],
  ])

  init(binance: [ScriptedConnector.Script]) {
    self.binance = ScriptedConnector(scripts: binance)
  }

  func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    let connector: any WebSocketConnector =
      url.host == StandInForARestingStreamUseCaseTests.binance ? binance : others
    return await connector.run(url: url, subscriptions: subscriptions, onInbound: onInbound)
  }
}

/// A referee's answer, recording who was asked.
private struct AnsweringLoader: PriceLoader {
  let source: PriceSource
  let price: String
  let asked: Locked<[PriceSource]>

  func load() async throws -> PriceQuote {
    asked.append(source)
    return PriceQuote(
      value: Decimal(string: price)!, timestamp: Date(timeIntervalSince1970: 0), source: source)
  }
}
