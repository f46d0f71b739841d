import ArgumentParser
import BTCPriceCommandLine
import BTCPriceCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `btc-price chart [--range 24h|7d|30d]`: prints one chart of the price history and exits.
/// Parsing only: ``ChartFrontEnd`` composes, ``ChartPrinter`` decides.
struct ChartCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chart",
    abstract: "Print a chart of the price over the last day, week or month, and exit.",
    discussion: """
      The exchanges' candles (docs/HISTORY.md), asked unless the kept history is younger than \
      its refresh (15 min for the day, 1 h for the week and month), kept beside the cache. \
      Sized to the terminal; plain characters into a pipe or with NO_COLOR. Offline, the kept \
      history is drawn with its age.

      --json prints the candles instead, one JSON object per line (time, open, high, low, \
      close, exact strings); --csv the same as CSV with a header.

      Exit status 0 when the chart is up to date, 1 when the exchanges could not be asked, \
      nothing is known, or the terminal has no room for a chart (20 columns, 5 lines), as --once.

      PIPELINE: takes the pipeline options of btc-price (see btc-price --help) before or \
      after "chart": --currency, --sources, --<name>-candles-url, --cache-path, --no-cache, \
      --config, --verbose, --proxy, --ca-file, their environment variables and the settings \
      file.
      """)

  @Option(
    help: ArgumentHelp(
      "How far back: 24h (default), 7d or 30d.", valueName: "range"))
  var range: ChartRange = .day

  @Flag(help: "Print the candles as CSV (time,open,high,low,close) instead of a chart.")
  var csv = false

  @OptionGroup(visibility: .private) var root: BTCPriceCommand

  func validate() throws {
    if root.once || root.count != nil || root.live || root.waybar || root.format != nil
      || root.maxAge != nil
    {
      throw ValidationError(
        "--once, --count, --live, --waybar, --format and --max-age are for the price, not chart.")
    }
    if root.json && csv { throw ValidationError("--json and --csv: choose one.") }
  }

  func run() async throws {
    let environment = ProcessEnvironment.current()
    let resolved = try root.pipeline.resolved(environment: environment, format: nil)
    let isTerminal = Console.stdoutIsTerminal
    let frontEnd = ChartFrontEnd(
      options: resolved, range: range, output: Console.output,
      terminal: (
        columns: Console.terminalColumns(), rows: Console.terminalRows(), isTerminal: isTerminal
      ),
      environment: environment, format: root.json ? .json : csv ? .csv : nil)
    switch await frontEnd.run() {
    case .printed(let status): throw ExitCode(status)
    case .readerGone: BTCPriceCommand.endAsABrokenPipeDoes()
    case .outputFailed(let reason):
      Console.error("cannot write to stdout: \(reason)")
      throw ExitCode(BTCPriceCommand.outputErrorStatus)
    }
  }
}

extension ChartRange: ExpressibleByArgument {
  public init?(argument: String) {
    guard let range = ChartRange.named(argument) else { return nil }
    self = range
  }

  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
