import BTCPriceCore
import BTCPriceFeature
import BTCPriceRuntime
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
  private let format: CandleExport.Format?
  private let output: CommandLineOutput
  private let terminal: (columns: Int?, rows: Int?, isTerminal: Bool)
  private let environment: [String: String]

  /// - Parameters:
  ///   - terminal: stdout's size (nil where not known: a pipe without `$COLUMNS`, `$LINES`)
  ///     and whether it is a terminal.
  ///   - environment: `NO_COLOR`, `TERM`: colours and braille or plain characters.
  ///   - format: the candles themselves as JSON Lines or CSV (`--json`, `--csv`) instead of a
  ///     chart; nil draws the chart.
  public init(
    options: ResolvedOptions, range: ChartRange, output: CommandLineOutput,
    terminal: (columns: Int?, rows: Int?, isTerminal: Bool), environment: [String: String],
    format: CandleExport.Format? = nil
  ) {
    self.options = options
    self.range = range
    self.format = format
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
    let write: (String) -> Void = { line in
      guard failure.value == nil else { return }
      do throws(TerminalOutputError) {
        try output.write(line + "\n")
      } catch {
        failure.withValue { $0 = error }
      }
    }
    if let history = runtime.pipeline.history {
      let presenter = ChartPresenter(
        timestamps: TimestampFormatter(precision: .minutes),
        currency: options.configuration.currency)
      let size = ChartPrinter.size(columns: terminal.columns, rows: terminal.rows)
      let status: Int32?
      if let format {
        status = try? await ChartPrinter.export(
          range, history: history, format: format, presenter: presenter, write: write,
          warn: warn)
      } else {
        status = try? await ChartPrinter.run(
          range, history: history, presenter: presenter, current: current, width: size.width,
          height: size.height,
          glyphs: .choose(isTerminal: terminal.isTerminal, environment: environment),
          colors: ColorPolicy.useColors(isTerminal: terminal.isTerminal, environment: environment),
          now: runtime.now, write: write, warn: warn)
      }
      outcome = .printed(status: status ?? 1)
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
