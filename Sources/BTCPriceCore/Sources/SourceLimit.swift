#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A limit a source set that must outlive the run: a ban (418), a rate limit (429), or a
/// refusal (401, 403, 451, or a key error in the answer) with the hour we leave it alone.
public struct SourceLimit: Equatable, Sendable {
  /// The source's id.
  public let source: String
  /// Where the limit was set, `scheme://host[:port]`: a limit on api.binance.com says nothing
  /// about api.binance.us.
  public let endpoint: String
  /// When the limit ends, on the wall clock (the state file outlives the process and its clocks).
  public let until: Date
  /// What the source said.
  public let cause: PriceSourceError
  /// Whether the request that was refused carried an API key: a refusal of a keyless request
  /// says nothing about a run that now has a key.
  public let apiKeyGiven: Bool

  public init(
    source: String, endpoint: String, until: Date, cause: PriceSourceError, apiKeyGiven: Bool
  ) {
    self.source = source
    self.endpoint = endpoint
    self.until = until
    self.cause = cause
    self.apiKeyGiven = apiKeyGiven
  }
}

/// Keeps the ``SourceLimit``s across runs. Contract as for ``PriceStore``: `load()` returns `[]`
/// when nothing was saved and throws when what is stored cannot be read; `save(_:)` replaces
/// the stored list atomically.
public protocol SourceLimitStore: Sendable {
  func load() throws -> [SourceLimit]
  func save(_ limits: [SourceLimit]) throws
}
