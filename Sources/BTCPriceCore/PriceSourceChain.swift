/// Asks each source in order until one delivers a valid price within its deadline.
///
/// A source gets `min(its timeout, what is left of the budget)`; the last ones usually have no
/// timeout of their own and get whatever the earlier ones left. A source that errors, sends
/// invalid data or misses its deadline is cancelled and the next one is asked at once, so the
/// fallback only ever costs time when the primary fails.
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

  public let links: [Link]
  private let clock: any Clock<Duration>

  public init(_ links: [Link], clock: any Clock<Duration>) {
    self.links = links
    self.clock = clock
  }

  /// The first valid quote delivered within `budget`.
  ///
  /// - Throws: ``PriceFetchFailure`` listing every source's failure, or `CancellationError` when
  ///   the calling task is cancelled (that is not a source's fault and is never reported as one).
  public func load(within budget: Duration) async throws -> PriceQuote {
    try await load(within: budget, on: clock)
  }

  private func load<C: Clock<Duration>>(within budget: Duration, on clock: C) async throws
    -> PriceQuote
  {
    let end = clock.now.advanced(by: budget)
    var failures: [PriceFetchFailure.SourceFailure] = []
    for link in links {
      let remaining = clock.now.duration(to: end)
      guard remaining > .zero else {
        failures.append(.init(source: link.source, error: .skipped("no time left in this tick")))
        continue
      }
      let granted = link.timeout.map { min($0, remaining) } ?? remaining
      do {
        return try await race(
          { [loader = link.loader] in try await loader.load() },
          until: clock.now.advanced(by: granted), on: clock)
      } catch is DeadlineExceeded {
        failures.append(.init(source: link.source, error: .timedOut(after: granted)))
      } catch let error as PriceSourceError {
        try Task.checkCancellation()
        failures.append(.init(source: link.source, error: error))
      } catch {
        try Task.checkCancellation()
        failures.append(.init(source: link.source, error: .unreachable(String(describing: error))))
      }
    }
    throw PriceFetchFailure(failures: failures)
  }
}

/// Every source in the chain failed; one entry per source, in chain order.
public struct PriceFetchFailure: Error, Equatable, Sendable, CustomStringConvertible {
  public struct SourceFailure: Equatable, Sendable {
    public let source: PriceSource
    public let error: PriceSourceError

    public init(source: PriceSource, error: PriceSourceError) {
      self.source = source
      self.error = error
    }
  }

  public let failures: [SourceFailure]

  public init(failures: [SourceFailure]) {
    self.failures = failures
  }

  /// A short reason for logs and `--json`: `binance: timed out after 800 ms; cryptocompare: HTTP 401`.
  public var description: String {
    failures.isEmpty
      ? "no price sources configured"
      : failures.map { "\($0.source.id): \($0.error)" }.joined(separator: "; ")
  }
}
