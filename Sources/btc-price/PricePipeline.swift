import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceTerminal
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What every front end of the tool ticks through (the terminal in ``CommandLineComposition``,
/// the web in ``ServeCommand``): one event-loop thread, the HTTP client, the source chain with its
/// report and its limits from earlier runs, and the feed with its cache.
struct PricePipeline {
  let group: MultiThreadedEventLoopGroup
  let loop: any EventLoop
  let client: NIOHTTPClient
  let clock: EventLoopClock
  let now: @Sendable () -> Date
  let report: SourceReport
  let feed: PriceFeed

  /// The cache, for the ways out that must write it without waiting for the feed.
  var cache: PriceCache? { feed.cache }

  /// Builds the pipeline; ``restore()`` then reads the cache.
  ///
  /// - Parameters:
  ///   - warn: one line for stderr (a source refusing us, a cache that cannot be written).
  ///   - log: a `--verbose` line, formatted, for stderr.
  ///   - onEvent: also told every source event (after the report), e.g. for metrics.
  static func make(
    _ resolved: PipelineOptions.Resolved,
    warn: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> PricePipeline {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let client = NIOHTTPClient(
      eventLoopGroup: group, proxies: resolved.proxies, trust: resolved.trust)
    let clock = EventLoopClock(loop: loop)
    let now: @Sendable () -> Date = { Date() }
    let report = sourceReport(resolved, warn: warn, log: log)
    if resolved.verbose {
      log(VerboseLine.format(.info, chainLine(resolved)))
      for definition in resolved.sources {
        let url = resolved.urls[definition.source.id] ?? definition.defaultURL
        log(
          VerboseLine.format(
            .info, "\(definition.source.id) goes \(resolved.proxies.explain(for: url))"))
      }
    }
    let limits = resolved.limitStore.map {
      SourceLimits(store: $0, targets: resolved.limitTargets, now: now, warn: warn)
    }
    let chain = PriceSourceChain.remote(
      resolved.sources, urls: resolved.urls, currency: resolved.currency,
      apiKeys: resolved.apiKeys, client: client, primaryTimeout: resolved.primaryTimeout,
      clock: clock, now: now, inheritedLimits: limits?.restore() ?? [:]
    ) { event in
      report.record(event)
      limits?.record(event)
      onEvent(event)
    }
    let feedWarn: @Sendable (PriceFeedWarning) -> Void = { warning in
      switch warning {
      case .cacheUnreadable(let reason): warn(reason)
      case .cacheNotSaved(let reason): warn("\(reason) (will keep running without saving)")
      }
    }
    let cache = resolved.store.map { PriceCache(store: $0, clock: clock, warn: feedWarn) }
    return PricePipeline(
      group: group, loop: loop, client: client, clock: clock, now: now, report: report,
      feed: PriceFeed(chain: chain, cache: cache, warn: feedWarn))
  }

  /// The words and formats of every front end: local times to the second, in the currency.
  static func presenter(_ resolved: PipelineOptions.Resolved) -> PricePresenter {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds), currency: resolved.currency)
  }

  /// Reads the cache, so the first tick can already show the last known price, and sweeps the
  /// temporary files a killed writer left.
  @discardableResult
  func restore(_ resolved: PipelineOptions.Resolved) async -> PriceQuote? {
    let restored = await feed.restore()
    resolved.store?.removeAbandonedTemporaryFiles(now: now())
    return restored
  }

  /// Writes what the cache owes, and closes the connections.
  func shutdown() async {
    cache?.flush()
    await client.shutdown()
    try? await group.shutdownGracefully()
  }

  /// `--verbose`'s first line: `BTC/EUR from binance, …; left out, with no BTC/JPY market: …`.
  private static func chainLine(_ resolved: PipelineOptions.Resolved) -> String {
    let code = resolved.currency.code
    var line = "BTC/\(code) from \(resolved.sources.map(\.source.id).joined(separator: ", "))"
    if !resolved.leftOut.isEmpty {
      let ids = resolved.leftOut.map(\.source.id).joined(separator: ", ")
      line += "; left out, with no BTC/\(code) market: \(ids)"
    }
    return line
  }

  /// `--verbose` lines, and the warnings about sources that refuse us.
  private static func sourceReport(
    _ resolved: PipelineOptions.Resolved, warn: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) -> SourceReport {
    let apiKeys = resolved.apiKeys
    let verbose: @Sendable (SourceReport.Level, String) -> Void = { level, line in
      log(VerboseLine.format(level, line))
    }
    return SourceReport(
      log: resolved.verbose ? verbose : nil,
      warn: warn,
      advice: { source, cause, coolDown in
        let definition = PriceSourceRegistry.definition(id: source.id)
        let advice = definition?.advice(
          for: cause, coolDown: coolDown, apiKeyGiven: apiKeys[source.id] != nil)
        return advice.map { (key: "\($0.status)", text: $0.text) }
      })
  }
}
