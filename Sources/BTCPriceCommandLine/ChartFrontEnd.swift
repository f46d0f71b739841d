import BTCPriceCore
import BTCPriceFeature
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price chart [--range 24h|7d|30d]`: one chart printed and done, composed from the run's
/// pipeline (its exchanges, limits and history file), the cache's last price, and the
/// terminal's size and abilities. The command only parses; ``ChartPrinter`` decides.
public struct ChartFrontEnd: Sendable {
  public enum Outcome: Equatable, Sendable {
    /// The chart is up to date (0), or the exchanges could not be asked and the kept history
    /// was drawn with its age, or nothing is known (1): `--once`'s statuses.
    case printed(status: Int32)
    /// stdout's reader went away (`| head`).
    case readerGone
    /// stdout could not be written.
    case outputFailed(String)
  }

  private let options: ResolvedOptions
  private let range: ChartRange
  private let output: CommandLineOutput
  private let terminal: (columns: Int?, rows: Int?, isTerminal: Bool)
  private let environment: [String: String]

  /// - Parameters:
  ///   - terminal: stdout's size (nil where not known: a pipe without `$COLUMNS`, `$LINES`)
  ///     and whether it is a terminal.
  ///   - environment: `NO_COLOR`, `TERM`: colours and braille or plain characters.
  public init(
    options: ResolvedOptions, range: ChartRange, output: CommandLineOutput,
    terminal: (columns: Int?, rows: Int?, isTerminal: Bool), environment: [String: String]
  ) {
    self.options = options
    self.range = range
    self.output = output
    self.terminal = terminal
    self.environment = environment
  }

  /// Prints the chart and says how it went.
  public func run() async -> Outcome {
    let warn: @Sendable (String) -> Void = { output.warn($0) }
    // The chart needs the history whatever `--no-history` says for the ticks.
    let runtime = NIOPriceRuntime(
      options, streams: false, history: true, forceHistory: true, warn: warn,
      log: { output.writeDiagnostic($0) })
    let current = await runtime.restore()
    var outcome = Outcome.printed(status: 1)
    let failure = Locked<TerminalOutputError?>(nil)
    if let history = runtime.pipeline.history {
      let size = ChartPrinter.size(columns: terminal.columns, rows: terminal.rows)
      let status =
        (try? await ChartPrinter.run(
          range, history: history,
          presenter: ChartPresenter(
            timestamps: TimestampFormatter(precision: .minutes),
            currency: options.configuration.currency),
          current: current, width: size.width, height: size.height,
          glyphs: .choose(isTerminal: terminal.isTerminal, environment: environment),
          colors: ColorPolicy.useColors(isTerminal: terminal.isTerminal, environment: environment),
          now: runtime.now,
          write: { line in
            guard failure.value == nil else { return }
            do throws(TerminalOutputError) {
              try output.write(line + "\n")
            } catch {
              failure.withValue { $0 = error }
            }
          },
          warn: warn)) ?? 1
      outcome = .printed(status: status)
    }
    await runtime.shutdown()
    // The lines are queued (TerminalWriter): all of them are written before the run ends.
    await output.finish(afterSignal: nil)
    switch failure.value ?? output.stdout.failure {
    case .some(.readerGone): return .readerGone
    case .some(.failed(let reason)): return .outputFailed(reason)
    case .none: return outcome
    }
  }
}
