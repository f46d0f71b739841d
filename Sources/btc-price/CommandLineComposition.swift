import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPriceNetworking
import BTCPriceTerminal
import Logging
import NIOConcurrencyHelpers
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command-line tool's composition root: the only place that knows the concrete types (the
/// iPhone app's is `AppComposition`).
struct CommandLineComposition {
  enum Outcome: Equatable {
    case lastTickSucceeded
    case lastTickFailed
    case interrupted(signal: Int32)
  }

  let pipeline: PipelineOptions.Resolved
  let count: Int?
  let mode: TerminalSession.Mode

  func run() async -> Outcome {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let client = NIOHTTPClient(eventLoopGroup: group)
    let clock = EventLoopClock(loop: loop)
    let now: @Sendable () -> Date = { Date() }
    let report = sourceReport()
    let chain = PriceSourceChain.remote(
      pipeline.sources, urls: pipeline.urls, apiKeys: pipeline.apiKeys, client: client,
      primaryTimeout: pipeline.primaryTimeout, clock: clock, now: now, onEvent: report.record)
    let feed = PriceFeed(chain: chain, store: pipeline.store) { warning in
      switch warning {
      case .cacheUnreadable(let reason): Console.warn(reason)
      case .cacheNotSaved(let reason): Console.warn("\(reason) (will keep running without saving)")
      }
    }
    await feed.restore()
    pipeline.store?.removeAbandonedTemporaryFiles(now: now())

    let presenter = PricePresenter(timestamps: TimestampFormatter(precision: .seconds))
    let session = TerminalSession(
      mode: mode, presenter: presenter, write: Console.write, width: Console.terminalWidth)
    let ticker = PriceTicker(interval: pipeline.interval, clock: clock)
    let lastTickSucceeded = NIOLockedValueBox(false)
    session.begin()
    let ticking = loop.startTask {
      try await ticker.run(count: count) { slot, budget in
        report.tickStarted(slot, budget: budget)
        guard let update = try? await feed.update(within: budget) else { return }
        let state = presenter.present(update)
        session.show(state)
        lastTickSucceeded.withLockedValue { $0 = !state.isStale }
      }
    }
    let signals = SignalTrap([SIGINT, SIGTERM], beforeHardExit: session.end) { _ in
      ticking.cancel()
    }
    _ = await ticking.result
    session.end()
    await client.shutdown()
    try? await group.shutdownGracefully()
    if let signal = signals.received {
      return .interrupted(signal: signal)
    }
    return lastTickSucceeded.withLockedValue { $0 } ? .lastTickSucceeded : .lastTickFailed
  }

  /// `--verbose` goes to swift-log on stderr, so stdout keeps only the price lines; warnings
  /// about refusing sources always go to stderr.
  private func sourceReport() -> SourceReport {
    let apiKeys = pipeline.apiKeys
    return SourceReport(
      log: pipeline.verbose ? Self.verboseLog() : nil, warn: Console.warn,
      advice: { source, cause, coolDown in
        let definition = PriceSourceRegistry.definition(id: source.id)
        let advice = definition?.advice(
          for: cause, coolDown: coolDown, apiKeyGiven: apiKeys[source.id] != nil)
        return advice.map { (key: "\($0.status)", text: $0.text) }
      })
  }

  private static func verboseLog() -> @Sendable (SourceReport.Level, String) -> Void {
    var logger = Logger(label: "btc-price") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .debug
    return { [logger] level, line in
      switch level {
      case .debug: logger.debug("\(line)")
      case .info: logger.info("\(line)")
      case .notice: logger.notice("\(line)")
      }
    }
  }
}
