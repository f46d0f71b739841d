import BTCPriceRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Limits that outlive the run. Binance escalates its bans (minutes, then up to 3 days) for a
/// client that keeps asking after a 418, and a restart must not ask again at once: the deadlines
/// a source set are kept in a small ``SourceLimitStore``, read at start and handed to the chain as
/// ``PriceSourceChain/InheritedLimit``s.
///
/// The store is written only when such a deadline is set or ends, never on a tick, and expired
/// limits are pruned on every write. Ordinary breaker state (3 failures in a row) stays in memory:
/// it says nothing about the next run.
public final class SourceLimits: Sendable {
  /// What this run asks each source: its endpoint and whether it sends a key.
  public struct Target: Equatable, Sendable {
    public let endpoint: String
    public let apiKeyGiven: Bool

    public init(endpoint: String, apiKeyGiven: Bool) {
      self.endpoint = endpoint
      self.apiKeyGiven = apiKeyGiven
    }

    /// The target of a request to `url`: its `scheme://host[:port]`.
    public init(_ url: URL, apiKeyGiven: Bool) {
      let port = url.port.map { ":\($0)" } ?? ""
      let host = url.host?.lowercased() ?? ""
      self.init(
        endpoint: "\(url.scheme?.lowercased() ?? "https")://\(host)\(port)",
        apiKeyGiven: apiKeyGiven)
    }
  }

  private let store: any SourceLimitStore
  private let policy: CircuitBreakerPolicy
  private let targets: [String: Target]
  private let now: @Sendable () -> Date
  private let warn: @Sendable (String) -> Void
  private let writer: StoreWriter
  private let limits = Locked<[SourceLimit]>([])

  /// - Parameters:
  ///   - targets: by source id, what this run asks.
  ///   - writer: where the store's writes run (``StoreWriter/here``: at once).
  ///   - warn: told once when the store cannot be read or written.
  public init(
    store: any SourceLimitStore, targets: [String: Target],
    policy: CircuitBreakerPolicy = .standard, now: @escaping @Sendable () -> Date,
    writer: StoreWriter = .here, warn: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.store = store
    self.targets = targets
    self.policy = policy
    self.now = now
    self.writer = writer
    self.warn = warn
  }

  /// Reads the store: the limits that still hold for what this run asks, by source id. A store
  /// that cannot be read means "no limits known", with one warning.
  public func restore() -> [String: PriceSourceChain.InheritedLimit] {
    let stored: [SourceLimit]
    do {
      stored = try store.load()
    } catch {
      warn("\(error); no limits from earlier runs are known")
      return [:]
    }
    let now = now()
    let current = stored.filter { $0.until > now }
    limits.withValue { $0 = current }
    var inherited: [String: PriceSourceChain.InheritedLimit] = [:]
    for limit in current {
      guard let target = targets[limit.source], target.endpoint == limit.endpoint,
        !Self.isRefusal(limit.cause) || target.apiKeyGiven == limit.apiKeyGiven
      else { continue }
      let remaining = Duration.milliseconds(Int64(limit.until.timeIntervalSince(now) * 1000))
      inherited[limit.source] = .init(remaining: remaining, cause: limit.cause)
    }
    return inherited
  }

  /// The chain's event handler: a circuit opened by a limit records it; the end of a recorded
  /// limit (the source is asked again) removes it.
  @Sendable public func record(_ event: PriceSourceEvent) {
    guard case .circuitChanged(let source, let transition) = event,
      let target = targets[source.id]
    else { return }
    let now = now()
    let changed: [SourceLimit]? = limits.withValue { limits in
      let before = limits
      limits.removeAll { $0.until <= now }
      if transition.to == .open, let cause = transition.cause,
        let coolDown = transition.coolDown, policy.mandatoryCoolDown(after: cause) != nil
      {
        limits.removeAll { $0.source == source.id && $0.endpoint == target.endpoint }
        limits.append(
          SourceLimit(
            source: source.id, endpoint: target.endpoint,
            until: now.addingTimeInterval(coolDown.timeInterval), cause: cause,
            apiKeyGiven: target.apiKeyGiven))
      } else if transition.from == .open {
        limits.removeAll { $0.source == source.id && $0.endpoint == target.endpoint }
      }
      return limits == before ? nil : limits
    }
    save(changed)
  }

  /// How long the stream of `source` at `endpoint` (`wss://host[:port]`) is still left alone
  /// after a refusal of an earlier run; nil when it may connect. Read after ``restore()``.
  public func streamLimit(source: String, endpoint: String) -> PriceSourceChain.InheritedLimit? {
    let now = now()
    guard
      let limit = limits.value.first(where: {
        $0.source == source && $0.endpoint == endpoint && $0.until > now
      })
    else { return nil }
    let remaining = Duration.milliseconds(Int64(limit.until.timeIntervalSince(now) * 1000))
    return .init(remaining: remaining, cause: limit.cause)
  }

  /// ``streamLimit(source:endpoint:)`` for the stream at `url`.
  public func streamLimit(source: String, url: URL) -> PriceSourceChain.InheritedLimit? {
    streamLimit(source: source, endpoint: Target(url, apiKeyGiven: false).endpoint)
  }

  /// ``recordStreamLimit(source:endpoint:cause:coolDown:)`` for the stream at `url`.
  public func recordStreamLimit(
    source: String, url: URL, cause: PriceSourceError, coolDown: Duration
  ) {
    recordStreamLimit(
      source: source, endpoint: Target(url, apiKeyGiven: false).endpoint, cause: cause,
      coolDown: coolDown)
  }

  /// Keeps a refusal of the stream of `source` at `endpoint` for `coolDown`, beside (not in
  /// place of) a limit on the same source's REST endpoint.
  public func recordStreamLimit(
    source: String, endpoint: String, cause: PriceSourceError, coolDown: Duration
  ) {
    let now = now()
    let changed: [SourceLimit] = limits.withValue { limits in
      limits.removeAll { $0.until <= now || ($0.source == source && $0.endpoint == endpoint) }
      limits.append(
        SourceLimit(
          source: source, endpoint: endpoint, until: now.addingTimeInterval(coolDown.timeInterval),
          cause: cause, apiKeyGiven: false))
      return limits
    }
    save(changed)
  }

  private func save(_ changed: [SourceLimit]?) {
    guard let changed else { return }
    writer.save(for: self, warn: warn) { [store] in try store.save(changed) }
  }

  private static func isRefusal(_ cause: PriceSourceError) -> Bool {
    switch cause {
    case .httpStatus, .refused: true
    default: false
    }
  }
}
