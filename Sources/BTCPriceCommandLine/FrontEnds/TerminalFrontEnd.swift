import BTCPriceAlerts
import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPriceTerminal
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The terminal front end: the one tick path (``PriceTickLoop``) with the terminal's session as
/// its view and `--on-alert`/`--notify` as its deliveries, the signals that end it, and how it
/// ended. The command only parses the options, calls ``run()`` and turns the outcome into an exit
/// status.
public struct TerminalFrontEnd: Sendable {
  public enum Outcome: Equatable, Sendable {
    case lastTickSucceeded
    case lastTickFailed
    case interrupted(signal: Int32)
    /// stdout's reader went away (`| head`).
    case readerGone
    /// stdout could not be written (`> /dev/full`).
    case outputFailed(String)
  }

  /// How long a run that ended on its own lets the last alert's command finish.
  public static let alertCommandsGrace = Duration.seconds(2)
  /// How long `--once --max-age` runs in other panes may hold the cache before this one asks the
  /// sources itself.
  public static let cacheTurnWait = Duration.seconds(3)

  private let options: ResolvedOptions
  private let count: Int?
  private let mode: TerminalSession.Mode
  private let maxAge: Duration?
  private let output: CommandLineOutput
  private let environment: [String: String]
  private let processEndsWithTheRun: Bool

  /// - Parameters:
  ///   - count: ticks to run; nil until interrupted.
  ///   - maxAge: `--once --max-age`: a cached price younger than this is printed without asking
  ///     any source.
  ///   - environment: where `--notify` looks for its program (`PATH`).
  ///   - processEndsWithTheRun: the process exits when ``run()`` returns (the tool, not a
  ///     test): the event loop's thread is left to the exit rather than closed
  ///     (``NIOPriceRuntime/shutdown(closingTheLoop:)``). Everything else ends as before: the
  ///     cache and the other files written, the connections closed, stdout's reader waited for.
  public init(
    options: ResolvedOptions, count: Int?, mode: TerminalSession.Mode, maxAge: Duration?,
    output: CommandLineOutput, environment: [String: String], processEndsWithTheRun: Bool = false
  ) {
    self.options = options
    self.count = count
    self.mode = mode
    self.maxAge = maxAge
    self.output = output
    self.environment = environment
    self.processEndsWithTheRun = processEndsWithTheRun
  }

  public func run() async -> Outcome {
    let presenter = NIOPriceRuntime.presenter(options, showingHoldings: true)
    // The session only queues: the output's writers write on threads of their own, so the
    // event loop that shows a tick never waits for stdout's reader. What waits while the reader
    // is away is the mode's (`stdoutKind`); the live panel and Waybar hold their next frame back
    // until the writer has caught up.
    let (output, kind) = (self.output, mode.stdoutKind)
    let session = TerminalSession(
      mode: mode, presenter: presenter,
      write: { text throws(TerminalOutputError) in try output.write(text, as: kind) },
      writeDiagnostic: output.writeDiagnostic, outputIsBehind: { output.stdout.isBehind },
      width: output.width, height: output.height)
    output.stdout.whenCaughtUp { session.outputCaughtUp() }
    return await finishWriting(await outcome(session: session, presenter: presenter))
  }

  private func outcome(session: TerminalSession, presenter: PricePresenter) async -> Outcome {
    // Status bars run `--once --max-age` in every pane every few seconds: the runs take turns
    // on the cache, and the first to find it stale asks the sources for all of them.
    var cacheLock: FileLock?
    if let maxAge, let store = options.store {
      cacheLock = FileLock(path: store.fileURL.path + ".lock", waitingAtMost: Self.cacheTurnWait)
      let cache = PriceCache(store: store, clock: ContinuousClock())
      if let quote = cache.storedQuote(notOlderThan: maxAge, at: Date()) {
        // The day kept beside it gives the 24-hour change, read from its file as it is, when
        // the output shows it.
        let kept = mode.rangesShown.reduce(into: [ChartRange: CandleSeries]()) { kept, range in
          kept[range] = options.candleStore.flatMap { try? $0.load(range) }
        }
        let state = presenter.present(.fresh(quote), histories: kept)
        return Self.outcome { () throws(TerminalOutputError) in try session.show(state) }
          ?? .lastTickSucceeded
      }
    }
    defer { withExtendedLifetime(cacheLock) {} }
    return await tick(session: session, presenter: presenter)
  }

  private func tick(session: TerminalSession, presenter: PricePresenter) async -> Outcome {
    let warn: @Sendable (String) -> Void = { session.diagnostic(WarningLine.format($0)) }
    // One tick never waits for a trade: `--once` asks REST. Nor does it read, fetch or keep a
    // price history its output does not show: a status bar's plain `--once` costs what
    // `--no-history` costs.
    // A longer run keeps the day's history whatever it shows (its file, for the next run), and
    // the week's and the month's only when it shows their change.
    let ranges = mode.rangesShown
    let runtime = NIOPriceRuntime(
      options, streams: count != 1, history: count != 1 || !ranges.isEmpty, warn: warn,
      log: { session.diagnostic($0) })
    if options.verbose, let line = StartReport.holdingsLine(options) {
      session.diagnostic(VerboseLine.format(.notice, line))
    }
    let deliveries = AlertDeliveries.terminal(
      command: options.onAlert, notify: options.notify, environment: environment, warn: warn)
    let ticks = runtime.tickLoop(
      presenter: presenter, alerts: runtime.alertEngine(), deliveries: [deliveries],
      waitingForTheHistory: !ranges.isEmpty, ranges: ranges.union([.day]))

    // The trap goes first: a signal at any later moment must find it, and give the cursor back.
    // Its hard way out waits for nothing a stalled reader holds: the cache is written on the
    // signal's thread (or by the write in flight, given 100 ms to land), the cursor handed to a
    // writer that is given 50 ms.
    let ticking = NIOLockedValueBox<Task<PriceTick?, any Error>?>(nil)
    let output = self.output
    let signals = SignalTrap(
      beforeHardExit: {
        runtime.saveBeforeHardExit()
        session.restoreTerminal(waitingAtMost: 100)
        output.waitUntilWritten(atMost: .milliseconds(50))
      },
      jobControl: jobControl(session),
      terminate: { _ in ticking.withLockedValue { $0 }?.cancel() })
    // A reader that went away, or a full disk, ends the run at once, not at the next tick.
    output.stdout.whenFailed { _ in ticking.withLockedValue { $0 }?.cancel() }
    var outcome = Outcome.lastTickFailed
    do throws(TerminalOutputError) {
      try session.begin()
      await runtime.restore()
      let task = runtime.start(ticks, count: count, view: session)
      ticking.withLockedValue { $0 = task }
      if signals.received != nil { task.cancel() }
      outcome = await Self.outcome(of: task)
    } catch {
      outcome = Self.outcome(error)
    }
    // Cancelled by a failed write, the outcome is the write's.
    if let failure = output.stdout.failure { outcome = Self.outcome(failure) }
    if let signal = signals.received { outcome = .interrupted(signal: signal) }
    if outcome != .readerGone { try? session.end() }
    // A signal means now; a run that ended on its own lets a last alert's command finish.
    await deliveries.finish(within: signals.received == nil ? Self.alertCommandsGrace : .zero)
    await runtime.shutdown(closingTheLoop: !processEndsWithTheRun)
    return outcome
  }

  /// Waits for stdout's reader before the run ends: for as long as it takes when the run ended
  /// on its own (as `cat` waits), at most 100 ms after a signal, which means now. A write that
  /// failed meanwhile (`| head`, `/dev/full`) is the outcome, unless a signal came first.
  private func finishWriting(_ outcome: Outcome) async -> Outcome {
    if case .interrupted(let signal) = outcome {
      await output.finish(afterSignal: signal)
      return outcome
    }
    await output.finish(afterSignal: nil)
    return output.stdout.failure.map { Self.outcome($0) } ?? outcome
  }

  /// How the ticks ended: the last one's staleness, or what stopped the output. Cancelled by a
  /// signal, the caller makes it the signal's.
  private static func outcome(of ticks: Task<PriceTick?, any Error>) async -> Outcome {
    do {
      let last = try await ticks.value
      return last.map { !$0.state.isStale } == true ? .lastTickSucceeded : .lastTickFailed
    } catch let error as TerminalOutputError {
      return outcome(error)
    } catch {
      return .lastTickFailed
    }
  }

  private static func outcome(_ error: TerminalOutputError) -> Outcome {
    switch error {
    case .readerGone: .readerGone
    case .failed(let reason): .outputFailed(reason)
    }
  }

  /// The outcome of one write that may fail; nil when it succeeded.
  private static func outcome(_ write: () throws(TerminalOutputError) -> Void) -> Outcome? {
    do throws(TerminalOutputError) {
      try write()
      return nil
    } catch {
      return outcome(error)
    }
  }

  /// Ctrl-Z, `fg` and resizes, for the live panel; the plain and JSON lines need nothing.
  private func jobControl(_ session: TerminalSession) -> SignalTrap.JobControl? {
    guard case .live = mode else { return nil }
    let output = self.output
    return SignalTrap.JobControl(
      // The cursor is given back before the process stops, unless stdout is blocked.
      suspend: {
        session.suspend()
        output.waitUntilWritten(atMost: .milliseconds(100))
      },
      resume: { try? session.resume() },
      resized: { try? session.terminalResized() })
  }
}
