import BTCPriceAsyncHTTPClient
import BTCPriceCore
import BTCPriceNetworking
import BTCPricePersistence
import Foundation
import NIOCore
import NIOPosix

/// What every front end of the tool ticks through (the terminal in ``PriceApp``, the web in
/// ``ServeCommand``): one event-loop thread, the HTTP client, the source chain with its report,
/// and the feed with its restored cache.
struct PricePipeline {
  let group: MultiThreadedEventLoopGroup
  let loop: any EventLoop
  let client: AsyncHTTPClientAdapter
  let clock: EventLoopClock
  let now: @Sendable () -> Date
  let report: SourceReport
  let feed: PriceFeed

  /// Builds the pipeline and restores the cache.
  ///
  /// - Parameter onEvent: also told every source event (after the report), e.g. for metrics.
  static func start(
    sources: [PriceSourceCatalog.Entry], urls: [String: URL], cryptoCompareAPIKey: String?,
    store: FilePriceStore?, primaryTimeout: Duration, verbose: Bool,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) async -> PricePipeline {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let client = AsyncHTTPClientAdapter(eventLoopGroup: group)
    let clock = EventLoopClock(loop: loop)
    let now: @Sendable () -> Date = { Date() }
    let report = SourceReport(
      log: verbose ? PriceApp.verboseLogger() : nil, apiKeyGiven: cryptoCompareAPIKey != nil)
    let chain = PriceSourceChain.remote(
      sources, urls: urls, apiKey: cryptoCompareAPIKey, client: client,
      primaryTimeout: primaryTimeout, clock: clock, now: now,
      onEvent: { event in
        report.record(event)
        onEvent(event)
      })
    let feed = PriceFeed(chain: chain, store: store) { warning in
      switch warning {
      case .cacheUnreadable(let reason): Console.warn(reason)
      case .cacheNotSaved(let reason): Console.warn("\(reason) (will keep running without saving)")
      }
    }
    await feed.restore()
    store?.removeAbandonedTemporaryFiles(now: now())
    return PricePipeline(
      group: group, loop: loop, client: client, clock: clock, now: now, report: report, feed: feed)
  }

  func shutdown() async {
    await client.shutdown()
    try? await group.shutdownGracefully()
  }
}
