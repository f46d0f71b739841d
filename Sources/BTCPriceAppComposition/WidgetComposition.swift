import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPricePipeline
import BTCPriceSources
import BTCPriceURLSession
import BTCPriceWidgetCore
import Foundation

/// What the widget's timeline provider wires: the app's cache through the App Group, then one
/// request down the same source chain as the app's, within a deadline.
///
/// The widget extension (App/iOS/Widget) calls ``loadTimeline(now:)`` from `getTimeline` and
/// ``snapshot(now:)`` from `getSnapshot`, and turns the result into WidgetKit's types; every
/// decision is here or in BTCPriceWidgetCore, where Linux tests it.
public struct WidgetComposition: Sendable {
  /// How long a reload may wait for the sources. WidgetKit gives a timeline provider a limited
  /// time to answer; a reload that cannot get a price by then shows the cached one, marked.
  public static let deadline: Duration = .seconds(10)

  let client: any BTCHTTPClient
  private let clock: any Clock<Duration>
  private let now: @Sendable () -> Date
  private let folder: URL?
  private let preference: CurrencyPreference
  private let timeZone: @Sendable () -> TimeZone
  private let log: @Sendable (String) -> Void

  /// - Parameters:
  ///   - folder: the App Group's folder holding the app's cache and limits; nil without one.
  ///   - preference: the currency the user chose in the app.
  public init(
    client: any BTCHTTPClient, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date,
    folder: URL?, preference: CurrencyPreference,
    timeZone: @escaping @Sendable () -> TimeZone = { .autoupdatingCurrent },
    log: @escaping @Sendable (String) -> Void
  ) {
    self.client = client
    self.clock = clock
    self.now = now
    self.folder = folder
    self.preference = preference
    self.timeZone = timeZone
    self.log = log
  }

  /// The live wiring: URLSession, the App Group's folder and preference, the system's zone.
  ///
  /// Every composition shares ``sharedClient``: WidgetKit builds a timeline provider (and so a
  /// composition) whenever it asks for the widget's configuration, and a session per provider,
  /// never invalidated, is a leak in the widget's process.
  public static func live(log: @escaping @Sendable (String) -> Void) -> WidgetComposition {
    WidgetComposition(
      client: sharedClient, clock: ContinuousClock(), now: { Date() },
      folder: AppGroup.folderURL(), preference: .live, log: log)
  }

  /// The widget process's one URLSession (created on first use, kept for the process's life).
  static let sharedClient = URLSessionHTTPClient()

  /// What WidgetKit shows, redacted, while the first entry loads: no price, never a made-up one.
  public func placeholder() -> WidgetTimelinePolicy.Entry {
    policy(for: preference.currency).snapshot(for: nil, now: now())
  }

  /// The cached price, without asking any source: for the widget gallery, which wants an answer
  /// at once.
  public func snapshot() -> WidgetTimelinePolicy.Entry {
    let currency = preference.currency
    let cached = try? store(for: currency)?.load()
    return policy(for: currency).snapshot(
      for: cached ?? nil, now: now(), dayHistory: dayHistory(for: currency))
  }

  /// The cached price, then the sources within ``deadline``; a fresh price is saved to the
  /// shared cache, so the app starts from it too.
  public func loadTimeline() async -> WidgetTimelinePolicy.Timeline {
    let currency = preference.currency
    let feed = makeFeed(for: currency)
    await feed.restore()
    // The one tick path, for one tick within the deadline; the widget's own presenter words it.
    let tick = try? await PriceTickLoop(
      interval: Self.deadline, clock: clock, feed: feed,
      presenter: PricePresenter(timestamps: TimestampFormatter(precision: .minutes))
    ).run(count: 1) { _ in }
    await feed.flush()
    let fresh: PriceQuote?
    if case .fresh(let quote, _) = tick?.update { fresh = quote } else { fresh = nil }
    let lastKnown = await feed.lastKnown
    return policy(for: currency).timeline(
      for: fresh ?? lastKnown, fetchFailed: fresh == nil, now: now(),
      dayHistory: dayHistory(for: currency))
  }

  /// The day's history the app keeps beside the cache, for the 24-hour change: the widget asks
  /// no exchange for candles (a reload is a one-shot), so the change is there while the app has
  /// been opened within the day, and absent otherwise.
  private func dayHistory(for currency: Currency) -> CandleSeries? {
    folder.flatMap {
      try? FileCandleStore(
        besidePriceFile: AppGroup.cacheFileURL(in: $0, currency: currency),
        knownSources: PriceSourceRegistry.sources, currency: currency
      ).load(.day)
    }
  }

  private func policy(for currency: Currency) -> WidgetTimelinePolicy {
    WidgetTimelinePolicy(presenter: WidgetPresenter(currency: currency, timeZone: timeZone))
  }

  private func store(for currency: Currency) -> FilePriceStore? {
    folder.map {
      FilePriceStore(
        fileURL: AppGroup.cacheFileURL(in: $0, currency: currency),
        knownSources: PriceSourceRegistry.sources, currency: currency)
    }
  }

  private func makeFeed(for currency: Currency) -> PriceFeed {
    // The app's pipeline. The bans and refusals the app recorded hold for the widget too, and the
    // widget's hold for the app: one device, one IP, one set of limits. No minimum interval
    // between cache writes: the widget writes at most once per reload. REST only: a timeline
    // entry is a one-shot, like `--once`, and should not wait for a trade.
    PricePipeline(
      PricePipeline.Configuration(
        currency: currency, primaryTimeout: PriceDefaults.primaryTimeout, stream: false),
      client: client, clock: clock, now: now, store: store(for: currency),
      limitStore: folder.map { FileSourceLimitStore(fileURL: AppGroup.limitsFileURL(in: $0)) },
      cacheWriteInterval: .zero, warn: log
    ).feed
  }
}
