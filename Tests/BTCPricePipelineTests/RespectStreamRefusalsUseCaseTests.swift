import BTCPriceCore
import BTCPricePipeline
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// A stream's handshake refused with 451, 403, 418 or 429 is a limit: the runner does not
/// reconnect before it ends, it outlives the run beside REST's limits, and a region block or a
/// ban also leaves the exchange's REST alone. All on the test clock.
@Suite("Respect a stream's refused handshake", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct RespectStreamRefusalsUseCaseTests {
  @Test func refusal451_waitsAnHourBeforeTheNextAttempt_andIsReported() async {
    let (runner, clock, connector, events, refusals) = makeSUT(scripts: [
      .init(messages: [], then: .end(refused(451))),
      .init(messages: [], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }
    let cause = PriceSourceError.httpStatus(451, message: "the stream's upgrade was refused")
    await waitUntil { events.value.contains(.resting(.binance, .seconds(3600), cause)) }
    #expect(refusals.value == [Refusal(cause: cause, coolDown: .seconds(3600))])

    await clock.advance(to: .seconds(3599))
    #expect(connector.attempts == 1)
    await clock.advance(to: .seconds(3600))
    await waitUntil { connector.attempts == 2 }

    task.cancel()
    await task.value
  }

  @Test func refusal429_waitsItsRetryAfter() async {
    let (runner, clock, connector, events, refusals) = makeSUT(scripts: [
      .init(messages: [], then: .end(refused(429, retryAfter: .seconds(120)))),
      .init(messages: [], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }
    let cause = PriceSourceError.rateLimited(
      status: 429, retryAfter: .seconds(120), message: "the stream's upgrade was refused")
    await waitUntil { events.value.contains(.resting(.binance, .seconds(120), cause)) }
    #expect(refusals.value == [Refusal(cause: cause, coolDown: .seconds(120))])

    await clock.advance(to: .seconds(119))
    #expect(connector.attempts == 1)
    await clock.advance(to: .seconds(120))
    await waitUntil { connector.attempts == 2 }

    task.cancel()
    await task.value
  }

  @Test func ban418WithoutRetryAfter_waitsBinancesShortestBan() async {
    let (runner, _, _, events, _) = makeSUT(scripts: [.init(messages: [], then: .end(refused(418)))]
    )
    let task = Task { await runner.run() }

    await waitUntil { events.value.contains { if case .resting = $0 { true } else { false } } }

    #expect(
      events.value.contains(
        .resting(
          .binance, .seconds(120),
          .rateLimited(
            status: 418, retryAfter: nil, message: "the stream's upgrade was refused"))))
    task.cancel()
    await task.value
  }

  @Test(arguments: [
    PriceStreamError.handshakeFailed(status: nil, reason: "the server did not upgrade"),
    PriceStreamError.handshakeFailed(status: 502, reason: "bad gateway"),
  ])
  func upgradeFailureThatIsNoRefusal_isAnOrdinaryBackoff(error: PriceStreamError) async {
    let (runner, _, _, events, refusals) = makeSUT(scripts: [
      .init(messages: [], then: .end(error))
    ])
    let task = Task { await runner.run() }

    await waitUntil { events.value.contains(.backingOff(.binance, .milliseconds(250))) }

    #expect(refusals.value.isEmpty)
    #expect(!events.value.contains { if case .resting = $0 { true } else { false } })
    task.cancel()
    await task.value
  }

  @Test func limitFromAnEarlierRun_isWaitedOutBeforeTheFirstConnection() async {
    let cause = PriceSourceError.httpStatus(451, message: "the stream's upgrade was refused")
    let (runner, clock, connector, events, _) = makeSUT(
      scripts: [.init(messages: [], then: .waitForCancellation)],
      inherited: .init(remaining: .seconds(30), cause: cause))
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.resting(.binance, .seconds(30), cause)) }

    await clock.advance(to: .seconds(29))
    #expect(connector.attempts == 0)
    await clock.advance(to: .seconds(30))
    await waitUntil { connector.attempts == 1 }

    task.cancel()
    await task.value
  }

  /// A limit that ran out as it was handed over (`SourceLimits` reads it to the millisecond) is
  /// no rest: the stream connects without a word about resting.
  @Test func anInheritedLimitWithNothingLeft_connectsAtOnce_withoutResting() async {
    let cause = PriceSourceError.httpStatus(451, message: "the stream's upgrade was refused")
    let (runner, _, connector, events, _) = makeSUT(
      scripts: [.init(messages: [], then: .waitForCancellation)],
      inherited: .init(remaining: .zero, cause: cause))
    let task = Task { await runner.run() }

    await waitUntil { connector.attempts == 1 }

    #expect(!events.value.contains { if case .resting = $0 { true } else { false } })
    task.cancel()
    await task.value
  }

  @Test func streamRefusal451_leavesTheExchangesRESTAlone_andBothLimitsOutliveTheRun() async throws
  {
    let store = InMemorySourceLimitStore()
    let first = makePipeline(store: store, binanceStream: .end(refused(451)))
    let streams = Task { await first.pipeline.runStreams() }
    await waitUntil { store.stored.count == 2 }
    streams.cancel()
    await streams.value

    let update = try await first.pipeline.feed.update(within: .seconds(1))

    #expect(update.quote?.source == .coinbase)
    #expect(first.client.requests.allSatisfy { $0.url.host != "api.binance.com" })
    #expect(
      Set(store.stored.map(\.endpoint))
        == ["wss://data-stream.binance.vision", "https://api.binance.com"])

    // The next run neither opens Binance's stream nor asks its REST.
    let second = makePipeline(store: store, binanceStream: .waitForCancellation)
    let again = Task { await second.pipeline.runStreams() }
    let secondUpdate = try await second.pipeline.feed.update(within: .seconds(1))
    #expect(secondUpdate.quote?.source == .coinbase)
    #expect(second.client.requests.allSatisfy { $0.url.host != "api.binance.com" })
    #expect(second.connector.binanceAttempts == 0)
    again.cancel()
    await again.value
  }

  @Test func streamRefusal429_limitsTheStreamOnly() async throws {
    let store = InMemorySourceLimitStore()
    let run = makePipeline(store: store, binanceStream: .end(refused(429)))
    let streams = Task { await run.pipeline.runStreams() }
    await waitUntil { store.stored.count == 1 }
    streams.cancel()
    await streams.value

    _ = try await run.pipeline.feed.update(within: .seconds(1))

    #expect(run.client.requests.contains { $0.url.host == "api.binance.com" })
    #expect(store.stored.map(\.endpoint) == ["wss://data-stream.binance.vision"])
  }

  // MARK: Helpers

  struct Refusal: Equatable {
    let cause: PriceSourceError
    let coolDown: Duration
  }

  private func refused(_ status: Int, retryAfter: Duration? = nil) -> PriceStreamError {
    .handshakeFailed(status: status, reason: "refused", retryAfter: retryAfter)
  }

  private func makeSUT(
    scripts: [ScriptedConnector.Script], inherited: PriceSourceChain.InheritedLimit? = nil
  ) -> (
    PriceStreamRunner, SteppedTestClock, ScriptedConnector, Locked<[PriceStreamEvent]>,
    Locked<[Refusal]>
  ) {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let connector = ScriptedConnector(scripts: scripts)
    let events = Locked<[PriceStreamEvent]>([])
    let refusals = Locked<[Refusal]>([])
    let runner = PriceStreamRunner(
      endpoint: try! PriceSourceDefinition.binance.streamEndpoint(for: .usd), connector: connector,
      board: board, clock: clock, random: { 0 }, inheritedLimit: inherited,
      onRefusal: { cause, coolDown in refusals.append(Refusal(cause: cause, coolDown: coolDown)) },
      onEvent: { event in events.append(event) })
    return (runner, clock, connector, events, refusals)
  }

  /// A pipeline over Binance then Coinbase with streams: Binance's stream ends as told,
  /// Coinbase's stays open and silent; REST answers as Coinbase does.
  private func makePipeline(
    store: InMemorySourceLimitStore, binanceStream: ScriptedConnector.Script.Ending
  ) -> (pipeline: PricePipeline, client: StubHTTPClient, connector: ByHostConnector) {
    let client = StubHTTPClient(
      body: #"{"data":{"amount":"68880.55","base":"BTC","currency":"USD"}}"#)
    let connector = ByHostConnector(binance: binanceStream)
    let pipeline = PricePipeline(
      .init(sources: [.binance, .coinbase], primaryTimeout: .seconds(1), stream: true),
      client: client, clock: SteppedTestClock(),
      now: { Date(timeIntervalSince1970: 1_795_356_185) },
      store: nil, limitStore: store, streamConnector: connector, warn: { _ in })
    return (pipeline, client, connector)
  }
}

/// Binance's stream ends as scripted; every other stream waits for cancellation.
private final class ByHostConnector: WebSocketConnector {
  private let binance: ScriptedConnector
  private let others = ScriptedConnector(scripts: [])

  init(binance: ScriptedConnector.Script.Ending) {
    self.binance = ScriptedConnector(scripts: [.init(messages: [], then: binance)])
  }

  var binanceAttempts: Int { binance.attempts }

  func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    let connector = url.host?.contains("binance") == true ? binance : others
    return await connector.run(url: url, subscriptions: subscriptions, onInbound: onInbound)
  }
}
