#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The price use case every UI shares: one tick through the source chain, the last known value,
/// and the cache.
///
/// On success the quote becomes the last known value and goes to the cache, which writes it when
/// that matters (``PriceCache``); on failure the last known value (possibly from an earlier run,
/// via ``restore()``) is reported as stale. Cache problems never stop the feed: they become
/// warnings.
public actor PriceFeed {
  public private(set) var lastKnown: PriceQuote?
  private let load:
    @Sendable (Duration, _ lastKnown: PriceQuote?) async throws -> StreamFirstPriceLoader.Tick
  /// The cache, for the ways out that must write it without waiting for this actor.
  public nonisolated let cache: PriceCache?
  private let warn: @Sendable (PriceFeedWarning) -> Void

  public init(
    chain: PriceSourceChain,
    cache: PriceCache?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) {
    self.init(
      loadAfter: { budget, lastKnown in
        StreamFirstPriceLoader.Tick(
          quote: try await chain.load(within: budget, reference: lastKnown), transport: .rest,
          crossCheck: nil)
      }, cache: cache, warn: warn)
  }

  /// A feed whose ticks load through `load`, which throws ``PriceFetchFailure`` when it has no
  /// price, and is not told the last known price.
  public init(
    load: @escaping @Sendable (_ budget: Duration) async throws -> StreamFirstPriceLoader.Tick,
    cache: PriceCache?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) {
    self.init(loadAfter: { budget, _ in try await load(budget) }, cache: cache, warn: warn)
  }

  /// A feed whose ticks load through `load` (a ``StreamFirstPriceLoader``), given the last known
  /// price, which vouches for or against a price that moved (``PricePlausibility``); it throws
  /// ``PriceFetchFailure`` when it has no price. The tick's cross-check goes out on the update.
  public init(
    loadAfter load:
      @escaping @Sendable (_ budget: Duration, _ lastKnown: PriceQuote?) async throws
      -> StreamFirstPriceLoader.Tick,
    cache: PriceCache?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) {
    self.load = load
    self.cache = cache
    self.warn = warn
  }

  /// Loads the cached quote, if any, so that a failing first tick can already show it.
  @discardableResult
  public func restore() -> PriceQuote? {
    guard let cache else { return lastKnown }
    do {
      if let cached = try cache.load(), cached.timestamp > lastKnown?.timestamp ?? .distantPast {
        lastKnown = cached
      }
    } catch {
      warn(.cacheUnreadable(String(describing: error)))
    }
    return lastKnown
  }

  /// Runs one tick: asks the chain for a price within `budget`.
  ///
  /// - Throws: only `CancellationError`; every source problem is a `.stale` update.
  public func update(within budget: Duration) async throws -> PriceUpdate {
    let tick: StreamFirstPriceLoader.Tick
    do {
      tick = try await load(budget, lastKnown)
    } catch let failure as PriceFetchFailure {
      cache?.record(nil)
      return .stale(lastKnown: lastKnown, failure: failure)
    }
    // A quote that arrives just as the tick is cancelled (the app went to the background, the
    // user pressed Ctrl-C) is dropped: a cancelled tick writes nothing.
    try Task.checkCancellation()
    lastKnown = tick.quote
    cache?.record(tick.quote)
    return .fresh(tick.quote, crossCheck: tick.crossCheck)
  }

  /// Writes the last known quote now if the cache does not hold it yet: for the ways out.
  public func flush() {
    cache?.flush()
  }
}
