import BTCPriceAlerts
import BTCPriceCore
import BTCPriceFeature
import BTCPriceNIO
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceTerminal
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
    let presenter = NIOPipeline.presenter(pipeline)
    let session = TerminalSession(
      mode: mode, presenter: presenter, write: Console.writeStdout,
      writeDiagnostic: Console.writeStderr, width: Console.terminalWidth)
    // Status bars run `--once --max-age` in every pane every few seconds: the runs take turns
    // on the cache, and the first to find it stale asks the sources for all of them.
    var cacheLock: FileLock?
    if let maxAge, let store = pipeline.store {
      cacheLock = FileLock(path: store.fileURL.path + ".lock", waitingAtMost: .seconds(3))
      let cache = PriceCache(store: store, clock: ContinuousClock())
      if let quote = cache.storedQuote(notOlderThan: maxAge, at: Date()) {
        return Self.outcome(showing: presenter.present(.fresh(quote)), in: session)
      }
    }
    defer { withExtendedLifetime(cacheLock) {} }
    return await tick(session: session, presenter: presenter)
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

  private func tick(session: TerminalSession, presenter: PricePresenter) async -> Outcome {
    // One tick never waits for a trade: `--once` asks REST.
    let prices = NIOPipeline.make(
      pipeline, streams: count != 1, warn: { session.diagnostic(Console.warning($0)) },
      log: { session.diagnostic($0) })
    let warn: @Sendable (String) -> Void = { session.diagnostic(Console.warning($0)) }
    let deliveries = AlertDeliveries.terminal(
      command: pipeline.onAlert, notify: pipeline.notify,
      environment: ProcessInfo.processInfo.environment, warn: warn)
    let alerts = AlertDispatch.make(
      pipeline, deliveries: deliveries, clock: prices.clock, runStarted: prices.now(),
      presenter: presenter, warn: warn)

    // The trap goes first: a signal at any later moment must find it, and give the cursor back.
    let ticking = NIOLockedValueBox<Task<Void, any Error>?>(nil)
    let signals = SignalTrap(
      beforeHardExit: {
        prices.cache?.flush()
        session.restoreTerminal(waitingAtMost: 100)
      },
      jobControl: jobControl(session),
      terminate: { _ in ticking.withLockedValue { $0 }?.cancel() })
    var outcome = Outcome.lastTickFailed
    var streaming: Task<Void, any Error>?
    do {
      try session.begin()
      await prices.restore(pipeline)
      let ticks = prices.tickLoop(pipeline, presenter: presenter)
      let lastTickSucceeded = NIOLockedValueBox(false)
      // Say why once when no source gives a price; a --once run says it at once.
      let outage = NIOLockedValueBox(OutageNotice(threshold: min(3, count ?? 3)))
      // And once when two streams start to disagree, once when they agree again.
      let disagreement = NIOLockedValueBox(CrossCheckNotice())
      streaming = prices.startStreams()
      let task = prices.loop.startTask { [count, pipeline] in
        await prices.waitForStreams(pipeline)
        try await ticks.run(count: count) { update, presented in
          let (line, reason) = outage.withLockedValue { ($0.record(update), $0.reason) }
          if let line { session.diagnostic(Console.warning(line)) }
          if let line = disagreement.withLockedValue({ $0.record(update) }) {
            session.diagnostic(Console.warning(line))
          }
          var state = presented
          state.alert = alerts?.tick(update)
          try session.show(state, reason: reason)
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
    // The streams end before the event loop they run on; a cancelled stream closes at once.
    streaming?.cancel()
    _ = await streaming?.result
    if let signal = signals.received { outcome = .interrupted(signal: signal) }
    if outcome != .readerGone { try? session.end() }
    // A signal means now; a run that ended on its own lets a last alert's command finish.
    await deliveries.finish(within: signals.received == nil ? .seconds(2) : .zero)
    await prices.shutdown()
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
}
