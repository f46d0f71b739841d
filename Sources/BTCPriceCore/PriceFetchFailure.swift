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
