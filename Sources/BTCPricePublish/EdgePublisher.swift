import BTCPriceCore
import BTCPriceRuntime
import BTCPriceSources

/// `btc-price publish`: hands each tick's messages (``EdgeMessage``) to the first edge that takes
/// them (``EdgeFailover``), and, as a standby, only while nobody else publishes (``StandbyRule``).
///
/// ``publish(_:tick:)`` never waits: it leaves the tick in a one-place mailbox and returns, so a
/// slow or dead edge never holds the tick loop. ``run()`` delivers from the mailbox, one tick at a
/// time and in order; a tick still waiting when the next one comes is replaced by it (viewers
/// want the newest price, not a backlog). Every request races ``EdgeFailover/Policy/attemptTimeout``
/// on the injected clock, the loser cancelled (Core's deadline rule).
public final class EdgePublisher: Sendable {
  /// What happened, for stderr (``warning``) and `--verbose` (``detail``).
  public enum Event: Equatable, Sendable {
    /// Tick `tick` reached viewers through `target` (redacted).
    case published(tick: Int, target: String)
    /// Something about one edge, said once per episode.
    case edge(target: String, EdgeFailover.Notice)
    /// No edge took tick `tick`.
    case dropped(tick: Int)
    /// The standby took over or stood down.
    case standby(StandbyRule.Change)
    /// The standby stayed quiet this tick: another publisher is active.
    case quiet(tick: Int)
  }

  private struct Delivery: Sendable {
    let tick: Int
    let messages: [EdgeMessage]
  }

  private struct State {
    var failover: EdgeFailover
    var standby: StandbyRule?
  }

  private let targets: [PublishTarget]
  private let client: any BTCHTTPClient
  private let clock: ElapsedClock
  private let policy: EdgeFailover.Policy
  private let onEvent: @Sendable (Event) -> Void
  private let state: Locked<State>
  private let mailbox: AsyncStream<Delivery>
  private let post: AsyncStream<Delivery>.Continuation

  /// - Parameters:
  ///   - targets: the edges, in the order they are asked.
  ///   - standby: nil for the active publisher; the rule for a standby.
  ///   - jitter: a number in 0...1 (random in production), for the back-off.
  public init(
    targets: [PublishTarget], client: any BTCHTTPClient, clock: any Clock<Duration>,
    policy: EdgeFailover.Policy, standby: StandbyRule? = nil,
    jitter: @escaping @Sendable () -> Double = ReconnectBackoff.randomJitter,
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    precondition(!targets.isEmpty, "publish needs at least one edge")
    self.targets = targets
    self.client = client
    self.clock = ElapsedClock(clock)
    self.policy = policy
    self.onEvent = onEvent
    state = Locked(
      State(
        failover: EdgeFailover(edgeCount: targets.count, policy: policy, jitter: jitter),
        standby: standby))
    (mailbox, post) = AsyncStream.makeStream(
      of: Delivery.self, bufferingPolicy: .bufferingNewest(1))
  }

  /// Leaves tick `tick`'s messages for ``run()`` and returns at once.
  public func publish(_ messages: [EdgeMessage], tick: Int) {
    post.yield(Delivery(tick: tick, messages: messages))
  }

  /// No more ticks: ``run()`` returns once the mailbox is empty.
  public func finish() {
    post.finish()
  }

  /// Delivers until cancelled or finished.
  public func run() async {
    for await delivery in mailbox {
      if Task.isCancelled { return }
      await deliver(delivery)
    }
  }

  private func deliver(_ delivery: Delivery) async {
    if state.value.standby != nil {
      guard await standbyPublishes(tick: delivery.tick) else { return }
    }
    for index in state.value.failover.candidates(at: clock.now.offset) {
      var streamAnswer: BTCHTTPResponse?
      var outcome = EdgeFailover.Outcome.accepted
      for message in delivery.messages {
        let (result, response) = await attempt(message.request(to: targets[index]))
        outcome = result
        if message.channel == .stream { streamAnswer = response }
        guard result == .accepted else { break }
      }
      if Task.isCancelled { return }
      record(outcome, edge: index)
      guard outcome == .accepted else { continue }
      if let streamAnswer {
        state.withValue {
          $0.standby?.published(EdgeChannelInfo.lastMessageID(in: streamAnswer.body))
        }
      }
      onEvent(.published(tick: delivery.tick, target: targets[index].redacted))
      return
    }
    onEvent(.dropped(tick: delivery.tick))
  }

  /// A standby's look at the stream channel before its tick: whether to publish it.
  private func standbyPublishes(tick: Int) async -> Bool {
    var seen: String??
    for index in state.value.failover.candidates(at: clock.now.offset) {
      let (result, response) = await attempt(targets[index].channelInfoRequest)
      if Task.isCancelled { return false }
      // nchan answers 404 for a channel nobody has published to (yet, or since Redis restarted).
      if response?.status == 404 {
        seen = .some(nil)
        break
      }
      record(result, edge: index)
      if result == .accepted, let response {
        seen = .some(EdgeChannelInfo.lastMessageID(in: response.body))
        break
      }
    }
    let now = clock.now.offset
    let (publish, change) = state.withValue { state -> (Bool, StandbyRule.Change?) in
      guard let seen else { return (state.standby?.isActive ?? false, nil) }
      return state.standby?.observe(seen, at: now) ?? (true, nil)
    }
    if let change { onEvent(.standby(change)) }
    if !publish { onEvent(.quiet(tick: tick)) }
    return publish
  }

  private func record(_ outcome: EdgeFailover.Outcome, edge index: Int) {
    let now = clock.now.offset
    let notice = state.withValue { $0.failover.record(outcome, edge: index, at: now) }
    if let notice { onEvent(.edge(target: targets[index].redacted, notice)) }
  }

  /// One request, within the attempt's time.
  private func attempt(_ request: BTCHTTPRequest) async -> (
    EdgeFailover.Outcome, BTCHTTPResponse?
  ) {
    let (client, timeout) = (self.client, policy.attemptTimeout)
    do {
      let response = try await race(
        { try await client.get(request) }, until: clock.now.advanced(by: timeout), on: clock)
      return (.of(status: response.status), response)
    } catch is DeadlineExceeded {
      return (.failed("no answer within \(timeout.secondsText) s"), nil)
    } catch {
      return (.failed("\(error)"), nil)
    }
  }
}

extension EdgePublisher.Event {
  /// The line for stderr: each trouble once per episode, and each change of role; nil for what
  /// only `--verbose` shows.
  public var warning: String? {
    switch self {
    case .edge(let target, .refused(let status, let pause)):
      return "publish: \(target) answered HTTP \(status): a configuration error (check the URL, "
        + "its path and its credentials); asking it again in \(pause.secondsText) s"
    case .edge(let target, .down(let reason)):
      return "publish: \(target) failed (\(reason)); the next edge takes the ticks, and this one "
        + "is asked again after a pause"
    case .edge(let target, .back):
      return "publish: \(target) takes the ticks again"
    case .standby(.tookOver(let silence)):
      return "publish: nothing new on the channel for \(silence.secondsText) s; this standby "
        + "publishes now"
    case .standby(.stoodDown):
      return "publish: another publisher is active again; this standby stands by"
    case .published, .dropped, .quiet:
      return nil
    }
  }

  /// The `--verbose` line for each tick.
  public var detail: String? {
    switch self {
    case .published(let tick, let target): return "publish: tick \(tick) → \(target)"
    case .dropped(let tick): return "publish: no edge took tick \(tick)"
    case .quiet(let tick): return "publish: tick \(tick) not published: another publisher is active"
    case .edge, .standby: return nil
    }
  }
}
