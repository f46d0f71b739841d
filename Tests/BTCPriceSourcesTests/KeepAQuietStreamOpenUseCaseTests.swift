import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// A stream whose exchange wants the client to speak on a quiet connection (OKX closes one that
/// has pushed nothing for 30 s unless it gets `ping`; Bitstamp answers `bts:heartbeat`) is asked
/// once its silence limit runs out, and dropped only if nothing answers within one more limit.
/// A connection that talks is never asked.
@Suite("Keep a quiet stream open", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct KeepAQuietStreamOpenUseCaseTests {
  /// The test exchange's silence bound: the runner's limit is max(2 × 2.5 s, 5 s) = 5 s.
  private static let limit = Duration.seconds(5)

  @Test func run_asksAConnectionSilentForItsLimit_andKeepsItWhenItAnswers() async {
    let (runner, clock, connector, events) = makeSUT(replies: ["ping": "pong"])
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(Self.source)) }

    await clock.advance(to: .milliseconds(4_999), afterSleeps: 1)
    #expect(connector.sent(toHost: Self.host).isEmpty)
    await clock.advance(to: Self.limit)
    await waitUntil { connector.delivered == 2 }

    #expect(connector.sent(toHost: Self.host) == ["ping"])
    // The answer came at 5 s: the next question is due at 10 s, the end not before 15 s.
    await clock.advance(to: .milliseconds(9_999), afterSleeps: 2)
    #expect(!events.value.contains { if case .closed = $0 { true } else { false } })
    #expect(connector.attempts.count == 1)
    await clock.advance(to: .seconds(10))
    await waitUntil { connector.delivered == 3 }
    #expect(connector.sent(toHost: Self.host) == ["ping", "ping"])
    task.cancel()
    await task.value
  }

  /// The limit is twice the bound at which ticks stop reading the stream, and never under 5 s:
  /// Bitstamp's 30 s bound gives a minute.
  @Test(arguments: [(Duration.seconds(2), Duration.seconds(5)), (.seconds(4), .seconds(8))])
  func run_asksAtTwiceTheSilenceBound_neverUnderFiveSeconds(bound: Duration, limit: Duration)
    async
  {
    let (runner, clock, connector, events) = makeSUT(replies: ["ping": "pong"], silenceBound: bound)
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(Self.source)) }

    await clock.advance(to: limit - .milliseconds(1), afterSleeps: 1)
    for _ in 0..<1_000 { await Task.yield() }
    #expect(connector.sent(toHost: Self.host).isEmpty, "asked before its limit")
    #expect(clock.sleepsStarted == 1)
    await clock.advance(to: limit)
    await waitUntil { connector.sent(toHost: Self.host) == ["ping"] }
    task.cancel()
    await task.value
  }

  @Test func run_dropsAConnectionThatLeavesItsKeepAliveUnanswered_oneLimitLater() async {
    let (runner, clock, connector, events) = makeSUT(replies: [:])
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(Self.source)) }

    await clock.advance(to: Self.limit, afterSleeps: 1)
    await waitUntil { connector.sent(toHost: Self.host) == ["ping"] }
    await clock.advance(to: .milliseconds(9_999), afterSleeps: 2)
    #expect(!events.value.contains { if case .closed = $0 { true } else { false } })

    await clock.advance(to: .seconds(10))
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }
    #expect(events.value.contains(.closed(Self.source, .silent(after: .seconds(10)))))
    #expect(connector.sent(toHost: Self.host) == ["ping"], "asked once, not again")
    task.cancel()
    await task.value
  }

  @Test func run_neverAsksAConnectionThatTalks() async {
    let (runner, clock, connector, events) = makeSUT(replies: ["ping": "pong"])
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(Self.source)) }

    // A message every 4 s keeps the connection under its 5 s limit. The watchdog wakes at 5 s
    // (sleep 1), 9 s (sleep 2) and 13 s (sleep 3), each time finding a newer message.
    for (step, (second, sleeps)) in [(4, 1), (8, 1), (12, 2)].enumerated() {
      await clock.advance(to: .seconds(second), afterSleeps: sleeps)
      connector.send(Self.trade, toHost: Self.host)
      await waitUntil { connector.delivered == step + 2 }
    }
    await clock.advance(to: .milliseconds(16_999), afterSleeps: 3)
    await waitUntil { clock.sleepsStarted == 4 }

    #expect(connector.sent(toHost: Self.host).isEmpty)
    #expect(!events.value.contains { if case .closed = $0 { true } else { false } })
    task.cancel()
    await task.value
  }

  @Test func read_takesTheKeepAlivesPlainAnswerAsASignOfLife_andOnlyWithAKeepAlive() throws {
    let endpoint = try Self.definition(keepAlive: true).streamEndpoint(for: .usd)
    let without = try Self.definition(keepAlive: false).streamEndpoint(for: .usd)

    #expect(try endpoint.read("pong") == .alive)
    #expect(throws: PriceStreamError.invalidMessage("not JSON: pong")) { try without.read("pong") }
    #expect(throws: PriceStreamError.invalidMessage("not JSON: pongs")) {
      try endpoint.read("pongs")
    }
  }

  // MARK: Helpers

  private static let source = PriceSource(id: "quiet", displayName: "Quiet")
  private static let host = "stream.quiet.example"
  private static let trade = #"{"price":"68901.23"}"#

  /// An exchange whose stream wants `ping` on a quiet connection and answers `pong`.
  private static func definition(
    keepAlive: Bool, silenceBound: Duration = .milliseconds(2_500)
  ) -> PriceSourceDefinition {
    PriceSourceDefinition(
      source: source, defaultURL: URL(string: "https://rest.quiet.example/ticker/BTC-USD")!,
      markets: [.usd: MarketPair(request: "BTC-USD", answers: ["BTC-USD"])],
      pairPlacement: .pathSegment(separator: "-"),
      map: { _, _ throws(PriceSourceError) in throw .invalidData("not asked") },
      stream: PriceStreamDefinition(
        defaultURL: URL(string: "wss://\(host)/ws")!, markets: [.usd: "BTC-USD"],
        silenceBound: silenceBound, subscriptions: { _ in [] },
        keepAlive: keepAlive ? .init(message: "ping", plainReply: "pong") : nil,
        read: { json, _ throws(PriceStreamError) in
          guard let price = json["price"]?.stringValue, let value = Decimal(string: price) else {
            return .alive
          }
          return .trade(value)
        }))
  }

  private func makeSUT(
    replies: [String: String], silenceBound: Duration = .milliseconds(2_500)
  ) -> (
    PriceStreamRunner, SteppedTestClock, TestWebSocketConnector, Locked<[PriceStreamEvent]>
  ) {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let connector = TestWebSocketConnector(
      greetings: [Self.host: [Self.trade]], replies: replies)
    let events = Locked<[PriceStreamEvent]>([])
    let runner = PriceStreamRunner(
      endpoint: try! Self.definition(keepAlive: true, silenceBound: silenceBound)
        .streamEndpoint(for: .usd),
      connector: connector, board: board, clock: clock, random: { 0 },
      onEvent: { event in events.withValue { $0.append(event) } })
    return (runner, clock, connector, events)
  }
}
