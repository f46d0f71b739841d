import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPricePersistence
import BTCPricePipeline
import BTCPriceSources
import BTCPriceTerminal
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The shared ``PricePipeline`` on the tool's runtime, for every front end of the tool (the
/// terminal's, `serve`'s): one event-loop thread, the SwiftNIO HTTP client and stream connector,
/// and the `--verbose` report; and the ``PriceTickLoop`` every tick goes through, run on that
/// thread.
struct NIOPriceRuntime: Sendable {
  let options: ResolvedOptions
  let group: MultiThreadedEventLoopGroup
  let loop: any EventLoop
  let client: NIOHTTPClient
  let clock: EventLoopClock
  let now: @Sendable () -> Date
  let report: SourceReport
  let pipeline: PricePipeline
  /// Where the cache's, the limits' and the alerts' files are written: never on the loop.
  let disk: BackgroundStoreWriter
  private let warn: @Sendable (String) -> Void

  /// The cache, for the ways out that must write it without waiting for the feed.
  var cache: PriceCache? { pipeline.cache }

  /// Builds the pipeline; ``restore()`` then reads the cache.
  ///
  /// - Parameters:
  ///   - streams: false keeps this run on REST whatever `--stream`/`--no-stream` and the
  ///     default say (`--once` never waits for a trade).
  ///   - history: false keeps no price history (no 24-hour change, no chart, no candle requests).
  ///   - forceHistory: keeps one whatever `--no-history` says (`btc-price chart`).
  ///   - warn: one line for stderr (a source refusing us, a cache that cannot be written).
  ///   - log: a `--verbose` line, formatted, for stderr.
  ///   - onEvent: also told every source event (after the report), e.g. for metrics.
  init(
    _ options: ResolvedOptions, streams: Bool = true, history: Bool = true,
    forceHistory: Bool = false,
    warn: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void,
    onEvent: @escaping @Sendable (PriceSourceEvent) -> Void = { _ in }
  ) {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let clock = EventLoopClock(loop: loop)
    let report = Self.sourceReport(options, warn: warn, log: log)
    // Nothing that can block runs on the loop, which also answers the streams' pings: the files
    // are written on the disk writer's thread, and the certificate authorities are read at
    // start-up (below), not at the first connection.
    let disk = BackgroundStoreWriter()
    let tls = ClientTLS(trust: options.trust)
    // The streams take the same way out as REST: the same proxy choice and the same trust.
    // They are read on the tick when ticks come at least once a second: with rarer ticks a
    // healthy connection would look silent to its watchdog (5 s at the least) between two.
    let streamsOn = streams && options.stream
    let connector =
      streamsOn
      ? NIOWebSocketConnector(
        group: group, proxies: options.proxies, tls: tls,
        readOnTick: options.interval <= .seconds(1)) : nil
    let verbose = options.verbose
    if verbose {
      for line in StartReport.chainLines(options) { log(VerboseLine.format(.info, line)) }
    }
    let now: @Sendable () -> Date = { Date() }
    let client = NIOHTTPClient(eventLoopGroup: group, proxies: options.proxies, tls: tls)
    var configuration = options.configuration
    if forceHistory { configuration.history = true }
    let pipeline = PricePipeline(
      configuration, client: client, clock: clock, now: now, store: options.store,
      limitStore: options.limitStore, storeWriter: disk.writer,
      streamConnector: connector, warn: warn,
      onEvent: { event in
        report.record(event)
        onEvent(event)
      },
      onStream: { event in
        if let warning = StreamLine.warning(event) { warn(warning) }
        guard verbose, let line = StreamLine.text(event) else { return }
        log(VerboseLine.format(line.level, line.text))
      },
      history: history, candleStore: options.candleStore)
    // A run that will use TLS reads its certificate authorities now, before its first
    // connection (ClientTLS): its prices', its streams' and its history's.
    let streamURLs = pipeline.streams.map { $0.runners + [$0.standby].compactMap { $0 } } ?? []
    let urls =
      options.configuration.marketURLs.values.compactMap { try? $0.get() }
      + streamURLs.map(\.url) + pipeline.historyEndpoints
    if Self.usesTLS(urls) { tls.prepare() }
    if verbose, streamsOn {
      for line in StartReport.streamLines(options, streams: pipeline.streams) {
        log(VerboseLine.format(.info, line))
      }
    }
    self.options = options
    self.group = group
    self.loop = loop
    self.client = client
    self.clock = clock
    self.now = now
    self.report = report
    self.pipeline = pipeline
    self.disk = disk
    self.warn = warn
  }

  /// Whether a run that asks `urls` makes TLS connections, so reads its certificate
  /// authorities at start-up.
  static func usesTLS(_ urls: [URL]) -> Bool {
    urls.contains { ["https", "wss"].contains($0.scheme?.lowercased()) }
  }

  /// The words and formats of every front end: local times to the second, in the currency;
  /// the holdings only for a front end that shows them on this machine (the terminal's).
  static func presenter(_ options: ResolvedOptions, showingHoldings: Bool = false)
    -> PricePresenter
  {
    PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds),
      currency: options.configuration.currency,
      holdings: showingHoldings ? options.holdings : nil)
  }

  /// The engine for the run's alert rules, with where they stood at the end of earlier runs;
  /// nil when the run has no rules. `scope` keeps a kind of run's rules apart in the state file
  /// (`serve:`).
  func alertEngine(scope: String = "") -> AlertEngine? {
    guard !options.alerts.isEmpty else { return nil }
    let engine = AlertEngine(
      rules: options.alerts, currency: options.configuration.currency.code, clock: clock,
      runStarted: now(), store: options.alertStore, scope: scope, writer: disk.writer, warn: warn)
    engine.restore()
    return engine
  }

  /// The tick loop of every front end: `--interval`, this runtime's clock, the streams as its
  /// connections, the report told of each tick's start. The first tick waits a bounded moment
  /// for the price history only when `waitingForTheHistory` (a view that shows a change over a
  /// period); the history of `ranges` is kept either way (by default every range: the JSON line
  /// of `serve` and `publish` carries every period's change).
  func tickLoop(
    presenter: PricePresenter, alerts: AlertEngine?, deliveries: [any AlertDelivery],
    waitingForTheHistory: Bool = true, ranges: Set<ChartRange> = Set(ChartRange.allCases)
  ) -> PriceTickLoop {
    let pipeline = self.pipeline
    let streams =
      pipeline.streams == nil
      ? PriceConnections.none
      : PriceConnections(run: pipeline.runStreams, ready: pipeline.waitForFirstStreamPrice)
    // The history's file reads and writes and its answers' mapping run off the event loop (a
    // detached task has no executor preference): the streams' loop never waits on a disk.
    let history =
      pipeline.history == nil
      ? PriceConnections.none
      : PriceConnections(
        run: {
          let ordered = ChartRange.allCases.filter(ranges.contains)
          await Self.offTheLoop { await pipeline.runHistory(ordered) }
        },
        ready: { if waitingForTheHistory { await pipeline.waitForHistory() } })
    return PriceTickLoop(
      interval: options.interval, clock: clock, feed: pipeline.feed, presenter: presenter,
      connections: streams.with(history), alerts: alerts, deliveries: deliveries,
      history: pipeline.history, tickStarted: report.tickStarted)
  }

  /// Runs `body` in a detached task, off the event loop whatever the caller's executor, and
  /// cancels it with the caller.
  static func offTheLoop(_ body: @escaping @Sendable () async -> Void) async {
    let task = Task.detached(operation: body)
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Starts `ticks` on the event loop's thread (see `EventLoopExecutor`), the streams beside
  /// them and ended with them, before the loop they run on shuts down.
  func start(_ ticks: PriceTickLoop, count: Int?, view: some PriceTickView)
    -> Task<PriceTick?, any Error>
  {
    loop.startTask { try await ticks.run(count: count, view: view) }
  }

  /// Reads the cache, so the first tick can already show the last known price, and sweeps the
  /// temporary files a killed writer left.
  @discardableResult
  func restore() async -> PriceQuote? {
    let restored = await pipeline.feed.restore()
    options.store?.removeAbandonedTemporaryFiles(now: now())
    return restored
  }

  /// For a second signal's hard way out (``SignalTrap``), which waits for nothing a stalled
  /// disk or reader holds: the cache is written on the signal's thread, or by the write in
  /// flight, which is given 100 ms to land.
  func saveBeforeHardExit() {
    cache?.flush()
    disk.waitUntilIdle(atMost: .milliseconds(100))
  }

  /// Writes what the cache owes, waits for every file to land, and closes the connections.
  ///
  /// - Parameter closingTheLoop: false leaves the event loop's thread to the process's exit,
  ///   which follows at once: SwiftNIO reports a loop's end through a Dispatch queue, and that
  ///   first job starts libdispatch's pool (four threads and its monitor) for the process's
  ///   last milliseconds; a one-shot's dearest way out (docs/PERFORMANCE.md, "The one-shot").
  func shutdown(closingTheLoop: Bool = true) async {
    cache?.flush()
    await disk.finish()
    // A write that was in flight and failed is tried once more.
    cache?.flush()
    await client.shutdown()
    if closingTheLoop { try? await group.shutdownGracefully() }
  }

  /// `--verbose` lines, and the warnings about sources that refuse us, with each source's advice.
  private static func sourceReport(
    _ options: ResolvedOptions, warn: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) -> SourceReport {
    let apiKeys = options.configuration.apiKeys
    let verbose: @Sendable (SourceReport.Level, String) -> Void = { level, line in
      log(VerboseLine.format(level, line))
    }
    return SourceReport(
      log: options.verbose ? verbose : nil,
      warn: warn,
      advice: { source, cause, coolDown in
        let definition = PriceSourceRegistry.definition(id: source.id)
        let advice = definition?.advice(
          for: cause, coolDown: coolDown, apiKeyGiven: apiKeys[source.id] != nil)
        return advice.map { (key: "\($0.status)", text: $0.text) }
      })
  }
}
