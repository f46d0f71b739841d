import BTCPriceCore
import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps one exchange's stream connected and writes what it says to the ``StreamPriceBoard``.
///
/// A connection that closes, stays silent for twice its silence bound, sends junk, a price of
/// another pair or a refusal ends with a typed error (a stream with a keep-alive, OKX's `ping`
/// or Bitstamp's `bts:heartbeat`, is first asked once, and ends only if nothing answers within
/// one more limit), and the next one is opened after a jittered
/// exponential back-off (``ReconnectBackoff``), which restarts from its base once a connection
/// delivers a message. A connection near its age limit (Binance cuts every connection after
/// 24 hours) or told the server will shut down is handed over: the next connection opens first,
/// and the old one is closed only when the new one has delivered its first message, so no tick
/// notices. A handshake the exchange refuses with a limit (451, 403, 418, 429: see
/// ``StreamRefusal``) is not tried again before the limit ends (its `Retry-After`, else the
/// chain's cool-down for that status), and the limit is handed to `onRefusal` to outlive the
/// run; a limit an earlier run kept is waited out before the first connection. Time is the
/// injected clock's; randomness is injected.
public struct PriceStreamRunner: Sendable {
  private let endpoint: PriceStreamEndpoint
  private let connector: any WebSocketConnector
  private let board: StreamPriceBoard
  private let clock: ElapsedClock
  private let initialBackoff: ReconnectBackoff
  private let maximumAge: Duration?
  private let random: @Sendable () -> Double
  private let inheritedLimit: PriceSourceChain.InheritedLimit?
  private let policy: CircuitBreakerPolicy
  private let onRefusal: @Sendable (PriceSourceError, Duration) -> Void
  private let onEvent: @Sendable (PriceStreamEvent) -> Void

  /// The age at which a connection is handed over unless told otherwise: ten minutes before
  /// Binance ends every connection at 24 hours (docs/STREAMS.md), so the next one is open and
  /// priced before the cut.
  public static let handOverAge = Duration.seconds(24 * 3600) - .seconds(10 * 60)

  /// - Parameters:
  ///   - maximumAge: hand the connection over once it is this old; nil keeps it for ever.
  ///   - inheritedLimit: a refusal of this stream an earlier run kept, still in force.
  ///   - policy: the cool-down a refusal without `Retry-After` imposes (as for REST).
  ///   - onRefusal: told each refusal that sets a limit, with its cool-down.
  public init(
    endpoint: PriceStreamEndpoint, connector: any WebSocketConnector, board: StreamPriceBoard,
    clock: any Clock<Duration>, backoff: ReconnectBackoff = ReconnectBackoff(),
    maximumAge: Duration? = PriceStreamRunner.handOverAge,
    random: @escaping @Sendable () -> Double = ReconnectBackoff.randomJitter,
    inheritedLimit: PriceSourceChain.InheritedLimit? = nil,
    policy: CircuitBreakerPolicy = .standard,
    onRefusal: @escaping @Sendable (PriceSourceError, Duration) -> Void = { _, _ in },
    onEvent: @escaping @Sendable (PriceStreamEvent) -> Void = { _ in }
  ) {
    self.inheritedLimit = inheritedLimit
    self.policy = policy
    self.onRefusal = onRefusal
    self.endpoint = endpoint
    // Kept: asked at every message, where `Duration * Int` would run unspecialized.
    self.silenceLimit = max(endpoint.silenceBound * 2, .seconds(5))
    self.connector = connector
    self.board = board
    self.clock = ElapsedClock(clock)
    self.initialBackoff = backoff
    self.maximumAge = maximumAge
    self.random = random
    self.onEvent = onEvent
  }

  /// How long a connection may say nothing before it is dropped and replaced. Twice the bound at
  /// which ticks stop reading it, and never less than 5 s, so an upgrade and a subscription have
  /// time to be answered.
  let silenceLimit: Duration

  /// The exchange whose stream this runner keeps.
  public var source: PriceSource { endpoint.source }
  /// Where the stream connects.
  public var url: URL { endpoint.url }

  /// What to say on a connection that has been silent for ``silenceLimit``.
  var keepAlive: PriceStreamDefinition.KeepAlive? { endpoint.keepAlive }

  /// Runs until the task is cancelled.
  public func run() async {
    var backoff = initialBackoff
    var retiring: Connection?
    if let limit = inheritedLimit, limit.remaining > .zero {
      let wake = clock.now.advanced(by: limit.remaining)
      onEvent(.resting(endpoint.source, limit.remaining, limit.cause))
      do {
        try await clock.sleep(until: wake)
      } catch {
        return
      }
    }
    loop: while !Task.isCancelled {
      let connection = Connection(retiring: retiring)
      retiring = nil
      onEvent(.connecting(endpoint.source, endpoint.url))
      connection.start(self)
      switch await connection.outcome(self) {
      case .handover:
        onEvent(.handingOver(endpoint.source))
        backoff.reset()
        retiring = connection
        continue
      case .ended(let error):
        // Waits for the connection's tasks to end, so that none of them is still using the
        // transport (and its event loop) once this run has returned.
        await connection.closeAndWait()
        // Closed by us: the stream is down from now on (the app closes its streams in the
        // background, and its last trade must not pass for alive on a quick return), but it did
        // not fail.
        if Task.isCancelled {
          board.markClosed(endpoint.source)
          break loop
        }
        board.markDown(endpoint.source, because: error)
        onEvent(.closed(endpoint.source, error))
        if connection.hasDelivered { backoff.reset() }
        var delay = backoff.nextDelay(random: random())
        let limit = StreamRefusal.cause(of: error).flatMap { cause in
          policy.mandatoryCoolDown(after: cause).map { (cause, $0) }
        }
        if let (_, coolDown) = limit { delay = max(delay, coolDown) }
        // The deadline is fixed before anyone hears of the wait, so the wait ends on time however
        // late this task gets to sleep.
        let wake = clock.now.advanced(by: delay)
        if let (cause, coolDown) = limit {
          onRefusal(cause, coolDown)
          onEvent(.resting(endpoint.source, delay, cause))
        } else {
          onEvent(.backingOff(endpoint.source, delay))
        }
        do {
          try await clock.sleep(until: wake)
        } catch {
          break loop
        }
      }
    }
    await retiring?.closeAndWait()
  }

  /// Reads one inbound message, which reached the machine `receivedAgo`, into the board; an
  /// error ends the connection.
  fileprivate func handle(
    _ inbound: WebSocketInbound, receivedAgo: Duration, on connection: Connection
  ) -> PriceStreamError? {
    let message: PriceStreamMessage
    switch inbound {
    case .ping:
      message = .alive
    case .text(let text):
      do {
        message = try endpoint.read(text)
      } catch {
        board.record(error, from: endpoint.source)
        return error
      }
    }
    let now = clock.now
    if connection.deliver(
      at: now.advanced(by: .zero - receivedAgo), now: now, silenceLimit: silenceLimit)
    {
      onEvent(.connected(endpoint.source))
    }
    board.record(message, from: endpoint.source, receivedAgo: receivedAgo)
    if message == .reconnectSoon { connection.signal(.handover) }
    return nil
  }

  fileprivate var now: ElapsedClock.Instant { clock.now }

  fileprivate func sleep(until deadline: ElapsedClock.Instant) async throws {
    try await clock.sleep(until: deadline)
  }

  fileprivate func setAlarm(
    at deadline: ElapsedClock.Instant, ring: @escaping @Sendable (Bool) -> Void
  ) -> any Alarm {
    clock.setAlarm(at: deadline, ring: ring)
  }

  fileprivate func open(
    outbound: AsyncStream<String>,
    onReceived: @escaping @Sendable (WebSocketInbound, Duration) -> PriceStreamError?
  ) async -> PriceStreamError {
    await connector.run(
      url: endpoint.url, subscriptions: endpoint.subscriptions, outbound: outbound,
      onReceived: onReceived)
  }

  fileprivate var ageLimit: Duration? { maximumAge }

  /// Reads what the connector's connections hold unread (read on the tick: nothing is read
  /// between ticks).
  fileprivate func drain() async {
    await connector.drain()
  }
}

/// One connection of a ``PriceStreamRunner``: its task, its watchdog, and how it ended.
private final class Connection: Sendable {
  enum Outcome: Sendable {
    case ended(PriceStreamError)
    case handover
  }

  private struct State {
    var opened: ElapsedClock.Instant?
    var lastMessage: ElapsedClock.Instant?
    /// When the keep-alive was last sent.
    var askedAt: ElapsedClock.Instant?
    var delivered = false
    var task: Task<Void, Never>?
    var retiring: Connection?
    var nap = Nap.awake
  }

  /// Where the watchdog's sleep stands: a message read in the last half of its silence limit
  /// wakes it early, so that it sets its timer again during the tick that read the message.
  private enum Nap {
    case awake
    /// Asleep until the connection would be silent at `silentAt` (unless a message comes), when
    /// the alarm rings; calling it off wakes the watchdog at once.
    case napping(silentAt: ElapsedClock.Instant, alarm: any Alarm)
    /// Woken (or cancelled) before it went to sleep: it must not.
    case woken
  }

  private let state: Locked<State>
  private let signals: AsyncStream<Outcome>
  private let continuation: AsyncStream<Outcome>.Continuation
  /// What the runner says on the connection (its keep-alive), for the connector to send.
  private let outbound: AsyncStream<String>
  private let say: AsyncStream<String>.Continuation

  init(retiring: Connection?) {
    state = Locked(State(retiring: retiring))
    (signals, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4))
    (outbound, say) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  var hasDelivered: Bool { state.value.delivered }

  func start(_ runner: PriceStreamRunner) {
    let opened = runner.now
    let task = Task { [continuation, outbound] in
      let error = await runner.open(outbound: outbound) { inbound, receivedAgo in
        runner.handle(inbound, receivedAgo: receivedAgo, on: self)
      }
      continuation.yield(.ended(error))
    }
    state.withValue {
      $0.opened = opened
      $0.task = task
    }
  }

  /// Signals `.ended(.silent)` once the connection has said nothing for the runner's silence
  /// limit, or `.handover` once it reaches its age limit; returns when cancelled. A stream with a
  /// keep-alive is asked first: the keep-alive is sent when the limit runs out, and the
  /// connection ends only if nothing (the answer, or anything else) comes within one more limit.
  /// That is OKX's own rule (no message for N seconds: send `ping`; no `pong` within N more:
  /// reconnect), with N the silence limit, well under OKX's 30 s.
  ///
  /// It sleeps until the moment the connection would have been silent too long (or must be
  /// handed over), not on a fixed beat, and a silent one is dropped as its limit runs out. A
  /// message read in the last half of that wait moves the timer at once
  /// (``deliver(at:now:silenceLimit:)``): the tick that read it is awake anyway, so at ticks
  /// up to 2.5 s apart (half the shortest limit) a connection that talks never wakes the event
  /// loop for its watchdog (docs/PERFORMANCE.md, "Streams"). A message earlier in the wait
  /// leaves the timer alone: no work a message. The
  /// keep-alive is sent on the watchdog's own wake-up. The deadline is absolute, so a late
  /// wake-up never drifts it.
  private func watch(_ runner: PriceStreamRunner) async {
    let opened = state.value.opened ?? runner.now
    let limit = runner.silenceLimit
    let handover = runner.ageLimit.map { opened.advanced(by: $0) }
    // Quiet since the last message, or since the keep-alive sent after it.
    func quietSince() -> ElapsedClock.Instant {
      let state = state.value
      let last = state.lastMessage ?? opened
      return state.askedAt.map { max($0, last) } ?? last
    }
    while !Task.isCancelled {
      let silentAt = quietSince().advanced(by: limit)
      do {
        if let handover, handover < silentAt {
          try await runner.sleep(until: handover)
        } else {
          try await nap(until: silentAt, runner)
        }
      } catch {
        return
      }
      if quietSince().duration(to: runner.now) >= limit {
        // A connector that reads on the tick may hold messages unread: after a stopped process
        // (Ctrl-Z, then fg) the watchdog can wake before the first tick has drained what came
        // meanwhile, and would drop a healthy connection. Read them before calling it silent.
        await runner.drain()
      }
      let now = runner.now
      let last = state.value.lastMessage ?? opened
      if quietSince().duration(to: now) >= limit {
        // Not asked since the last message: ask. Asked, and nothing came since: it is silent.
        if let keepAlive = runner.keepAlive, state.value.askedAt.map({ $0 <= last }) ?? true {
          state.withValue { $0.askedAt = now }
          say.yield(keepAlive.message)
          continue
        }
        continuation.yield(.ended(.silent(after: last.duration(to: now))))
        return
      }
      if let handover, now >= handover {
        continuation.yield(.handover)
        return
      }
    }
  }

  /// Sleeps until `silentAt`, or until a message moves it (``deliver(at:now:silenceLimit:)``);
  /// throws when the watchdog is cancelled. The wait is an alarm, which the message calls off:
  /// on the tool's event loop a timer of the loop, with no task and no second wait beside it
  /// (docs/PERFORMANCE.md, "Streams").
  private func nap(until silentAt: ElapsedClock.Instant, _ runner: PriceStreamRunner) async throws {
    state.withValue { $0.nap = .awake }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
        let alarm = runner.setAlarm(at: silentAt) { _ in wake.resume() }
        let woken = state.withValue { state -> Bool in
          guard case .awake = state.nap else { return true }
          state.nap = .napping(silentAt: silentAt, alarm: alarm)
          return false
        }
        if woken { alarm.callOff() }
      }
    } onCancel: {
      let alarm = state.withValue { state -> (any Alarm)? in
        defer { state.nap = .woken }
        guard case .napping(_, let alarm) = state.nap else { return nil }
        return alarm
      }
      alarm?.callOff()
    }
    try Task.checkCancellation()
  }

  /// Records a message read at `now`; true for the connection's first, which also lets the one
  /// it replaces go. A message that moves the silence deadline in the last half of the
  /// watchdog's wait wakes the watchdog, to set its timer again now.
  func deliver(
    at instant: ElapsedClock.Instant, now: ElapsedClock.Instant, silenceLimit: Duration
  ) -> Bool {
    let (first, retiring, wake) = state.withValue { state in
      let first = !state.delivered
      state.delivered = true
      state.lastMessage = instant
      // Taken, not copied: once closed, the connection it replaced is let go of.
      let retiring = first ? state.retiring.take() : nil
      var wake: (any Alarm)?
      if case .napping(let silentAt, let alarm) = state.nap,
        instant.advanced(by: silenceLimit) > silentAt,
        now.duration(to: silentAt) <= silenceLimit / 2
      {
        state.nap = .woken
        wake = alarm
      }
      return (first, retiring, wake)
    }
    wake?.callOff()
    retiring?.close()
    return first
  }

  func signal(_ outcome: Outcome) {
    continuation.yield(outcome)
  }

  /// The first of: the connection ended, the watchdog found it silent, or it must be handed over.
  ///
  /// The watchdog is a child task of this wait, so it runs where the runner runs (the tool's
  /// event loop): its timer wakes that thread alone. As a task of its own it would run on
  /// Swift's global pool, and every look at the clock would wake the loop, a pool thread, and
  /// the loop again (docs/PERFORMANCE.md, "Streams").
  func outcome(_ runner: PriceStreamRunner) async -> Outcome {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.watch(runner) }
      defer { group.cancelAll() }
      for await outcome in signals {
        return outcome
      }
      return .ended(.closed(code: nil))
    }
  }

  func close() {
    let (task, retiring) = state.withValue { ($0.task, $0.retiring) }
    task?.cancel()
    retiring?.close()
    continuation.finish()
    say.finish()
  }

  /// Closes, then returns once the connection's task (and the one it replaces) has ended. Its
  /// watchdog ended with ``outcome(_:)``.
  func closeAndWait() async {
    let (task, retiring) = state.withValue { ($0.task, $0.retiring) }
    close()
    await task?.value
    await retiring?.closeAndWait()
  }
}
