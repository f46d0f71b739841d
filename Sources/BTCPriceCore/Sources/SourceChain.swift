import BTCPriceRuntime

/// Asks each source in order until one delivers a valid answer to a request within its deadline:
/// a price (``PriceSourceChain``, whose request is `Void`) or a range of candles (the price
/// history's chain, whose request is the ``ChartRange``). One walk, one set of rules and one
/// breaker per source, whatever is asked and delivered: a source that rate-limits the day's
/// candles is left alone for the week's too.
///
/// A source gets `min(its timeout, what is left of the budget)`; the last ones usually have no
/// timeout of their own and get whatever the earlier ones left. A source that errors, sends
/// invalid data or misses its deadline is cancelled and the next one is asked at once, so the
/// fallback only ever costs time when the first source fails.
///
/// Each source has a ``CircuitBreaker``: a source that keeps failing, rate-limits us or refuses us
/// is skipped for a while instead of costing its whole deadline every time. Copies of a chain
/// share the breakers.
public struct SourceChain<Request: Sendable, Value: Sendable>: Sendable {
  public struct Link: Sendable {
    public let source: PriceSource
    /// The longest this source may take; `nil` means "whatever is left of the budget".
    public let timeout: Duration?
    /// Asks the source; must honour cancellation (the deadline cancels it).
    public let load: @Sendable (Request) async throws -> Value

    public init(
      source: PriceSource, timeout: Duration? = nil,
      load: @escaping @Sendable (Request) async throws -> Value
    ) {
      self.source = source
      self.timeout = timeout
      self.load = load
    }
  }

  /// A link's breaker, and whether its open state came from an earlier run.
  private struct Guard {
    var breaker: CircuitBreaker<ElapsedClock.Instant>
    var inherited = false
  }

  private let links: [Link]
  private let clock: ElapsedClock
  /// One guard per link, in link order; nil when breakers are off.
  private let guards: Locked<[Guard]>?
  private let onEvent: @Sendable (PriceSourceEvent) -> Void
  private let onDelivered: @Sendable (PriceSource, Value, _ latency: Duration) -> Void

  /// - Parameters:
  ///   - breakers: when to leave a failing source alone; `nil` asks every source every time.
  ///   - inheritedLimits: by source id, limits an earlier run was told about; each source is
  ///     left alone until its limit ends.
  ///   - onEvent: every failure, skip and circuit change, as it happens (for `--verbose`, advice
  ///     and the limits kept across runs). Called from the loading task; keep it quick.
  ///   - onDelivered: the answer that ends the walk, with how long its source took.
  public init(
    _ links: [Link], clock: any Clock<Duration>, breakers: CircuitBreakerPolicy? = .standard,
    inheritedLimits: [String: PriceSourceChain.InheritedLimit] = [:],
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in },
    onDelivered: @escaping @Sendable (PriceSource, Value, Duration) -> Void = { _, _, _ in }
  ) {
    let clock = ElapsedClock(clock)
    self.links = links
    self.clock = clock
    self.guards = breakers.map { policy in
      Locked(
        links.map { link in
          var entry = Guard(breaker: CircuitBreaker(policy: policy))
          if let limit = inheritedLimits[link.source.id], limit.remaining > .zero {
            entry.breaker.respect(limit: limit.remaining, cause: limit.cause, at: clock.now)
            entry.inherited = true
          }
          return entry
        })
    }
    self.onEvent = onEvent
    self.onDelivered = onDelivered
  }

  /// What one walk ended with: the answer, the source that gave it, and why each source asked
  /// before it did not answer.
  public struct Answer: Sendable {
    public let value: Value
    public let source: PriceSource
    /// How long the source took to answer.
    public let latency: Duration
    public let failures: [PriceFetchFailure.SourceFailure]
  }

  /// The sources, in the order they are asked.
  public var sources: [PriceSource] { links.map(\.source) }

  /// The first valid answer to `request` delivered within `budget`.
  ///
  /// - Parameter skipping: sources not asked this time, silently (a referee is never one of the
  ///   two sources it settles).
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(
    _ request: Request, within budget: Duration, skipping: Set<PriceSource> = []
  ) async throws -> Value {
    let answer = try await answer(request, within: budget, skipping: skipping)
    recordSuccess(of: answer.source)
    return answer.value
  }

  /// ``load(_:within:skipping:)``, with who answered and who failed before it, for a caller that
  /// may go on to ask the sources after the one that answered before it takes the answer. The
  /// answer's source is not yet counted a success: the caller records whether its answer
  /// stood, with ``recordSuccess(of:)`` or ``respect(_:from:)``.
  public func answer(
    _ request: Request, within budget: Duration, skipping: Set<PriceSource> = []
  ) async throws -> Answer {
    let end = clock.now.advanced(by: budget)
    var failures: [PriceFetchFailure.SourceFailure] = []
    for (index, link) in links.enumerated() where !skipping.contains(link.source) {
      if let reason = skipReason(index, before: end) {
        onEvent(.skipped(link.source, reason))
        failures.append(.init(source: link.source, error: reason))
        continue
      }
      let started = clock.now
      let granted = min(link.timeout ?? budget, started.duration(to: end))
      let failure: PriceSourceError
      do {
        let value = try await race(
          { [load = link.load] in try await load(request) }, until: started.advanced(by: granted),
          on: clock)
        let latency = started.duration(to: clock.now)
        onDelivered(link.source, value, latency)
        return Answer(value: value, source: link.source, latency: latency, failures: failures)
      } catch is DeadlineExceeded {
        failure = .timedOut(after: granted)
      } catch let error as PriceSourceError {
        try Task.checkCancellation()
        failure = error
      } catch {
        try Task.checkCancellation()
        failure = .unreachable(String(describing: error))
      }
      onEvent(.failed(link.source, failure, latency: started.duration(to: clock.now)))
      failures.append(.init(source: link.source, error: failure))
      let now = clock.now
      record(index) { $0.recordFailure(failure, at: now) }
    }
    throw PriceFetchFailure(failures: failures)
  }

  /// Counts the answer of `source` (from ``answer(_:within:skipping:)``) a success: it stood.
  public func recordSuccess(of source: PriceSource) {
    guard let index = links.firstIndex(where: { $0.source == source }) else { return }
    record(index) { $0.recordSuccess() }
  }

  /// Leaves the source with id `sourceID` alone as if its last request had failed with `cause`:
  /// a refusal told by another way to the same exchange (its stream's handshake). The circuit
  /// change is reported as any other, so the limits kept across runs see it.
  public func respect(_ cause: PriceSourceError, from sourceID: String) {
    guard let index = links.firstIndex(where: { $0.source.id == sourceID }) else { return }
    let now = clock.now
    record(index) { $0.recordFailure(cause, at: now) }
  }

  /// Why link `index` is not asked now, or nil to ask it. An open circuit whose cool-down is over
  /// moves to half-open here, and only when there is time left: a probe is never spent on a
  /// source that will not be asked.
  private func skipReason(_ index: Int, before end: ElapsedClock.Instant) -> PriceSourceError? {
    let now = clock.now
    let noTimeLeft = PriceSourceError.skipped("no time left in this tick")
    guard let guards else { return now < end ? nil : noTimeLeft }
    let (decision, rest, inherited) = guards.withValue { guards in
      let rest = guards[index].breaker.remainingCoolDown(at: now)
      guard now < end else {
        return (
          (admitted: false, transition: nil as CircuitTransition?), rest, guards[index].inherited
        )
      }
      let decision = guards[index].breaker.admit(at: now)
      let inherited = guards[index].inherited
      if decision.admitted { guards[index].inherited = false }
      return (decision, rest, inherited)
    }
    if let transition = decision.transition {
      onEvent(.circuitChanged(links[index].source, transition))
    }
    if !decision.admitted, let rest, rest.remaining > .zero {
      let origin = inherited ? " (a limit from an earlier run)" : ""
      return .skipped("cooling down for \(rest.remaining.humanText) after: \(rest.cause)\(origin)")
    }
    return decision.admitted ? nil : noTimeLeft
  }

  private func record(
    _ index: Int, _ change: (inout CircuitBreaker<ElapsedClock.Instant>) -> CircuitTransition?
  ) {
    guard let transition = guards?.withValue({ change(&$0[index].breaker) }) else { return }
    onEvent(.circuitChanged(links[index].source, transition))
  }
}
