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
    let pipeline = await PricePipeline.start(
      sources: sources, urls: urls, cryptoCompareAPIKey: cryptoCompareAPIKey, store: store,
      primaryTimeout: primaryTimeout, verbose: verbose)
    let (loop, clock, report, feed) = (
      pipeline.loop, pipeline.clock, pipeline.report, pipeline.feed
    )

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
    await pipeline.shutdown()
    if let signal = signals.received {
      return .interrupted(signal: signal)
    }
    return lastTickSucceeded.value ? .lastTickSucceeded : .lastTickFailed
  }
}

extension PriceApp {
  /// `--verbose`: swift-log to stderr, so stdout keeps only the price lines.
  static func verboseLogger() -> Logger {
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
