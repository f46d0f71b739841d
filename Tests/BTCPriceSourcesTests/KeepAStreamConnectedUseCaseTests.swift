import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources
import BTCPriceTestSupport
import Foundation
import Testing

/// The runner keeps one stream connected: trades reach the board, every fault is a typed error
/// and a reconnect after a jittered back-off, and a connection about to end is replaced before
/// it goes.
@Suite("Keep a price stream connected", .timeLimit(.minutes(1)), .hangLimit(.seconds(30)))
struct KeepAStreamConnectedUseCaseTests {
  @Test func run_writesEachTradeToTheBoard() async {
    let (runner, board, _, connector, _) = makeSUT(scripts: [
      .init(messages: [trade("68901.23")], then: .waitForCancellation)
    ])
    let task = Task { await runner.run() }

    await waitUntil { board.entry(for: .binance).quote != nil }

    #expect(board.entry(for: .binance).quote?.value == Decimal(string: "68901.23")!)
    #expect(connector.attempts == 1)
    task.cancel()
    await task.value
  }

  @Test func run_reconnectsAfterAClosedConnectionWithJitteredBackoff() async {
    let (runner, board, clock, connector, events) = makeSUT(scripts: [
      .init(messages: [trade("68901.23")], then: .end(.closed(code: 1001))),
      .init(messages: [trade("68902.00")], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.backingOff(.binance, .milliseconds(250))) }
    #expect(board.freshQuote(of: .binance, within: .seconds(60)) == nil)
    #expect(connector.attempts == 1)

    await clock.advance(to: .milliseconds(250))
    await waitUntil { board.entry(for: .binance).quote?.value == Decimal(string: "68902.00")! }

    #expect(connector.attempts == 2)
    task.cancel()
    await task.value
  }

  /// Each failure doubles the wait (250 ms, 500 ms with the jitter at 0), and a connection that
  /// delivered starts it again, however it ended.
  @Test func run_startsTheBackOffAgain_afterAConnectionThatDelivered() async {
    let (runner, _, clock, _, events) = makeSUT(scripts: [
      Self.failing, Self.failing,
      .init(messages: [trade("68901.23")], then: .end(.closed(code: 1001))),
      .init(messages: [], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }

    #expect(
      await threeBackOffs(clock, events)
        == [.milliseconds(250), .milliseconds(500), .milliseconds(250)])
    #expect(events.value.first == .connecting(.binance, runner.url), "said before each attempt")
    task.cancel()
    await task.value
  }

  /// A connection handed over (the exchange announced its shutdown) is no failure: the next
  /// failure waits the first back-off again.
  @Test func run_startsTheBackOffAgain_afterAHandOver() async {
    let (runner, _, clock, _, events) = makeSUT(scripts: [
      Self.failing, Self.failing,
      .init(
        messages: [trade("68901.23"), .text(FakeStreamMessage.binanceServerShutdown)],
        then: .waitForCancellation),
      Self.failing,
      .init(messages: [], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }

    #expect(
      await threeBackOffs(clock, events)
        == [.milliseconds(250), .milliseconds(500), .milliseconds(250)])
    #expect(events.value.contains(.handingOver(.binance)))
    task.cancel()
    await task.value
  }

  @Test func run_dropsAConnectionThatSendsJunkWithATypedError() async {
    let (runner, board, _, _, events) = makeSUT(scripts: [
      .init(messages: [.text("<html>oops</html>")], then: .waitForCancellation)
    ])
    let task = Task { await runner.run() }

    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }

    #expect(
      events.value.contains(
        .closed(.binance, .invalidMessage("not JSON: <html>oops</html>"))))
    #expect(board.entry(for: .binance).quote == nil)
    task.cancel()
    await task.value
  }

  @Test func run_replacesASilentConnection() async {
    let (runner, _, clock, connector, events) = makeSUT(scripts: [
      .init(messages: [trade("68901.23")], then: .waitForCancellation),
      .init(messages: [trade("68902.00")], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(.binance)) }

    // Silence limit: max(2 × 2.5 s, 5 s) = 5 s after the last message.
    await clock.advance(to: .seconds(5), afterSleeps: 1)
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }

    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    // The silent connection is cancelled, not left open beside the next one.
    await waitUntil { connector.cancellations == 1 }
    task.cancel()
    await task.value
  }

  @Test func run_dropsAConnectionItsSilenceLimitAfterItsLastMessage_andNotBefore() async {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let connector = TestWebSocketConnector(greetings: [
      "data-stream.binance.vision": [FakeStreamMessage.binanceTrade(price: "68901.23")]
    ])
    let events = Locked<[PriceStreamEvent]>([])
    let runner = PriceStreamRunner(
      endpoint: try! PriceSourceDefinition.binance.streamEndpoint(for: .usd), connector: connector,
      board: board, clock: clock, random: { 0 },
      onEvent: { event in events.withValue { $0.append(event) } })
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(.binance)) }

    // Silence limit 5 s. A message at 4 s moves the deadline to 9 s: nothing is dropped at 5 s
    // or 8.5 s (the message came in the last half of the watchdog's wait, which sets its timer
    // again to 9 s at once), and the connection is dropped at 9 s, 5 s after its last message.
    await clock.advance(to: .seconds(4), afterSleeps: 1)
    connector.send(
      FakeStreamMessage.binanceTrade(price: "68902.00"), toHost: "data-stream.binance.vision")
    await waitUntil { connector.delivered == 2 }
    await clock.advance(to: .seconds(5))
    await clock.advance(to: .milliseconds(8_500), afterSleeps: 2)
    #expect(!events.value.contains { if case .closed = $0 { true } else { false } })

    await clock.advance(to: .seconds(9))
    await waitUntil { events.value.contains { if case .closed = $0 { true } else { false } } }
    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    task.cancel()
    await task.value
  }

  /// The watchdog's timer moves when a message comes in the last half of its wait (the tick
  /// that read it is awake anyway), so a connection that talks never wakes the loop for it; an
  /// earlier message leaves it alone (no work a message). The bound is the same: a connection
  /// that falls silent is dropped 5 s after its last message, not a moment later or sooner.
  @Test func run_movesTheWatchdogsTimerOnAMessageInTheLastHalfOfItsWait_andDropsItOnTime() async {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let connector = TestWebSocketConnector(greetings: [
      "data-stream.binance.vision": [FakeStreamMessage.binanceTrade(price: "68901.23")]
    ])
    let events = Locked<[PriceStreamEvent]>([])
    let runner = PriceStreamRunner(
      endpoint: try! PriceSourceDefinition.binance.streamEndpoint(for: .usd), connector: connector,
      board: board, clock: clock, random: { 0 },
      onEvent: { event in events.withValue { $0.append(event) } })
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(.binance)) }
    let isClosed = { events.value.contains { if case .closed = $0 { true } else { false } } }

    // The watchdog sleeps until 5 s. A message at 2 s, 3 s before that, leaves its timer alone.
    await clock.advance(to: .seconds(2), afterSleeps: 1)
    connector.send(
      FakeStreamMessage.binanceTrade(price: "68902.00"), toHost: "data-stream.binance.vision")
    await waitUntil { connector.delivered == 2 }
    for _ in 0..<1_000 { await Task.yield() }
    #expect(clock.sleepsStarted == 1, "a message 3 s before the deadline moved the timer")

    // A message at 2.5 s, where the last half of the wait begins: the timer moves to 7.5 s at
    // once, before the clock reaches the old deadline.
    await clock.advance(to: .milliseconds(2_500))
    connector.send(
      FakeStreamMessage.binanceTrade(price: "68903.00"), toHost: "data-stream.binance.vision")
    await waitUntil({ clock.sleepsStarted == 2 }, "the timer stayed at 5 s")

    await clock.advance(to: .seconds(5))
    await clock.advance(to: .milliseconds(7_499))
    for _ in 0..<1_000 { await Task.yield() }
    #expect(!isClosed())
    await clock.advance(to: .milliseconds(7_500))
    await waitUntil { isClosed() }
    #expect(events.value.contains(.closed(.binance, .silent(after: .seconds(5)))))
    task.cancel()
    await task.value
  }

  /// A connection closed at the very moment its watchdog sets its alarm (after the watchdog
  /// said it is about to nap, before it naps) ends that watchdog at once: the alarm is called
  /// off and rings `false`. Were it left set, the watchdog would sleep to its deadline, and the
  /// close, which waits for the watchdog, with it.
  @Test func aWatchdogStoppedAsItSetsItsAlarm_callsItOff_andEndsAtOnce() async {
    let clock = HeldAlarmClock()
    let runner = PriceStreamRunner(
      endpoint: try! PriceSourceDefinition.binance.streamEndpoint(for: .usd),
      connector: ScriptedConnector(scripts: [
        .init(messages: [trade("68901.23")], then: .waitForCancellation)
      ]),
      board: StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) }),
      clock: clock, random: { 0 })
    // The first alarm set stops the task that sets it: the watchdog, in that very moment.
    clock.onSet.withValue { $0 = { withUnsafeCurrentTask { $0?.cancel() } } }
    let task = Task { await runner.run() }

    await waitUntil({ clock.rings.value == [false] }, "the stopped watchdog's alarm stayed set")
    task.cancel()
    await task.value
    #expect(clock.rings.value == [false])
  }

  @Test func run_opensTheNextConnectionBeforeLettingGoOnServerShutdown() async {
    let (runner, board, _, connector, events) = makeSUT(scripts: [
      .init(
        messages: [trade("68901.23"), .text(#"{"e":"serverShutdown","E":1}"#)],
        then: .waitForCancellation),
      .init(messages: [trade("68902.00")], then: .waitForCancellation),
    ])
    let task = Task { await runner.run() }

    await waitUntil { board.entry(for: .binance).quote?.value == Decimal(string: "68902.00")! }
    await waitUntil { connector.cancellations == 1 }

    #expect(events.value.contains(.handingOver(.binance)))
    #expect(!events.value.contains { if case .backingOff = $0 { true } else { false } })
    #expect(board.freshQuote(of: .binance, within: .seconds(1)) != nil)
    task.cancel()
    await task.value
  }

  /// Stopped at the very moment it hands a connection over (before the next one opens), the run
  /// still closes the connection it was letting go.
  @Test func run_stoppedAsItHandsOver_closesTheConnectionItWasLettingGo() async {
    let running = Locked<Task<Void, Never>?>(nil)
    let (runner, _, _, connector, _) = makeSUT(
      scripts: [
        .init(
          messages: [trade("68901.23"), .text(FakeStreamMessage.binanceServerShutdown)],
          then: .waitForCancellation)
      ],
      onEvent: { event in
        if event == .handingOver(.binance) { running.value?.cancel() }
      })
    let started = Locked(false)
    running.withValue { task in
      task = Task {
        while !started.value { await Task.yield() }
        await runner.run()
      }
    }
    started.withValue { $0 = true }
    await running.value?.value

    #expect(connector.attempts == 1, "no next connection was opened")
    #expect(connector.cancellations == 1, "the one handed over was closed")
  }

  /// Stopped while the next connection has said nothing yet, the run returns only once the one
  /// that connection was replacing has closed too: nothing of the run still uses the transport
  /// (and its event loop) when it has returned.
  @Test func run_stoppedBeforeTheNextConnectionSpoke_returnsOnceTheOneItReplacedHasClosed() async {
    let (runner, _, _, connector, _) = makeSUT(scripts: [
      .init(
        messages: [trade("68901.23"), .text(FakeStreamMessage.binanceServerShutdown)],
        then: .waitForCancellationThenHold),
      .init(messages: [], then: .waitForCancellation),
    ])
    let returned = Locked(false)
    let task = Task {
      await runner.run()
      returned.withValue { $0 = true }
    }
    await waitUntil { connector.attempts == 2 }

    task.cancel()
    await waitUntil { connector.cancellations == 2 }
    for _ in 0..<1_000 { await Task.yield() }
    #expect(!returned.value, "returned while the connection it replaced was still closing")
    connector.releaseHeld()
    await task.value
    #expect(returned.value)
  }

  /// Binance cuts a connection at 24 hours; the runners of a run (the stream set passes no age of
  /// its own) hand theirs over ten minutes before.
  @Test func aConnectionsAgeLimit_isTenMinutesShortOfBinancesDailyCut() {
    #expect(PriceStreamRunner.handOverAge == .seconds(86_400 - 600))
  }

  @Test func run_handsOverAConnectionAtItsAgeLimitBeforeTheServerCutsIt() async {
    let (runner, board, clock, connector, events) = makeSUT(
      scripts: [
        .init(messages: [trade("68901.23")], then: .waitForCancellation),
        .init(messages: [trade("68902.00")], then: .waitForCancellation),
      ],
      // Binance's 24-hour cut, shortened to within the silence limit so that the scripted
      // connection need not talk for a day: the same code path.
      maximumAge: .seconds(4))
    let task = Task { await runner.run() }
    await waitUntil { events.value.contains(.connected(.binance)) }

    // At the age limit exactly (4 s), short of the silence limit (5 s after the trade at 0 s): at
    // 5 s both were due at once, and the watchdog, woken for the hand-over, sometimes found the
    // clock already at 5 s and dropped the connection as silent instead (1 run in 12).
    await clock.advance(to: .seconds(4), afterSleeps: 1)
    await waitUntil { board.entry(for: .binance).quote?.value == Decimal(string: "68902.00")! }
    await waitUntil { connector.cancellations == 1 }

    #expect(events.value.contains(.handingOver(.binance)))
    #expect(connector.attempts == 2)
    #expect(!events.value.contains { if case .backingOff = $0 { true } else { false } })
    task.cancel()
    await task.value
  }

  // MARK: Helpers

  /// A connection that ends at once, having delivered nothing.
  private static let failing = ScriptedConnector.Script(
    messages: [], then: .end(.closed(code: 1001)))

  /// The first three back-offs, each waited out on `clock` (250 ms, then 500 ms, with the jitter
  /// at 0) so that the next attempt is made.
  private func threeBackOffs(
    _ clock: SteppedTestClock, _ events: Locked<[PriceStreamEvent]>
  ) async -> [Duration] {
    func backOffs() -> [Duration] {
      events.value.compactMap { if case .backingOff(_, let delay) = $0 { delay } else { nil } }
    }
    await waitUntil { backOffs().count == 1 }
    await clock.advance(to: .milliseconds(250))
    await waitUntil { backOffs().count == 2 }
    await clock.advance(to: .milliseconds(750))
    await waitUntil { backOffs().count == 3 }
    return backOffs()
  }

  private func trade(_ price: String) -> WebSocketInbound {
    .text(#"{"e":"trade","s":"BTCUSDT","p":""# + price + #""}"#)
  }

  private func makeSUT(
    scripts: [ScriptedConnector.Script], maximumAge: Duration? = PriceStreamRunner.handOverAge,
    onEvent: @escaping @Sendable (PriceStreamEvent) -> Void = { _ in }
  ) -> (
    PriceStreamRunner, StreamPriceBoard, SteppedTestClock, ScriptedConnector,
    Locked<[PriceStreamEvent]>
  ) {
    let clock = SteppedTestClock()
    let board = StreamPriceBoard(clock: clock, now: { Date(timeIntervalSince1970: 1_795_356_185) })
    let connector = ScriptedConnector(scripts: scripts)
    let events = Locked<[PriceStreamEvent]>([])
    let runner = PriceStreamRunner(
      endpoint: try! PriceSourceDefinition.binance.streamEndpoint(for: .usd), connector: connector,
      board: board, clock: clock, maximumAge: maximumAge, random: { 0 },
      onEvent: { event in
        events.withValue { $0.append(event) }
        onEvent(event)
      })
    return (runner, board, clock, connector, events)
  }
}

/// A clock whose alarms ring only when called off (its time never moves), and that runs
/// `onSet` once, in the task setting the first alarm, before it hands the alarm back.
private final class HeldAlarmClock: Clock, AlarmClock {
  final class Held: Alarm {
    let ring: Locked<(@Sendable (Bool) -> Void)?>
    init(_ ring: @escaping @Sendable (Bool) -> Void) { self.ring = Locked(ring) }
    func callOff() { ring.withValue { $0.take() }?(false) }
  }

  let start = ContinuousClock.now
  let onSet = Locked<(@Sendable () -> Void)?>(nil)
  let rings = Locked<[Bool]>([])

  var now: ContinuousClock.Instant { start }
  var minimumResolution: Duration { .nanoseconds(1) }

  /// Time never moves: a sleep lasts until it is cancelled.
  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    // The continuation is kept to the end: dropped, it would finish the stream at once.
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    continuation.finish()
    throw CancellationError()
  }

  func setAlarm(in delay: Duration, ring: @escaping @Sendable (Bool) -> Void) -> any Alarm {
    onSet.withValue { $0.take() }?()
    return Held { [rings] onTime in
      rings.withValue { $0.append(onTime) }
      ring(onTime)
    }
  }
}
