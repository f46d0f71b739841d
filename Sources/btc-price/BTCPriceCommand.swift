import ArgumentParser
import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceNetworking
import BTCPriceTerminal

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

struct BTCPriceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "btc-price",
    abstract: "Print the Bitcoin price, in US dollars or your currency, once a second.",
    discussion: """
      SOURCES (--sources): asked in order until one gives a valid price; default \
      \(PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")). Streams first where \
      a source has one, REST as the safety net. Back-off, bans and rate limits: docs/SOURCES.md.

      OUTPUT: one line per tick on stdout; warnings on stderr.
        <time> - <price>                 Nov 22, 14:03:05 - $68,901.23
        Failed to update value. Displaying last updated value from <time> - <price>
        <time>  local, MMM d, HH:mm:ss      <price>  $68,901.23 in every locale
        "-" for both while no price is known.

      JSON (--json), keys in this order:
        timestamp  ISO 8601, UTC            price     exact decimal, a string
        currency   e.g. "USD"               source    the source that delivered it
        stale      true when the tick failed (then the last known value, or nulls)
        error      when stale: the reason   alerts    when an alert fired
        change24h  {absolute, percent, since}: exact, against the price 24 h before;
                   left out while the price history cannot say (docs/HISTORY.md)

      ALERT COMMANDS (--on-alert) get BTC_PRICE_ALERT_RULE, _PRICE, _CURRENCY, \
      _TIME, _SOURCE, _DIRECTION and _TEXT, and are ended after 10 s.

      FILES (the folders default to ~/.cache, ~/.local/state and ~/.config; the state to
        ~/Library/Application Support on macOS when XDG_STATE_HOME is unset):
        $XDG_CACHE_HOME/btc-price/last-price.json   the last good price
        $XDG_STATE_HOME/btc-price/limits.json       bans and rate limits
        $XDG_STATE_HOME/btc-price/alerts.json       where each alert rule stands
        $XDG_CONFIG_HOME/btc-price/config           settings, YAML (or --config)

      SETTINGS keys (the command line wins, then the environment, then the file): sources, \
      currency, interval, primary-timeout, format, <source>-url, \(apiKeySettings)cache-path, \
      proxy, no-proxy, ca-file, alert (a list), on-alert, alert-webhook, history, \
      <source>-candles-url.

      ENVIRONMENT:
        BTC_PRICE_SOURCES            default for --sources
        BTC_PRICE_<NAME>_URL         default for --<name>-url
      \(apiKeyVariables)
        BTC_PRICE_CURRENCY           default for --currency
        BTC_PRICE_ALERTS             default for --alert (comma-separated)
        BTC_PRICE_ON_ALERT           default for --on-alert
        BTC_PRICE_ALERT_WEBHOOK      default for serve's --alert-webhook
        BTC_PRICE_HISTORY            false for --no-history
        XDG_CACHE_HOME, XDG_STATE_HOME, XDG_CONFIG_HOME: where the three folders live
        CACHE_DIRECTORY, STATE_DIRECTORY, CONFIGURATION_DIRECTORY: a systemd unit's own
          (CacheDirectory=...), used first and as they are, without btc-price/ under them
        NO_COLOR                     set (non-empty): no colours

      EXIT STATUS:
        0    the last tick succeeded; or ended by SIGTERM
        1    the last tick failed
        64   usage error
        74   stdout cannot be written
        130  Ctrl-C
        141  (SIGPIPE) stdout's reader is gone

      CURRENCIES (--currency), and the sources that serve each:
      \(PriceSourceRegistry.servingSummary.map { "  " + $0 }.joined(separator: "\n"))

      EXAMPLES:
        btc-price                             run until Ctrl-C, one line a second
        btc-price --live                      the live panel
        btc-price --once --json               one machine-readable line
        btc-price --json | jq -r .price       the exact price, for scripts
        btc-price --count 10 --interval 0.5   ten ticks, two a second
        btc-price --sources coinbase,kraken   only these two, in this order
        btc-price --verbose 2>btc-price.log   log every attempt to a file
        btc-price --currency EUR --once       the price in euros
        btc-price --once --max-age 10 --format '{arrow} {price}'   for tmux
        btc-price --waybar --format '₿ {price}'                     for Waybar
        btc-price --binance-url \\
          'https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT'      Binance.US

      SEE ALSO: btc-price help serve | publish | doctor | chart; the manual is docs/USAGE.md in \
      the source (also SOURCES.md, ALERTS.md, STATUS-BARS.md, SETTINGS.md).
      """,
    version: BTCPriceVersion.display,
    subcommands: [ServeCommand.self, PublishCommand.self, DoctorCommand.self, ChartCommand.self]
  )

  @OptionGroup var pipeline: PipelineOptions

  @Option(
    help: ArgumentHelp(
      "Stop after this many ticks (default: run until interrupted).", valueName: "n"))
  var count: Int?

  @Flag(help: "Run one tick and exit (same as --count 1).")
  var once = false

  @Flag(help: "Print one JSON object per tick instead of text.")
  var json = false

  @Flag(
    help: ArgumentHelp(
      "Show a live panel redrawn in place: price, changes, sparkline.",
      discussion: "Needs a terminal; falls back to plain lines otherwise."))
  var live = false

  @Flag(
    help: ArgumentHelp(
      "Print one Waybar custom-module JSON object per tick (text, tooltip, class, alt).",
      discussion: "Its text follows --format when given."))
  var waybar = false

  @Option(
    help: ArgumentHelp(
      "Shape each line: {price} {price_int} {price_short} {sats} {amount} {currency} {time} "
        + "{source} {arrow} {change} {change_pct} {change_1h} {change_24h} {change_7d} "
        + "{change_30d} (each with _pct) {stale} {alert}; {{ and }} for braces.",
      valueName: "template"))
  var format: String?

  @Option(
    name: .customLong("max-age"),
    help: ArgumentHelp(
      "With --once: print the cached price without asking any source when it is younger than "
        + "this.",
      discussion: "For status bars that run the command every few seconds.",
      valueName: "seconds"))
  var maxAge: Double?

  func validate() throws {
    if let problem = arguments.commandProblem { throw ValidationError(problem) }
  }

  /// What was given, as plain values: what ``RootArguments/read(_:)`` reads from a plain
  /// command line without ArgumentParser.
  var arguments: RootArguments {
    var arguments = RootArguments()
    arguments.settings = pipeline.settings
    arguments.config = pipeline.config
    arguments.noCache = pipeline.noCache
    arguments.notify = pipeline.notify
    arguments.verbose = pipeline.verbose
    arguments.count = count
    arguments.once = once
    arguments.json = json
    arguments.live = live
    arguments.waybar = waybar
    arguments.format = format
    arguments.maxAge = maxAge
    return arguments
  }

  func run() async throws {
    let environment = ProcessEnvironment.current()
    try await Self.run(arguments, resolved: Self.resolved(arguments, environment), environment)
  }

  /// Runs a plain command line that ``RootArguments/read(_:)`` read, without ArgumentParser;
  /// false, having done nothing, when its settings are refused: ArgumentParser then reads it
  /// again and says why with its usage text, as for any refusal.
  static func main(_ arguments: RootArguments) async -> Bool {
    let environment = ProcessEnvironment.current()
    guard let resolved = try? resolved(arguments, environment) else { return false }
    do {
      try await run(arguments, resolved: resolved, environment)
    } catch {
      exit(withError: error)
    }
    return true
  }

  private static func resolved(_ arguments: RootArguments, _ environment: [String: String])
    throws -> ResolvedOptions
  {
    try PipelineOptions.resolve(
      settings: arguments.settings, format: arguments.format, config: arguments.config,
      noCache: arguments.noCache, notify: arguments.notify, verbose: arguments.verbose,
      environment: environment)
  }

  private static func run(
    _ arguments: RootArguments, resolved: ResolvedOptions, _ environment: [String: String]
  ) async throws {
    let (json, live) = (arguments.json, arguments.live)
    let (mode, note) = TerminalSession.mode(
      json: json, live: live, waybar: arguments.waybar,
      template: json || live ? nil : resolved.format,
      isTerminal: Console.stdoutIsTerminal, environment: environment)
    if let note { Console.note(note) }
    let frontEnd = TerminalFrontEnd(
      options: resolved, count: arguments.once ? 1 : arguments.count, mode: mode,
      maxAge: arguments.maxAge.map { .milliseconds(Int64($0 * 1000)) }, output: Console.output,
      environment: environment, processEndsWithTheRun: true)
    switch await frontEnd.run() {
    case .lastTickSucceeded: return
    case .lastTickFailed: throw ExitCode(1)
    case .interrupted(let signal): throw ExitCode(SignalTrap.status(after: signal))
    case .readerGone: Self.endAsABrokenPipeDoes()
    case .outputFailed(let reason):
      Console.error("cannot write to stdout: \(reason)")
      throw ExitCode(Self.outputErrorStatus)
    }
  }

  /// EX_IOERR (sysexits.h): stdout could not be written.
  static let outputErrorStatus: Int32 = 74

  /// Ends quietly the way `yes | head` does: killed by SIGPIPE, which the shell reports as 141.
  /// (SwiftNIO ignores SIGPIPE for its sockets, which is why the write saw EPIPE instead.)
  static func endAsABrokenPipeDoes() -> Never {
    signal(SIGPIPE, SIG_DFL)
    kill(getpid(), SIGPIPE)
    _exit(128 + SIGPIPE)
  }
}

/// `  CRYPTOCOMPARE_API_KEY        sent to CryptoCompare only; never printed`, for every source
/// whose definition takes a key.
private let apiKeyVariables = PriceSourceRegistry.all.compactMap { definition in
  definition.apiKey.map { key in
    let name = key.environmentVariable
    let padding = String(repeating: " ", count: max(1, 29 - name.count))
    return "  \(name)\(padding)sent to \(definition.source.displayName) only; never printed"
  }
}.joined(separator: "\n")

/// `cryptocompare-api-key, `: the settings keys of the sources that take a key.
private let apiKeySettings = PriceSourceRegistry.all.compactMap { definition in
  definition.apiKey.map { _ in "\(definition.source.id)-api-key, " }
}.joined()
