import BTCPriceCore
import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The streams one process keeps open, chosen from its source chain: the first sources (in chain
/// order) that have a stream for the currency, at most two (the primary and its cross-check, as
/// few connections as the job needs), each on its own ``PriceStreamRunner``, all writing one
/// ``StreamPriceBoard``.
///
/// The next source with a stream is the **standby**: it connects only while one of the two rests
/// after a refusal (a 451 region block, a ban, a 429: ``PriceStreamRunner``'s rest, this run's
/// or an earlier run's), and is closed again once the rested stream has delivered a message. So
/// a machine whose primary exchange refuses it (Binance answers 451 in some countries, for hours)
/// still has two streams that check each other, and never more than two connections.
///
/// The composition roots build one, start ``run()`` beside the ticker, and hand
/// ``loader(chain:referee:onEvent:)`` to the tick in place of the bare REST chain.
public struct PriceStreamSet: Sendable {
  /// The streams kept open: the primary's and its cross-check's.
  public static let keptStreams = 2

  public let board: StreamPriceBoard
  /// The streams kept open, primary first.
  public let runners: [PriceStreamRunner]
  /// The stream that stands in while one of ``runners`` rests; nil when the chain has no third
  /// source with a stream for the currency.
  public let standby: PriceStreamRunner?
  /// The streams a tick reads, primary first, the standby last (alive only while it stands in).
  public let streams: [StreamFirstPriceLoader.Stream]
  private let connector: any WebSocketConnector
  /// The runners resting after a refusal; a change is signalled to the running ``run()``'s
  /// standby (a new one each run: the app runs the set again on every return to the foreground).
  private let resting: Locked<Set<PriceSource>>
  private let listener: Locked<AsyncStream<Void>.Continuation?>
  private let onEvent: @Sendable (PriceStreamEvent) -> Void

  /// - Parameters:
  ///   - sources: the chain's sources, in order.
  ///   - urls: by source id, a stream URL given with `--<name>-stream-url` (or its setting).
  ///   - inheritedLimit: a refusal of a stream (its source, its URL) an earlier run kept.
  ///   - onRefusal: a stream's refusal that sets a limit, with its cool-down (see
  ///     ``PriceStreamRunner``).
  ///   - interval: the ticks' interval: a tick reads a stream as alive for at most 1.5 intervals
  ///     of silence (``StreamFirstPriceLoader/Stream/aliveBound(silenceBound:interval:)``); nil
  ///     keeps each stream's own bound. The runners' reconnect watchdog keeps the stream's own
  ///     bound whatever the interval: a tick may pass over a stream that is only quiet, but a
  ///     connection is dropped (and a connection attempt spent) only when it is truly silent.
  ///   - maximumStreams: the streams kept open; the next source with a stream is the standby.
  public init(
    sources: [PriceSourceDefinition], currency: Currency, urls: [String: URL] = [:],
    interval: Duration? = nil,
    connector: any WebSocketConnector, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, maximumStreams: Int = keptStreams,
    inheritedLimit: (PriceSource, URL) -> PriceSourceChain.InheritedLimit? = { _, _ in nil },
    onRefusal: @escaping @Sendable (PriceSource, URL, PriceSourceError, Duration) -> Void = {
      _, _, _, _ in
    },
    onEvent: @escaping @Sendable (PriceStreamEvent) -> Void = { _ in }
  ) {
    let board = StreamPriceBoard(clock: clock, currency: currency.code, now: now)
    let plan = Self.plan(
      sources: sources, currency: currency, urls: urls, maximumStreams: maximumStreams,
      inheritedLimit: inheritedLimit)
    let (kept, standbyEndpoint) = (plan.kept, plan.standby)
    let resting = Locked(plan.resting)
    let listener = Locked<AsyncStream<Void>.Continuation?>(nil)
    func runner(_ endpoint: PriceStreamEndpoint, kept: Bool) -> PriceStreamRunner {
      PriceStreamRunner(
        endpoint: endpoint, connector: connector, board: board, clock: clock,
        inheritedLimit: inheritedLimit(endpoint.source, endpoint.url),
        onRefusal: { cause, coolDown in onRefusal(endpoint.source, endpoint.url, cause, coolDown) },
        onEvent: { event in
          if kept { Self.follow(event, resting: resting, listener: listener) }
          onEvent(event)
        })
    }
    self.board = board
    self.connector = connector
    self.resting = resting
    self.listener = listener
    self.onEvent = onEvent
    self.runners = kept.map { runner($0, kept: true) }
    self.standby = standbyEndpoint.map { runner($0, kept: false) }
    self.streams = (kept + (standbyEndpoint.map { [$0] } ?? [])).map { endpoint in
      .init(
        source: endpoint.source,
        silenceBound: interval.map {
          StreamFirstPriceLoader.Stream.aliveBound(
            silenceBound: endpoint.silenceBound, interval: $0)
        } ?? endpoint.silenceBound)
    }
  }

  /// A kept stream rests from its refusal until it delivers again.
  private static func follow(
    _ event: PriceStreamEvent, resting: Locked<Set<PriceSource>>,
    listener: Locked<AsyncStream<Void>.Continuation?>
  ) {
    let changed: Bool
    switch event {
    case .resting(let source, _, _): changed = resting.withValue { $0.insert(source).inserted }
    case .connected(let source): changed = resting.withValue { $0.remove(source) != nil }
    default: changed = false
    }
    if changed { listener.value?.yield() }
  }

  /// The streams a first tick waits for: the kept ones not resting, and the standby while it
  /// stands in. A kept stream whose last attempt was refused counts as resting from the moment
  /// the board has the refusal (its runner tells of the rest a moment later), so a first tick
  /// never goes ahead in between without the standby's price.
  public var expected: [StreamFirstPriceLoader.Stream] {
    let known = resting.value
    let rests = Set(
      runners.map(\.source).filter { source in
        known.contains(source)
          || board.entry(for: source).lastError.flatMap(StreamRefusal.cause(of:)) != nil
      })
    return streams.filter { stream in
      if stream.source == standby?.source { return !rests.isEmpty }
      return !rests.contains(stream.source)
    }
  }

  /// Which streams a run opens, chosen once from its chain.
  public struct Plan: Sendable {
    /// Kept open, primary first: the first sources of the chain with a stream for the currency.
    public let kept: [PriceStreamEndpoint]
    /// The next source with a stream: open only while one of ``kept`` rests.
    public let standby: PriceStreamEndpoint?
    /// The kept streams that rest from the start: an earlier run kept their refusal.
    public let resting: Set<PriceSource>

    /// The streams the run connects to at its start, as `doctor` checks them: the kept ones, and
    /// the standby when one of them rests from the start.
    public var openAtStart: [PriceStreamEndpoint] {
      kept + (resting.isEmpty ? [] : standby.map { [$0] } ?? [])
    }
  }

  /// The streams a run opens (see ``Plan``); a limit an earlier run kept is known now, so the
  /// standby is wanted from the first tick.
  public static func plan(
    sources: [PriceSourceDefinition], currency: Currency, urls: [String: URL] = [:],
    maximumStreams: Int = keptStreams,
    inheritedLimit: (PriceSource, URL) -> PriceSourceChain.InheritedLimit?
  ) -> Plan {
    let candidates = endpoints(
      sources: sources, currency: currency, urls: urls, maximumStreams: maximumStreams + 1)
    let kept = Array(candidates.prefix(maximumStreams))
    return Plan(
      kept: kept, standby: candidates.count > maximumStreams ? candidates.last : nil,
      resting: Set(
        kept.filter { endpoint in
          (inheritedLimit(endpoint.source, endpoint.url)?.remaining ?? .zero) > .zero
        }.map(\.source)))
  }

  /// The streams a process may open, primary first: the first `maximumStreams` sources of the
  /// chain with a stream for the currency.
  public static func endpoints(
    sources: [PriceSourceDefinition], currency: Currency, urls: [String: URL] = [:],
    maximumStreams: Int = keptStreams
  ) -> [PriceStreamEndpoint] {
    Array(
      sources.lazy
        .compactMap { source in
          try? source.streamEndpoint(for: currency, base: urls[source.source.id])
        }
        .prefix(maximumStreams))
  }

  /// Keeps every stream connected, and the standby while one of them rests, until the task is
  /// cancelled. One run at a time.
  public func run() async {
    await withDiscardingTaskGroup { group in
      for runner in runners {
        group.addTask { await runner.run() }
      }
      if let standby {
        group.addTask { await standIn(standby) }
      }
    }
  }

  /// Runs `standby` while a kept stream rests, and stops it (its price leaves the board) once
  /// none does.
  private func standIn(_ standby: PriceStreamRunner) async {
    let (changes, signal) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    listener.withValue { $0 = signal }
    // The rests known before this run (an earlier run's limit, or this process's last run).
    signal.yield()
    var running: Task<Void, Never>?
    for await _ in changes {
      let rests = resting.value
      if !rests.isEmpty, running == nil {
        onEvent(.standingIn(standby.source, for: runners.map(\.source).filter(rests.contains)))
        running = Task { await standby.run() }
      } else if rests.isEmpty, let task = running {
        task.cancel()
        await task.value
        running = nil
        onEvent(.standingDown(standby.source))
      }
    }
    // Cancelled: the sequence ended.
    listener.withValue { $0 = nil }
    running?.cancel()
    await running?.value
  }

  /// Waits until every stream a tick expects has a price or has failed, or `limit` has passed
  /// on `clock`, so the first tick of a run need not ask REST for the price a stream is about to
  /// give, is cross-checked like every later tick (not the lone price of whichever stream spoke
  /// first), and an offline run's first tick is not late for a trade that cannot come.
  public func waitForFirstPrice(atMost limit: Duration, clock: any Clock<Duration>) async {
    // Polled: the board has no waiters, and this runs once per opening, for at most `limit`.
    let step = Duration.milliseconds(20)
    for _ in 0..<Int((limit / step).rounded(.up)) {
      await drain()
      // Each stream has either priced or failed its last attempt (no host, refused, closed);
      // one resting after a refusal is not waited for, the standby in its place is.
      let settled = expected.allSatisfy {
        $0.alivePrice(on: board) != nil || board.entry(for: $0.source).lastError != nil
      }
      if settled || Task.isCancelled { return }
      try? await clock.sleep(for: step)
    }
  }

  /// Reads what the streams' connections have buffered onto the board: the first tick's wait
  /// calls it at each step, and ``loader(chain:referee:onEvent:)`` before each tick reads the
  /// board (a connector that reads every message as it comes returns at once).
  public func drain() async {
    await connector.drain()
  }

  /// The tick's loader: these streams first, then `chain`; `referee` settles a disagreement.
  public func loader(
    chain: PriceSourceChain, referee: PriceSourceChain?,
    onEvent: @escaping @Sendable (StreamFirstPriceLoader.Event) -> Void = { _ in }
  ) -> StreamFirstPriceLoader {
    StreamFirstPriceLoader(
      board: board, streams: streams, chain: chain, referee: referee, drain: connector.drain,
      onEvent: onEvent)
  }
}
