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
  /// Set when two streams disagreed and no third source settled it (always
  /// ``CrossCheckOutcome/unsettled(_:_:)``): the sources answered, but neither price is shown.
  public let crossCheck: CrossCheckOutcome?

  public init(failures: [SourceFailure], crossCheck: CrossCheckOutcome? = nil) {
    self.failures = failures
    self.crossCheck = crossCheck
  }

  /// A short reason for logs and `--json`: `binance: timed out after 800 ms; cryptocompare: HTTP 401`,
  /// or, for two streams nothing settled, `binance (6890.12) and coinbase (68901.23) disagree and
  /// no third source settled it, so neither is shown`.
  public var description: String {
    if case .unsettled(let a, let b) = crossCheck {
      return "\(a.source.id) (\(a.value)) and \(b.source.id) (\(b.value)) disagree and no third "
        + "source settled it, so neither is shown"
    }
    return failures.isEmpty
      ? "no price sources configured"
      : failures.map { "\($0.source.id): \($0.error)" }.joined(separator: "; ")
  }
}
