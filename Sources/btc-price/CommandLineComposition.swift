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
    let warn: @Sendable (String) -> Void = { session.diagnostic(Console.warning($0)) }
    // One tick never waits for a trade: `--once` asks REST.
    let prices = NIOPipeline.make(
      pipeline, streams: count != 1, warn: warn, log: { session.diagnostic($0) })
    let deliveries = AlertDeliveries.terminal(
      command: pipeline.onAlert, notify: pipeline.notify,
      environment: ProcessInfo.processInfo.environment, warn: warn)
    let ticks = prices.tickLoop(
      pipeline, presenter: presenter, alerts: prices.alertEngine(pipeline, warn: warn),
      deliveries: [deliveries])

    // The trap goes first: a signal at any later moment must find it, and give the cursor back.
    let ticking = NIOLockedValueBox<Task<PriceTick?, any Error>?>(nil)
    let signals = SignalTrap(
      beforeHardExit: {
        prices.cache?.flush()
        session.restoreTerminal(waitingAtMost: 100)
      },
      jobControl: jobControl(session),
      terminate: { _ in ticking.withLockedValue { $0 }?.cancel() })
    var outcome = Outcome.lastTickFailed
    do {
      try session.begin()
      await prices.restore(pipeline)
      // The session is the loop's view: the notices as warnings, each tick in its mode.
      let task = prices.start(ticks, count: count, view: session)
      ticking.withLockedValue { $0 = task }
      if signals.received != nil { task.cancel() }
      let last = try await task.value
      outcome = last.map { !$0.state.isStale } == true ? .lastTickSucceeded : .lastTickFailed
    } catch TerminalOutputError.readerGone {
      outcome = .readerGone
    } catch TerminalOutputError.failed(let reason) {
      outcome = .outputFailed(reason)
    } catch {
      // Cancelled by a signal: the outcome is the signal's.
    }
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
