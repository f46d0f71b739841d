import BTCPriceRuntime

/// Asks each price source in order until one delivers a valid price within its deadline: a
/// ``SourceChain`` of ``PriceLoader``s, whose deliveries are reported as
/// ``PriceSourceEvent/delivered(_:_:latency:)``.
///
/// A source gets `min(its timeout, what is left of the budget)`; the last ones usually have no
/// timeout of their own and get whatever the earlier ones left. A source that errors, sends
/// invalid data or misses its deadline is cancelled and the next one is asked at once, so the
/// fallback only ever costs time when the primary fails.
///
/// Each source has a ``CircuitBreaker``: a source that keeps failing, rate-limits us or refuses us
/// is skipped for a while instead of costing its whole deadline on every tick. Copies of a chain
/// share the breakers.
public struct PriceSourceChain: Sendable {
  public struct Link: Sendable {
    public let source: PriceSource
    public let loader: any PriceLoader
    /// The longest this source may take; `nil` means "whatever is left of the budget".
    public let timeout: Duration?

    public init(source: PriceSource, loader: any PriceLoader, timeout: Duration? = nil) {
      self.source = source
      self.loader = loader
      self.timeout = timeout
    }
  }

  /// A limit a source set in an earlier run that still holds: a ban, a rate limit, a refusal.
  public struct InheritedLimit: Equatable, Sendable {
    public let remaining: Duration
    public let cause: PriceSourceError

    public init(remaining: Duration, cause: PriceSourceError) {
      self.remaining = remaining
      self.cause = cause
    }
  }

  private let chain: SourceChain<Void, PriceQuote>
  private let clock: ElapsedClock
  private let plausibility: PricePlausibility
  private let onEvent: @Sendable (PriceSourceEvent) -> Void

  /// - Parameters:
  ///   - breakers: when to leave a failing source alone; `nil` asks every source on every tick.
  ///   - inheritedLimits: by source id, limits an earlier run was told about; each source is
  ///     left alone until its limit ends.
  ///   - onEvent: every attempt, skip and circuit change, as it happens (for `--verbose` and
  ///     advice). Called from the loading task; keep it quick.
  ///   - plausibility: when a price that moved from the last one must be confirmed (see
  ///     ``load(within:skipping:reference:)``).
  public init(
    _ links: [Link], clock: any Clock<Duration>, breakers: CircuitBreakerPolicy? = .standard,
    inheritedLimits: [String: InheritedLimit] = [:],
    plausibility: PricePlausibility = PricePlausibility(),
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    self.clock = ElapsedClock(clock)
    self.plausibility = plausibility
    self.onEvent = onEvent
    chain = SourceChain(
      links.map { link in
        SourceChain.Link(source: link.source, timeout: link.timeout) {
          [loader = link.loader] _ in try await loader.load()
        }
      }, clock: clock, breakers: breakers, inheritedLimits: inheritedLimits, onEvent: onEvent,
      onDelivered: { source, quote, latency in
        onEvent(.delivered(source, quote, latency: latency))
      })
  }

  /// The first valid quote delivered within `budget` that the last price shown, `reference`,
  /// or a second source vouches for (``PricePlausibility``).
  ///
  /// A quote more than the tolerance away from a recent `reference` is not shown on its own
  /// word: the sources after it are asked, within what is left of `budget`, until one agrees
  /// with it (it is shown: the market moved) or with `reference` (that one is shown, and the
  /// quotes it contradicts count as invalid data against their sources). When no source settles
  /// it, the tick fails, as two streams that disagree with no referee do.
  ///
  /// - Parameters:
  ///   - skipping: sources not asked this time, silently (a referee is never one of the two
  ///     sources it settles).
  ///   - reference: the last price shown; nil (or one older than the window) takes the first
  ///     answer as it comes.
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(
    within budget: Duration, skipping: Set<PriceSource> = [], reference: PriceQuote? = nil
  ) async throws -> PriceQuote {
    let end = clock.now.advanced(by: budget)
    let first = try await chain.answer((), within: budget, skipping: skipping)
    guard plausibility.needsConfirmation(first.value, after: reference), let reference else {
      chain.recordSuccess(of: first.source)
      return first.value
    }
    let order = chain.sources
    var asked = skipping
    var failures = first.failures
    var unconfirmed = [first]
    var last = first
    while true {
      // Every source up to the one that answered last has had its turn.
      let turn = order.firstIndex(of: last.source).map { order[...$0] } ?? []
      asked.formUnion(turn)
      let next: SourceChain<Void, PriceQuote>.Answer
      do {
        next = try await chain.answer((), within: clock.now.duration(to: end), skipping: asked)
      } catch let failure as PriceFetchFailure {
        failures += failure.failures
        break
      }
      failures += next.failures
      let quote = next.value
      if let moved = unconfirmed.first(where: {
        plausibility.check.agree($0.value.value, quote.value)
      }) {
        let witness = "\(quote.source.id) (\(quote.value))"
        reject(unconfirmed.filter { $0.source != moved.source }, shown: moved.value, by: witness)
        chain.recordSuccess(of: moved.source)
        chain.recordSuccess(of: next.source)
        return moved.value
      }
      if plausibility.check.agree(quote.value, reference.value) {
        reject(unconfirmed, shown: quote, by: "the last price (\(reference.value))")
        chain.recordSuccess(of: next.source)
        return quote
      }
      unconfirmed.append(next)
      last = next
    }
    // Not the sources' fault: the market may have moved, and nobody else could say.
    for answer in unconfirmed {
      let error = plausibility.unconfirmed(answer.value, after: reference)
      onEvent(.failed(answer.source, error, latency: answer.latency))
      failures.append(.init(source: answer.source, error: error))
      chain.recordSuccess(of: answer.source)
    }
    let rank = { (failure: PriceFetchFailure.SourceFailure) in
      order.firstIndex(of: failure.source) ?? order.count
    }
    throw PriceFetchFailure(failures: failures.sorted { rank($0) < rank($1) })
  }

  /// Counts each of `answers` as invalid data against its source, as a failed request would be:
  /// `shown` was shown instead, on `witness`'s word.
  private func reject(
    _ answers: [SourceChain<Void, PriceQuote>.Answer], shown: PriceQuote, by witness: String
  ) {
    for answer in answers {
      let error = plausibility.outvoted(answer.value, shown: shown, witness: witness)
      onEvent(.failed(answer.source, error, latency: answer.latency))
      chain.respect(error, from: answer.source.id)
    }
  }

  /// Leaves the source with id `sourceID` alone as if its last request had failed with `cause`:
  /// a refusal told by another way to the same exchange (its stream's handshake). The circuit
  /// change is reported as any other, so the limits kept across runs see it.
  public func respect(_ cause: PriceSourceError, from sourceID: String) {
    chain.respect(cause, from: sourceID)
  }
}
