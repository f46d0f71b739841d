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

/// The shared ``PricePipeline`` on the tool's runtime, for every front end of the tool (the
/// terminal in ``CommandLineComposition``, the web in ``ServeCommand``): one event-loop thread,
/// the SwiftNIO HTTP client, and the `--verbose` report.
struct NIOPipeline {
  let group: MultiThreadedEventLoopGroup
  let loop: any EventLoop
  let client: NIOHTTPClient
  let clock: EventLoopClock
  let now: @Sendable () -> Date
  let report: SourceReport
  let pipeline: PricePipeline

  var feed: PriceFeed { pipeline.feed }

  /// The cache, for the ways out that must write it without waiting for the feed.
  var cache: PriceCache? { pipeline.cache }

  /// Builds the pipeline; ``restore(_:)`` then reads the cache.
  ///
  /// - Parameters:
  ///   - warn: one line for stderr (a source refusing us, a cache that cannot be written).
  ///   - log: a `--verbose` line, formatted, for stderr.
  ///   - streams: false keeps this run on REST whatever `--stream`/`--no-stream` and the
  ///     default say (`--once` never waits for a trade).
  ///   - onEvent: also told every source event (after the report), e.g. for metrics.
  static func make(
    _ resolved: PipelineOptions.Resolved, streams: Bool = true,
    warn: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) -> NIOPipeline {
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
      log(
        VerboseLine.format(
          .info,
          SourceReport.chainLine(
            currency: resolved.configuration.currency,
            sourceIDs: resolved.configuration.sources.map(\.source.id),
            leftOutIDs: resolved.leftOut.map(\.source.id))))
      for definition in resolved.configuration.sources {
        let url = resolved.configuration.urls[definition.source.id] ?? definition.defaultURL
        log(
          VerboseLine.format(
            .info, "\(definition.source.id) goes \(resolved.proxies.explain(for: url))"))
      }
    }
    // The streams take the same way out as REST: the same proxy choice and the same trust.
    // They are read on the tick when ticks come at least once a second: with rarer ticks a
    // healthy connection would look silent to its watchdog (5 s at the least) between two.
    let connector =
      streams && resolved.stream
      ? NIOWebSocketConnector(
        group: group, proxies: resolved.proxies, trust: resolved.trust,
        readOnTick: resolved.interval <= .seconds(1)) : nil
    let verbose = resolved.verbose
    let pipeline = PricePipeline(
      resolved.configuration, client: client, clock: clock, now: now, store: resolved.store,
      limitStore: resolved.limitStore, streamConnector: connector, warn: warn,
      onEvent: { event in
        report.record(event)
        onEvent(event)
      },
      onStream: { event in
        if let warning = StreamLine.warning(event) { warn(warning) }
        guard verbose, let line = StreamLine.text(event) else { return }
        log(VerboseLine.format(line.level, line.text))
      })
    if verbose, connector != nil {
      let names = pipeline.streams?.runners.map(\.source.id) ?? []
      let standby = pipeline.streams?.standby.map { " (\($0.source.id) stands in while one rests)" }
      log(
        VerboseLine.format(
          .info,
          names.isEmpty
            ? "streams: no source in the chain has one in "
              + "\(resolved.configuration.currency.code); every tick asks REST"
            : "streams first: \(names.joined(separator: ", "))\(standby ?? ""); REST when none is"
              + " alive"))
      let runners =
        (pipeline.streams?.runners ?? []) + [pipeline.streams?.standby].compactMap { $0 }
      for runner in runners {
        log(
          VerboseLine.format(
            .info,
            "\(runner.source.id) stream goes \(resolved.proxies.explain(for: runner.url))"))
      }
    }
    return NIOPipeline(
      group: group, loop: loop, client: client, clock: clock, now: now, report: report,
      pipeline: pipeline)
  }

  /// The tick loop of every front end: `--interval`, this runtime's clock, the streams as its
  /// connections, the report told of each tick's start.
  func tickLoop(
    _ resolved: PipelineOptions.Resolved, presenter: PricePresenter, alerts: AlertEngine?,
    deliveries: [any AlertDelivery]
  ) -> PriceTickLoop {
    let pipeline = self.pipeline
    return PriceTickLoop(
      interval: resolved.interval, clock: clock, feed: feed, presenter: presenter,
      connections: pipeline.streams == nil
        ? .none
        : PriceConnections(run: pipeline.runStreams, ready: pipeline.waitForFirstStreamPrice),
      alerts: alerts, deliveries: deliveries, tickStarted: report.tickStarted)
  }

  /// The engine for the run's alert rules, with where they stood at the end of earlier runs;
  /// nil when the run has no rules. `scope` keeps a kind of run's rules apart in the state file
  /// (`serve:`).
  func alertEngine(
    _ resolved: PipelineOptions.Resolved, scope: String = "",
    warn: @escaping @Sendable (String) -> Void
  ) -> AlertEngine? {
    guard !resolved.alerts.isEmpty else { return nil }
    let engine = AlertEngine(
      rules: resolved.alerts, currency: resolved.configuration.currency.code, clock: clock,
      runStarted: now(), store: resolved.alertStore, scope: scope, warn: warn)
    engine.restore()
    return engine
  }

  /// Starts `ticks` on the event loop's thread (see `EventLoopExecutor`), the streams beside
  /// them and ended with them, before the loop they run on shuts down.
  func start(_ ticks: PriceTickLoop, count: Int?, view: some PriceTickView)
    -> Task<PriceTick?, any Error>
  {
    loop.startTask { try await ticks.run(count: count, view: view) }
  }

  /// The words and formats of every front end: local times to the second, in the currency.
  static func presenter(_ resolved: PipelineOptions.Resolved) -> PricePresenter {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds),
      currency: resolved.configuration.currency)
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

  /// `--verbose` lines, and the warnings about sources that refuse us, with each source's advice.
  private static func sourceReport(
    _ resolved: PipelineOptions.Resolved, warn: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) -> SourceReport {
    let apiKeys = resolved.configuration.apiKeys
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
