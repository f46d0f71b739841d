import BTCPriceRuntime

/// One tick's price, streams first: the primary stream's newest trade if that stream is alive,
/// else the next alive stream's, else the REST chain with its own deadlines. Two alive streams
/// check each other; a disagreement is settled by a referee (a third source), and the price the
/// majority supports is shown.
///
/// It never waits for a stream: a tick reads the ``StreamPriceBoard`` the streams write as
/// messages arrive, so with healthy streams a tick costs no request and no wait at all.
///
/// A stream that two other sources outvoted is held back until a cross-check vouches for it
/// again: while another stream is alive it is checked as usual, but when it is the only alive
/// stream left (the one that outvoted it fell silent) its price is not shown alone and the tick
/// asks REST. So a tick never shows a price two other sources just contradicted because the one
/// that contradicted it went quiet. Copies of a loader share what they hold back.
public struct StreamFirstPriceLoader: Sendable {
  /// One stream the tick may read, and how long it may stay silent and still count as alive.
  public struct Stream: Equatable, Sendable {
    public let source: PriceSource
    public let silenceBound: Duration

    public init(source: PriceSource, silenceBound: Duration) {
      self.source = source
      self.silenceBound = silenceBound
    }

    /// A stream ticking every `interval` reads as alive after at most this much silence: 1.5
    /// intervals (``PriceDefaults/streamSilenceInTicks``), but never less than 1.5 s
    /// (``PriceDefaults/shortestStreamSilence``) and never more than the stream's own bound
    /// (`silenceBound`, what its heartbeats or trade rate justify: 2.5 s; 30 s for Bitstamp).
    ///
    /// Why 1.5 intervals: a stream whose last message came at `m` is read by the first tick after
    /// `m` (its price is then the newest trade, rightly shown), maybe by the second, and never by
    /// the third, which comes more than two intervals after `m`. So at the default 1 s a silent
    /// stream is replaced within two ticks; with the streams' own 2.5 s it took up to four. Any
    /// bound under two intervals keeps that promise; 1.5 stays half an interval clear of it, and
    /// still lets a stream that speaks once a second (Coinbase's and Kraken's heartbeats) be half
    /// a second late. One interval or less would replace a healthy heartbeat stream whenever a
    /// heartbeat came a millisecond late.
    ///
    /// Why the 1.5 s floor: under a one-second interval, silence shorter than a heartbeat's period
    /// says nothing, and reading it as death would send a quiet market's ticks to REST (several
    /// requests a second at `--interval 0.2`). There a silent stream is replaced 1.5 s after its
    /// last message, within the tick after that.
    public static func aliveBound(silenceBound: Duration, interval: Duration) -> Duration {
      min(
        silenceBound,
        max(interval * PriceDefaults.streamSilenceInTicks, PriceDefaults.shortestStreamSilence))
    }

    /// This stream's newest price if it is alive: it said something within ``silenceBound`` and
    /// has traded since it connected (``StreamPriceBoard/freshQuote(of:within:)``). The one test
    /// of "alive" that the ticks and the first tick's wait share.
    public func alivePrice(on board: StreamPriceBoard) -> PriceQuote? {
      board.freshQuote(of: source, within: silenceBound)
    }
  }

  /// Where a tick's price came from.
  public enum Transport: Equatable, Sendable {
    case stream(PriceSource)
    case rest
  }

  /// One tick's answer.
  public struct Tick: Equatable, Sendable {
    public let quote: PriceQuote
    public let transport: Transport
    /// What the cross-check decided; nil when fewer than two streams were alive.
    public let crossCheck: CrossCheckOutcome?

    /// The price a cross-check kept off the screen because two other sources contradicted it.
    public var rejected: PriceQuote? { crossCheck?.rejected }

    public init(quote: PriceQuote, transport: Transport, crossCheck: CrossCheckOutcome?) {
      self.quote = quote
      self.transport = transport
      self.crossCheck = crossCheck
    }
  }

  /// What a tick decided, for `--verbose` and the one stderr notice of a rejection.
  public enum Event: Equatable, Sendable {
    /// No stream was alive: the REST chain was asked. `silent` lists the streams passed over.
    case fellBackToREST(silent: [PriceSource])
    /// The primary stream was not alive; a later stream's price was used.
    case usedNextStream(PriceSource, insteadOf: PriceSource)
    /// Two streams disagreed and a referee settled it.
    case crossCheck(CrossCheckOutcome)
    /// This alive stream's price was passed over: two sources outvoted it, no cross-check has
    /// vouched for it since, and no other stream is alive to check it.
    case heldBack(PriceSource)
    /// A cross-check vouched for a held-back stream again; its price may be shown alone.
    case trustedAgain(PriceSource)
    /// Where the tick's price came from.
    case priceFrom(Transport, PriceQuote)
  }

  private let board: StreamPriceBoard
  private let streams: [Stream]
  private let chain: PriceSourceChain
  private let referee: PriceSourceChain?
  private let check: CrossCheck
  private let drain: @Sendable () async -> Void
  private let onEvent: @Sendable (Event) -> Void
  /// The streams a cross-check rejected, until a cross-check vouches for them.
  private let outvoted = Locked<Set<PriceSource>>([])

  /// - Parameters:
  ///   - streams: in priority order; the first is the primary, the second its cross-check.
  ///   - chain: today's REST chain, asked only when no stream is alive.
  ///   - referee: the sources asked to settle a disagreement (exchanges other than the two
  ///     streams'); nil settles with a third alive stream only.
  ///   - drain: puts what the streams' connections hold onto the board (a connector that reads
  ///     on the tick); called before each tick reads the board.
  public init(
    board: StreamPriceBoard, streams: [Stream], chain: PriceSourceChain,
    referee: PriceSourceChain?, crossCheck: CrossCheck = CrossCheck(),
    drain: @escaping @Sendable () async -> Void = {},
    onEvent: @escaping @Sendable (Event) -> Void = { _ in }
  ) {
    self.board = board
    self.streams = streams
    self.chain = chain
    self.referee = referee
    self.check = crossCheck
    self.drain = drain
    self.onEvent = onEvent
  }

  /// The tick's price within `budget`.
  ///
  /// - Throws: the REST chain's ``PriceFetchFailure`` when no stream is alive and no source
  ///   answers; a ``PriceFetchFailure`` naming both streams when they disagree and nothing
  ///   settles it (neither is shown alone); `CancellationError` when cancelled.
  ///
  /// - Parameter reference: the last price shown, which vouches for or against a REST price
  ///   that moved (``PriceSourceChain/load(within:skipping:reference:)``).
  public func load(within budget: Duration, after reference: PriceQuote? = nil) async throws
    -> Tick
  {
    // What arrived before the tick is on the board before the tick reads it.
    await drain()
    let tick = try await decide(within: budget, after: reference)
    onEvent(.priceFrom(tick.transport, tick.quote))
    return tick
  }

  private func decide(within budget: Duration, after reference: PriceQuote?) async throws -> Tick {
    let fresh = streams.compactMap { $0.alivePrice(on: board) }
    let alive = withoutLoneSuspects(fresh)
    guard let first = alive.first else {
      onEvent(.fellBackToREST(silent: streams.map(\.source)))
      return Tick(
        quote: try await chain.load(within: budget, reference: reference), transport: .rest,
        crossCheck: nil)
    }
    if let primary = streams.first?.source, first.source != primary {
      onEvent(.usedNextStream(first.source, insteadOf: primary))
    }
    guard alive.count > 1 else {
      return Tick(quote: first, transport: .stream(first.source), crossCheck: nil)
    }
    let second = alive[1]
    var outcome = check.settle(first, second, referee: nil)
    if case .unsettled = outcome {
      let third =
        alive.count > 2
        ? alive[2]
        : try await refereeQuote(within: budget, skipping: [first.source, second.source])
      outcome = check.settle(first, second, referee: third)
      onEvent(.crossCheck(outcome))
    }
    remember(outcome)
    switch outcome {
    case .agreed(let quote, _), .settled(let quote, _, _):
      return Tick(quote: quote, transport: .stream(quote.source), crossCheck: outcome)
    case .unsettled(let a, let b):
      func reason(_ other: PriceQuote) -> PriceSourceError {
        .invalidData(
          "more than \(check.tolerance * 100) % from \(other.source.id) (\(other.value)) and no "
            + "third source settled it")
      }
      throw PriceFetchFailure(
        failures: [
          .init(source: a.source, error: reason(b)), .init(source: b.source, error: reason(a)),
        ],
        crossCheck: outcome)
    }
  }

  /// `fresh`, or nothing when every fresh stream is held back: a suspect is shown only beside
  /// another stream that can contradict it.
  private func withoutLoneSuspects(_ fresh: [PriceQuote]) -> [PriceQuote] {
    let suspects = outvoted.value
    guard !suspects.isEmpty, fresh.allSatisfy({ suspects.contains($0.source) }) else {
      return fresh
    }
    for quote in fresh { onEvent(.heldBack(quote.source)) }
    return []
  }

  /// Holds back the stream a cross-check rejected, and releases the ones it vouched for (both of
  /// two that agree; the one the referee sided with).
  private func remember(_ outcome: CrossCheckOutcome) {
    let vouched: [PriceSource]
    switch outcome {
    case .agreed(let shown, let other): vouched = [shown.source, other]
    case .settled(let shown, _, _): vouched = [shown.source]
    case .unsettled: vouched = []
    }
    let released = outvoted.withValue { suspects in
      if let rejected = outcome.rejected { suspects.insert(rejected.source) }
      return vouched.filter { suspects.remove($0) != nil }
    }
    for source in released { onEvent(.trustedAgain(source)) }
  }

  /// The referee's price, or nil when it has none within the budget. The referee's chain may
  /// hold one of the two exchanges it settles (a standby stream's own REST): never asked.
  private func refereeQuote(within budget: Duration, skipping: Set<PriceSource>) async throws
    -> PriceQuote?
  {
    guard let referee else { return nil }
    do {
      return try await referee.load(within: budget, skipping: skipping)
    } catch is PriceFetchFailure {
      return nil
    }
  }
}
