import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceURLSession
import Foundation

/// The composition root of the iPhone app: the only place that knows the concrete types. It wires
/// the same chain as the terminal's, over URLSession instead of SwiftNIO.
///
/// A library without SwiftUI, so that Linux builds and tests what the app wires; the app target
/// (`App/iOS`) adds only `@main`, the scene and the system log.
@MainActor
public enum AppComposition {
  /// The price screen's view model with the live dependencies.
  ///
  /// - Parameter log: receives the cache warnings (the app passes the system log).
  public static func makePriceViewModel(
    log: @escaping @Sendable (String) -> Void
  ) -> PriceViewModel {
    makePriceViewModel(
      client: URLSessionHTTPClient(), clock: ContinuousClock(), now: { Date() },
      cacheFileURL: try? FilePriceStore.applicationSupportFileURL(),
      limitsFileURL: try? FileSourceLimitStore.applicationSupportFileURL(), log: log)
  }

  /// The same wiring with every dependency given.
  ///
  /// - Parameters:
  ///   - cacheFileURL: where the last price is kept; `nil` runs without a cache.
  ///   - limitsFileURL: where bans and refusals are kept across launches, as the terminal keeps
  ///     them; `nil` keeps them in memory only.
  public static func makePriceViewModel(
    client: any HTTPClient, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
    cacheFileURL: URL?, limitsFileURL: URL? = nil, log: @escaping @Sendable (String) -> Void
  ) -> PriceViewModel {
    // The terminal's default chain: Binance, CryptoCompare (skipped for an hour after its 401
    // while the app has no key; a key would come from the Keychain, never from the bundle), then
    // the keyless Coinbase, Kraken and Bitstamp.
    let limits = limitsFileURL.map { url in
      SourceLimits(
        store: FileSourceLimitStore(fileURL: url),
        targets: Dictionary(
          uniqueKeysWithValues: PriceSourceRegistry.all.map { definition in
            (definition.source.id, SourceLimits.Target(definition.defaultURL, apiKeyGiven: false))
          }),
        now: now, warn: log)
    }
    let chain = PriceSourceChain.remote(
      client: client, primaryTimeout: PriceDefaults.primaryTimeout, clock: clock, now: now,
      inheritedLimits: limits?.restore() ?? [:], onEvent: { limits?.record($0) })
    let store = cacheFileURL.map {
      FilePriceStore(fileURL: $0, knownSources: PriceSourceRegistry.sources)
    }
    // iOS can end the app in the middle of a save, leaving a temporary file behind; nothing else
    // would ever remove it. The folder holds one or two small files, so this costs the launch
    // next to nothing.
    store?.removeAbandonedTemporaryFiles(now: now())
    let warn: @Sendable (PriceFeedWarning) -> Void = { warning in
      switch warning {
      case .cacheUnreadable(let reason), .cacheNotSaved(let reason): log(reason)
      }
    }
    let cache = store.map { PriceCache(store: $0, clock: clock, warn: warn) }
    let feed = PriceFeed(chain: chain, cache: cache, warn: warn)
    return PriceViewModel(feed: feed, clock: clock)
  }
}
