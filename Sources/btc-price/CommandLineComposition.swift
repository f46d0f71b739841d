import BTCPriceAsyncHTTPClient
import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceTerminal
import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// The command-line tool's composition root: the only place that knows the concrete types (the
/// iPhone app's is `AppComposition`).
struct CommandLineComposition {
  enum Outcome: Equatable {
    case lastTickSucceeded
    case lastTickFailed
    case interrupted(signal: Int32)
    /// stdout's reader went away (`| head`).
    case readerGone
    /// stdout could not be written (`> /dev/full`).
    case outputFailed(String)
  }

  let pipeline: PipelineOptions.Resolved
  let count: Int?
  let mode: TerminalSession.Mode
  /// `--once --max-age`: a cached price younger than this is printed without asking any source.
  let maxAge: Duration?

  func run() async -> Outcome {
    let now: @Sendable () -> Date = { Date() }
    let presenter = PricePresenter(
      timestamps: TimestampFormatter(precision: .seconds), currency: pipeline.currency)
    let session = TerminalSession(
      mode: mode, presenter: presenter, write: Console.writeStdout,
      writeDiagnostic: Console.writeStderr, width: Console.terminalWidth)
    // Status bars run `--once --max-age` in every pane every few seconds: the runs take turns
    // on the cache, and the first to find it stale asks the sources for all of them.
    var cacheLock: FileLock?
    if let maxAge, let store = pipeline.store {
      cacheLock = FileLock(path: store.fileURL.path + ".lock", waitingAtMost: .seconds(3))
      let cache = PriceCache(store: store, clock: ContinuousClock())
      if let quote = cache.storedQuote(notOlderThan: maxAge, at: now()) {
        return Self.outcome(showing: presenter.present(.fresh(quote)), in: session)
      }
    }
    defer { withExtendedLifetime(cacheLock) {} }
    return await tick(now: now, presenter: presenter, session: session)
  }

  /// The run without the network: one line from the cache.
  private static func outcome(showing state: PriceViewState, in session: TerminalSession)
    -> Outcome
  {
    do throws(TerminalOutputError) {
      try session.show(state)
      return .lastTickSucceeded
    } catch {
      switch error {
      case .readerGone: return .readerGone
      case .failed(let reason): return .outputFailed(reason)
      }
    }
  }

  private func tick(
    now: @escaping @Sendable () -> Date, presenter: PricePresenter, session: TerminalSession
  ) async -> Outcome {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let client = AsyncHTTPClientAdapter(eventLoopGroup: group)
    let clock = EventLoopClock(loop: loop)
    let warn: @Sendable (String) -> Void = { session.diagnostic(Console.warning($0)) }

    let report = sourceReport(session: session, warn: warn)
    if pipeline.verbose {
      let code = pipeline.currency.code
      var line = "BTC/\(code) from \(pipeline.sources.map(\.source.id).joined(separator: ", "))"
      if !pipeline.leftOut.isEmpty {
        let ids = pipeline.leftOut.map(\.source.id).joined(separator: ", ")
        line += "; left out, with no BTC/\(code) market: \(ids)"
      }
      session.diagnostic(VerboseLine.format(.info, line))
    }
    let limits = pipeline.limitStore.map {
      SourceLimits(store: $0, targets: pipeline.limitTargets, now: now, warn: warn)
    }
    let chain = PriceSourceChain.remote(
      pipeline.sources, urls: pipeline.urls, currency: pipeline.currency,
      apiKeys: pipeline.apiKeys, client: client,
      primaryTimeout: pipeline.primaryTimeout, clock: clock, now: now,
      inheritedLimits: limits?.restore() ?? [:]
    ) { event in
      report.record(event)
      limits?.record(event)
    }
    let feedWarn: @Sendable (PriceFeedWarning) -> Void = { warning in
      switch warning {
      case .cacheUnreadable(let reason): warn(reason)
      case .cacheNotSaved(let reason): warn("\(reason) (will keep running without saving)")
      }
    }
    let cache = pipeline.store.map { PriceCache(store: $0, clock: clock, warn: feedWarn) }
    let feed = PriceFeed(chain: chain, cache: cache, warn: feedWarn)

    // The trap goes first: a signal at any later moment must find it, and give the cursor back.
    let ticking = NIOLockedValueBox<Task<Void, any Error>?>(nil)
    let signals = SignalTrap(
      beforeHardExit: {
        cache?.flush()
        session.restoreTerminal(waitingAtMost: 100)
      },
      jobControl: jobControl(session),
      terminate: { _ in ticking.withLockedValue { $0 }?.cancel() })
    var outcome = Outcome.lastTickFailed
    do {
      try session.begin()
      await feed.restore()
      pipeline.store?.removeAbandonedTemporaryFiles(now: now())
      let ticker = PriceTicker(interval: pipeline.interval, clock: clock)
      let lastTickSucceeded = NIOLockedValueBox(false)
      let task = loop.startTask {
        try await ticker.run(count: count) { slot, budget in
          report.tickStarted(slot, budget: budget)
          guard let update = try? await feed.update(within: budget) else { return }
          let state = presenter.present(update)
          try session.show(state)
          lastTickSucceeded.withLockedValue { $0 = !state.isStale }
        }
      }
      ticking.withLockedValue { $0 = task }
      if signals.received != nil { task.cancel() }
      try await task.value
      outcome = lastTickSucceeded.withLockedValue { $0 } ? .lastTickSucceeded : .lastTickFailed
    } catch TerminalOutputError.readerGone {
      outcome = .readerGone
    } catch TerminalOutputError.failed(let reason) {
      outcome = .outputFailed(reason)
    } catch {
      // Cancelled by a signal: the outcome is the signal's.
    }
    if let signal = signals.received { outcome = .interrupted(signal: signal) }
    if outcome != .readerGone { try? session.end() }
    cache?.flush()
    await client.shutdown()
    try? await group.shutdownGracefully()
    return outcome
  }

  /// Ctrl-Z, `fg` and resizes, for the live panel; the plain and JSON lines need nothing.
  private func jobControl(_ session: TerminalSession) -> SignalTrap.JobControl? {
    guard case .live = mode else { return nil }
    return SignalTrap.JobControl(
      suspend: { session.suspend() },
      resume: { try? session.resume() },
      resized: { try? session.terminalResized() })
  }

  /// `--verbose` lines and the warnings about sources that refuse us go to stderr, through the
  /// session so that the live panel stays whole.
  private func sourceReport(
    session: TerminalSession, warn: @escaping @Sendable (String) -> Void
  ) -> SourceReport {
    let apiKeys = pipeline.apiKeys
    let log: @Sendable (SourceReport.Level, String) -> Void = { level, line in
      session.diagnostic(VerboseLine.format(level, line))
    }
    return SourceReport(
      log: pipeline.verbose ? log : nil,
      warn: warn,
      advice: { source, cause, coolDown in
        let definition = PriceSourceRegistry.definition(id: source.id)
        let advice = definition?.advice(
          for: cause, coolDown: coolDown, apiKeyGiven: apiKeys[source.id] != nil)
        return advice.map { (key: "\($0.status)", text: $0.text) }
      })
  }
}
