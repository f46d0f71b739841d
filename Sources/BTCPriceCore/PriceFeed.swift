#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Something the feed could not do that the user should hear about once.
public enum PriceFeedWarning: Equatable, Sendable {
  /// The cache exists but cannot be used; the feed starts with no known value.
  case cacheUnreadable(String)
  /// Saving a quote failed. Reported once per run of consecutive failures.
  case cacheNotSaved(String)
}

/// The price use case every UI shares: one tick through the source chain, the last known value,
/// and the cache.
///
/// On success the quote becomes the last known value and is saved; on failure the last known value
/// (possibly from an earlier run, via ``restore()``) is reported as stale. Cache problems never stop
/// the feed: they become warnings.
public actor PriceFeed {
  public private(set) var lastKnown: PriceQuote?
  private let chain: PriceSourceChain
  private let store: (any PriceStore)?
  private let warn: @Sendable (PriceFeedWarning) -> Void
  private var saveIsFailing = false
  /// True while ``lastKnown`` came from the chain and is not in the store yet.
  private var lastKnownIsUnsaved = false

  public init(
    chain: PriceSourceChain,
    store: (any PriceStore)?,
    warn: @escaping @Sendable (PriceFeedWarning) -> Void = { _ in }
  ) {
    self.chain = chain
    self.store = store
    self.warn = warn
  }

  /// Loads the cached quote, if any, so that a failing first tick can already show it.
  @discardableResult
  public func restore() -> PriceQuote? {
    guard let store else { return lastKnown }
    do {
      if let cached = try store.load(), cached.timestamp > lastKnown?.timestamp ?? .distantPast {
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
    let quote: PriceQuote
    do {
      quote = try await chain.load(within: budget)
    } catch let failure as PriceFetchFailure {
      return .stale(lastKnown: lastKnown, failure: failure)
    }
    // A quote that arrives just as the tick is cancelled (the app went to the background, the
    // user pressed Ctrl-C) is dropped: a cancelled tick writes nothing.
    try Task.checkCancellation()
    lastKnown = quote
    save(quote)
    return .fresh(quote)
  }

  /// Persists the last known quote now if it has not been saved yet: for the way out (the app
  /// going to the background), so the next launch starts from it. Cheap when there is nothing to
  /// save; a failure is reported like any other failed save.
  public func flush() async {
    guard lastKnownIsUnsaved, let lastKnown else { return }
    save(lastKnown)
  }

  private func save(_ quote: PriceQuote) {
    guard let store else { return }
    do {
      try store.save(quote)
      saveIsFailing = false
      lastKnownIsUnsaved = false
    } catch {
      if !saveIsFailing { warn(.cacheNotSaved(String(describing: error))) }
      saveIsFailing = true
      lastKnownIsUnsaved = true
    }
  }
}
