import BTCPriceCore
import BTCPricePipeline
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// With a connector that reads only when asked (the command line's, read on the tick), a tick
/// drains the streams before it reads the board, so it shows every trade that arrived before it;
/// the first tick's wait for a stream price drains at each step.
@Suite(
  "Read the price streams on the tick", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct ReadTheStreamsOnTheTickUseCaseTests {
  @Test func tick_showsTheNewestTradeThatArrivedBeforeIt_withoutREST() async throws {
    let (pipeline, connector, client) = makeSUT()
    let streams = try #require(pipeline.streams)
    let running = Task { await streams.run() }
    await waitUntil { connector.openHosts.count == 2 }
    connector.arrive(FakeStreamMessage.binanceTrade(price: "70123.45"), host: "binance")
    connector.arrive(FakeStreamMessage.binanceTrade(price: "70124.00"), host: "binance")
    connector.arrive(FakeStreamMessage.coinbaseTicker(price: "70100.00"), host: "coinbase")

    let tick = try await pipeline.feed.update(within: .seconds(1))

    #expect(tick.quote?.value == Decimal(string: "70124.00"))
    #expect(tick.quote?.source == .binance)
    #expect(client.requests.isEmpty)
    #expect(connector.drains == 1)
    running.cancel()
    await running.value
  }

  @Test func waitForFirstStreamPrice_drainsTheStreams_andReturnsOnceEachHasPriced() async throws {
    let (pipeline, connector, _) = makeSUT()
    let streams = try #require(pipeline.streams)
    let running = Task { await streams.run() }
    await waitUntil { connector.openHosts.count == 2 }
    connector.arrive(FakeStreamMessage.binanceTrade(price: "70123.45"), host: "binance")
    connector.arrive(FakeStreamMessage.coinbaseTicker(price: "70100.00"), host: "coinbase")
    let done = Locked(false)

    let waiting = Task {
      await pipeline.waitForFirstStreamPrice(atMost: .seconds(1))
      done.withValue { $0 = true }
    }
    await waitUntil { done.value }

    #expect(done.value, "returned without the test clock moving")
    #expect(streams.board.entry(for: .binance).quote?.value == Decimal(string: "70123.45"))
    waiting.cancel()
    running.cancel()
    await running.value
  }

  /// Ctrl-Z then `fg`: the silence watchdog may wake before any tick has drained what came
  /// while the process was stopped. It reads that first, and drops only a connection that has
  /// truly said nothing for its limit.
  @Test func watchdog_readsWhatWaitsUnread_beforeCallingAConnectionSilent() async throws {
    let (clock, connector, board, events, running) = try await runningBinanceStream()
    connector.arrive(FakeStreamMessage.binanceTrade(price: "70123.45"), host: "binance")

    // Silence limit 5 s, no tick drains: the watchdog's own drain finds the trade.
    await clock.advance(to: .seconds(5), afterSleeps: 1)
    await waitUntil { board.entry(for: .binance).quote != nil }
    #expect(!events.value.contains { if case .closed = $0 { true } else { false } })
    #expect(connector.drains == 1)

    // Nothing more comes: 5 s after that trade the connection is dropped.
    await clock.advance(to: .seconds(10), afterSleeps: 2)
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }
    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    running.cancel()
    await running.value
  }

  /// A message read late counts from when it came, as the kernel dates it: the connection is
  /// silent five seconds after the trade reached the machine, not after the read.
  @Test func watchdog_countsSilenceFromWhenAMessageCame_notFromItsRead() async throws {
    let (clock, connector, board, events, running) = try await runningBinanceStream()
    // Came at 3 s, read at 5 s by the watchdog's own drain.
    connector.arrive(
      FakeStreamMessage.binanceTrade(price: "70123.45"), host: "binance", ago: .seconds(2))
    await clock.advance(to: .seconds(5), afterSleeps: 1)
    await waitUntil { board.entry(for: .binance).quote != nil }

    await clock.advance(to: .seconds(8), afterSleeps: 2)
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }
    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    running.cancel()
    await running.value
  }

  /// A message read in the last half of the watchdog's wait moves its timer only if it moves
  /// the deadline: one that came when the connection opened (read 3 s late) leaves the deadline
  /// at 5 s, and the watchdog sleeps on, uninterrupted, to drop the connection then.
  @Test func watchdog_sleepsOn_forALateReadMessageThatDoesNotMoveItsDeadline() async throws {
    let (clock, connector, board, events, running) = try await runningBinanceStream()
    await waitUntil { clock.sleepsStarted == 1 }

    await clock.advance(to: .seconds(3))
    connector.arrive(
      FakeStreamMessage.binanceTrade(price: "70123.45"), host: "binance", ago: .seconds(3))
    await connector.drain()
    #expect(board.entry(for: .binance).quote != nil)
    for _ in 0..<1_000 { await Task.yield() }
    #expect(clock.sleepsStarted == 1, "woken for a deadline that did not move")

    await clock.advance(to: .seconds(5))
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }
    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    running.cancel()
    await running.value
  }

  // MARK: Helpers

  /// A Binance stream's runner on a connector that reads only when asked, with its connection
  /// open and nothing read yet.
  private func runningBinanceStream() async throws -> (
    SteppedTestClock, DrainedConnector, StreamPriceBoard, Locked<[PriceStreamEvent]>,
    Task<Void, Never>
  ) {
    let clock = SteppedTestClock()
    let connector = DrainedConnector()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let events = Locked<[PriceStreamEvent]>([])
    let runner = PriceStreamRunner(
      endpoint: try PriceSourceDefinition.binance.streamEndpoint(for: .usd), connector: connector,
      board: board, clock: clock, random: { 0 }, onEvent: { events.append($0) })
    let running = Task { await runner.run() }
    await waitUntil { connector.openHosts.count == 1 }
    return (clock, connector, board, events, running)
  }

  private func makeSUT() -> (PricePipeline, DrainedConnector, StubHTTPClient) {
    let connector = DrainedConnector()
    let client = StubHTTPClient(body: #"{"symbol":"BTCUSDT","price":"68880.55"}"#)
    let pipeline = PricePipeline(
      .init(
        sources: [.binance, .coinbase], primaryTimeout: .milliseconds(100), stream: true,
        interval: .seconds(1)),
      client: client, clock: SteppedTestClock(),
      now: { Date(timeIntervalSince1970: 1_795_356_185) }, store: nil, limitStore: nil,
      streamConnector: connector, warn: { _ in })
    return (pipeline, connector, client)
  }
}

/// A connector that reads only when asked, as ``NIOWebSocketConnector`` with `readOnTick` does:
/// what ``arrive(_:host:)`` sends waits until ``drain()`` hands it to the connection's reader.
private final class DrainedConnector: WebSocketConnector {
  private struct Open {
    let host: String
    let onReceived: @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
    /// Each text with how long before its read the kernel says it came.
    var buffered: [(text: String, ago: Duration)] = []
  }

  private let state = Locked((open: [Int: Open](), next: 0, drains: 0))

  var openHosts: [String] { state.value.open.values.map(\.host).sorted() }
  var drains: Int { state.value.drains }

  /// Buffers `text` on the open connections whose host names `host`; its read will say it
  /// came `ago` before (as the kernel's `TCP_INFO` tells the command line's connector).
  func arrive(_ text: String, host: String, ago: Duration = .zero) {
    state.withValue { state in
      for (id, open) in state.open where open.host.contains(host) {
        state.open[id]?.buffered.append((text, ago))
      }
    }
  }

  func run(
    url: URL, subscriptions: [String],
    onInbound: @escaping @Sendable (WebSocketInbound) -> PriceStreamError?
  ) async -> PriceStreamError {
    await run(url: url, subscriptions: subscriptions) { inbound, _ in onInbound(inbound) }
  }

  func run(
    url: URL, subscriptions: [String],
    onReceived: @escaping @Sendable (WebSocketInbound, _ receivedAgo: Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    let id = state.withValue { state in
      state.next += 1
      state.open[state.next] = Open(host: url.host ?? "", onReceived: onReceived)
      return state.next
    }
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    await withTaskCancellationHandler {
      for await _ in stream {}
    } onCancel: {
      continuation.finish()
    }
    _ = state.withValue { $0.open.removeValue(forKey: id) }
    return .closed(code: nil)
  }

  func drain() async {
    // Taken under the lock, handed over outside it.
    let reads = state.withValue { state in
      state.drains += 1
      defer {
        for id in state.open.keys { state.open[id]?.buffered = [] }
      }
      return state.open.values.map { ($0.onReceived, $0.buffered) }
    }
    for (onReceived, texts) in reads {
      for (text, ago) in texts { _ = onReceived(.text(text), ago) }
    }
  }
}
