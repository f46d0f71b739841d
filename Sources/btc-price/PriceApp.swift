import BTCPriceAsyncHTTPClient
import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import Foundation
import Logging
import NIOPosix

/// The composition root: the only place that knows the concrete types.
struct PriceApp {
  enum Outcome: Equatable {
    case lastTickSucceeded
    case lastTickFailed
    case interrupted(signal: Int32)
  }

  let interval: Duration
  let primaryTimeout: Duration
  let count: Int?
  let sources: [PriceSourceCatalog.Entry]
  /// Endpoint overrides by source id.
  let urls: [String: URL]
  let cryptoCompareAPIKey: String?
  let store: FilePriceStore?
  let output: TerminalOutput
  let verbose: Bool

  func run() async -> Outcome {
    // One thread does everything a tick needs: its timers, its socket I/O and the tick itself
    // (see EventLoopExecutor). At one request a second there is nothing to spread over cores.
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let client = AsyncHTTPClientAdapter(eventLoopGroup: group)
    let clock = EventLoopClock(loop: loop)
    let now: @Sendable () -> Date = { Date() }
    let report = SourceReport(
      log: verbose ? Self.verboseLogger() : nil, apiKeyGiven: cryptoCompareAPIKey != nil)
    let chain = PriceSourceChain.remote(
      sources, urls: urls, apiKey: cryptoCompareAPIKey, client: client,
      primaryTimeout: primaryTimeout, clock: clock, now: now, onEvent: report.record)
    let feed = PriceFeed(chain: chain, store: store) { warning in
      switch warning {
      case .cacheUnreadable(let reason): Console.warn(reason)
      case .cacheNotSaved(let reason): Console.warn("\(reason) (will keep running without saving)")
      }
    }
    await feed.restore()
    store?.removeAbandonedTemporaryFiles(now: now())

    let presenter = PricePresenter(timestamps: TimestampFormatter(precision: .seconds))
    let ticker = PriceTicker(interval: interval, clock: clock)
    let output = self.output
    let lastTickSucceeded = Flag()
    output.begin()
    let ticking = loop.startTask {
      try await ticker.run(count: count) { slot, budget in
        report.tickStarted(slot, budget: budget)
        guard let update = try? await feed.update(within: budget) else { return }
        let state = presenter.present(update)
        output.show(state)
        lastTickSucceeded.value = !state.isStale
      }
    }
    let signals = SignalTrap([SIGINT, SIGTERM], beforeHardExit: output.end) { _ in
      ticking.cancel()
    }
    _ = await ticking.result
    output.end()
    await client.shutdown()
    try? await group.shutdownGracefully()
    if let signal = signals.received {
      return .interrupted(signal: signal)
    }
    return lastTickSucceeded.value ? .lastTickSucceeded : .lastTickFailed
  }
}

extension PriceApp {
  /// `--verbose`: swift-log to stderr, so stdout keeps only the price lines.
  fileprivate static func verboseLogger() -> Logger {
    var logger = Logger(label: "btc-price") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .debug
    return logger
  }
}

/// A Bool shared between the tick closure and the caller.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
