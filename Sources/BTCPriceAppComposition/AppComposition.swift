import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPricePipeline
import BTCPriceSources
import BTCPriceURLSession
import Foundation

/// The composition root of the iPhone app: the only place that knows the concrete types. It wires
/// the same pipeline as the terminal's, over URLSession instead of SwiftNIO: in the foreground the
/// ticks read the exchanges' streams first (on `URLSessionWebSocketTask`), REST as the fall back.
///
/// A library without SwiftUI, so that Linux builds and tests what the app wires; the app target
/// (`App/iOS`) adds only `@main`, the scene and the system log.
@MainActor
public enum AppComposition {
  /// The price screen's view model with the live dependencies.
  ///
  /// - Parameters:
  ///   - currency: the currency to show (``CurrencyPreference``).
  ///   - backgroundTask: the app passes UIApplication's background-task calls.
  ///   - log: receives the cache warnings (the app passes the system log).
  public static func makePriceViewModel(
    currency: Currency = .usd, backgroundTask: BackgroundTaskHooks = .none,
    log: @escaping @Sendable (String) -> Void
  ) -> PriceViewModel {
    // The App Group's container, which the widget reads; the app's own Application Support
    // where there is none (see AppGroup.folderURL).
    let shared = AppGroup.folderURL()
    let cacheFileURL =
      shared.map { AppGroup.cacheFileURL(in: $0, currency: currency) }
      ?? (try? FilePriceStore.applicationSupportFileURL()).map {
        AppGroup.cacheFileURL(in: $0.deletingLastPathComponent(), currency: currency)
      }
    let limitsFileURL =
      shared.map(AppGroup.limitsFileURL) ?? (try? FileSourceLimitStore.applicationSupportFileURL())
    return makePriceViewModel(
      client: URLSessionHTTPClient(), clock: ContinuousClock(), now: { Date() },
      cacheFileURL: cacheFileURL, limitsFileURL: limitsFileURL, currency: currency,
      backgroundTask: backgroundTask, streamConnector: URLSessionWebSocketConnector(),
      history: true, log: log)
  }

  /// The same wiring with every dependency given.
  ///
  /// - Parameters:
  ///   - cacheFileURL: where the last price is kept; `nil` runs without a cache.
  ///   - limitsFileURL: where bans and refusals are kept across launches, as the terminal keeps
  ///     them; `nil` keeps them in memory only.
  ///   - currency: the currency asked of the sources and shown.
  ///   - backgroundTask: keeps the app running while the save on the way out ends.
  ///   - streamConnector: opens the price streams, which are open while the app is in the
  ///     foreground and read before REST; nil ticks over REST alone.
  ///   - history: keeps the day's price history (beside the cache) for the 24-hour change and
  ///     the chart; the live app does.
  public static func makePriceViewModel(
    client: any BTCHTTPClient, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
    cacheFileURL: URL?, limitsFileURL: URL? = nil, currency: Currency = .usd,
    backgroundTask: BackgroundTaskHooks = .none, streamConnector: (any WebSocketConnector)? = nil,
    history: Bool = false, log: @escaping @Sendable (String) -> Void
  ) -> PriceViewModel {
    // The terminal's default chain and pipeline for the currency: CryptoCompare is skipped for an
    // hour after its 401 while the app has no key (a key would come from the Keychain, never from
    // the bundle).
    let store = cacheFileURL.map {
      FilePriceStore(fileURL: $0, knownSources: PriceSourceRegistry.sources, currency: currency)
    }
    // iOS can end the app in the middle of a save, leaving a temporary file behind; nothing else
    // would ever remove it. The folder holds one or two small files, so this costs the launch
    // next to nothing.
    store?.removeAbandonedTemporaryFiles(now: now())
    // The day's history beside the cache, in the App Group's folder, so the widget reads the
    // 24-hour change from it too.
    let pipeline = PricePipeline(
      PricePipeline.Configuration(
        currency: currency, primaryTimeout: PriceDefaults.primaryTimeout, stream: true),
      client: client, clock: clock, now: now, store: store,
      limitStore: limitsFileURL.map { FileSourceLimitStore(fileURL: $0) },
      streamConnector: streamConnector, warn: log, history: history,
      candleStore: cacheFileURL.map {
        FileCandleStore(
          besidePriceFile: $0, knownSources: PriceSourceRegistry.sources, currency: currency)
      })
    // Open only while the screen ticks (the foreground): iOS suspends a backgrounded app, and a
    // socket it leaves open would be cut under it anyway. The first tick after opening waits at
    // most the primary's timeout for a trade, as the terminal's does.
    // The history is fetched at its pace while the screen ticks (at launch and on return to the
    // foreground, unless the kept day is younger than its refresh), never per tick.
    let streams =
      pipeline.streams == nil
      ? PriceConnections.none
      : PriceConnections(run: pipeline.runStreams, ready: pipeline.waitForFirstStreamPrice)
    let fetches =
      pipeline.history == nil
      ? PriceConnections.none
      : PriceConnections(run: { await pipeline.runHistory() }, ready: pipeline.waitForHistory)
    return PriceViewModel(
      feed: pipeline.feed, clock: clock, currency: currency, backgroundTask: backgroundTask,
      connections: streams.with(fetches), history: pipeline.history)
  }
}
