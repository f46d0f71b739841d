import ArgumentParser
import BTCPriceAsyncHTTPClient
import BTCPriceCore
import BTCPriceFeature
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceTerminal
import Foundation

@main
struct BTCPriceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "btc-price",
    abstract: "Print the Bitcoin price in US dollars, once a second.",
    discussion: """
      Asks Binance first. When Binance does not answer with a valid price within the \
      primary timeout (or errors), asks CryptoCompare with what is left of the tick. \
      A tick that gets no price within its interval has failed: the last known price \
      is shown with its own time, and the next success replaces it.

      OUTPUT: one line per tick on stdout, flushed at once; warnings go to stderr.
        <time> - <price>            e.g.  Nov 22, 14:03:05 - $68,901.23
        Failed to update value. Displaying last updated value from <time> - <price>
      <time> is local (MMM d, HH:mm:ss); <price> is like $68,901.23 in every \
      locale. With no value known yet, both are "-".

      JSON (--json): one object per line, keys in this order: timestamp (ISO 8601, \
      UTC), price (the exact decimal, as a string), currency, source (binance or \
      cryptocompare), stale (true when the tick failed) and, when stale, error \
      (the reason). A stale line carries the last known value, or nulls.

      CACHE: $XDG_CACHE_HOME/btc-price/last-price.json (default \
      ~/.cache/btc-price/last-price.json) keeps the last good price across runs.

      ENVIRONMENT:
        BTC_PRICE_BINANCE_URL        default for --binance-url
        BTC_PRICE_CRYPTOCOMPARE_URL  default for --cryptocompare-url
        CRYPTOCOMPARE_API_KEY        sent to CryptoCompare only; never printed
        XDG_CACHE_HOME               where the cache folder lives
        NO_COLOR                     set (non-empty) to turn colours off

      EXIT STATUS: 0 when the last tick succeeded, 1 when it failed, 130 after \
      Ctrl-C, 0 after SIGTERM, 64 for a usage error.

      LIVE (--live, terminals only): a panel redrawn in place with the price, its \
      change since the last tick and since start (▲ green, ▼ red), when and where \
      it came from, the failure banner while stale, and a sparkline of the last 60 \
      ticks with their low and high. Narrow terminals drop the sparkline first.

      COLOUR: plain lines on a terminal show rises in green, falls in red and the \
      banner highlighted; never in pipes, with NO_COLOR set, or with TERM=dumb.

      EXAMPLES:
        btc-price                             run until Ctrl-C, one line a second
        btc-price --live                      the live panel
        btc-price --once --json               one machine-readable line
        btc-price --json | jq -r .price       the exact price, for scripts
        btc-price --count 10 --interval 0.5   ten ticks, two a second
        btc-price --no-cache --binance-url http://127.0.0.1:8080/api/v3/ticker/price
      """,
    version: BTCPriceVersion.current
  )

  @Option(help: ArgumentHelp("Seconds between ticks; fractions allowed.", valueName: "seconds"))
  var interval: Double = 1

  @Option(
    name: .customLong("primary-timeout"),
    help: ArgumentHelp(
      "Seconds Binance may take before CryptoCompare is asked.", valueName: "seconds"))
  var primaryTimeout: Double = 0.8

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

  @Option(
    name: .customLong("binance-url"),
    help: ArgumentHelp(
      "Binance ticker URL (env BTC_PRICE_BINANCE_URL).", valueName: "url"))
  var binanceURL: String?

  @Option(
    name: .customLong("cryptocompare-url"),
    help: ArgumentHelp(
      "CryptoCompare generateAvg URL (env BTC_PRICE_CRYPTOCOMPARE_URL).", valueName: "url"))
  var cryptoCompareURL: String?

  @Option(
    name: .customLong("cache-path"),
    help: ArgumentHelp(
      "Cache file (default: $XDG_CACHE_HOME/btc-price/last-price.json).", valueName: "file"))
  var cachePath: String?

  @Flag(name: .customLong("no-cache"), help: "Neither read nor write the cache file.")
  var noCache = false

  func validate() throws {
    guard interval.isFinite, interval >= 0.01, interval <= 86_400 else {
      throw ValidationError("--interval must be between 0.01 and 86400 seconds.")
    }
    guard primaryTimeout.isFinite, primaryTimeout > 0, primaryTimeout <= 86_400 else {
      throw ValidationError("--primary-timeout must be a positive number of seconds.")
    }
    if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
    if once, let count, count != 1 {
      throw ValidationError("--once and --count \(count) disagree.")
    }
    if noCache, cachePath != nil {
      throw ValidationError("--no-cache and --cache-path exclude each other.")
    }
    if json, live { throw ValidationError("--json and --live exclude each other.") }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let binance = try Self.url(
      binanceURL ?? environment["BTC_PRICE_BINANCE_URL"], option: "--binance-url")
    let cryptoCompare = try Self.url(
      cryptoCompareURL ?? environment["BTC_PRICE_CRYPTOCOMPARE_URL"], option: "--cryptocompare-url")
    let store: FilePriceStore? =
      noCache
      ? nil
      : FilePriceStore(
        fileURL: cachePath.map { URL(fileURLWithPath: $0) }
          ?? FilePriceStore.defaultFileURL(environment: environment))

    let app = PriceApp(
      interval: .seconds(interval),
      primaryTimeout: .seconds(primaryTimeout),
      count: once ? 1 : count,
      binanceURL: binance ?? BinanceEndpoint.defaultURL,
      cryptoCompareURL: cryptoCompare ?? CryptoCompareEndpoint.defaultURL,
      cryptoCompareAPIKey: environment["CRYPTOCOMPARE_API_KEY"],
      store: store,
      output: TerminalOutput(
        mode: TerminalOutput.mode(json: json, live: live, environment: environment)))
    let outcome = await app.run()
    switch outcome {
    case .lastTickSucceeded: return
    case .lastTickFailed: throw ExitCode(1)
    case .interrupted(let signal): throw ExitCode(signal == SIGINT ? 130 : 0)
    }
  }

  private static func url(_ text: String?, option: String) throws -> URL? {
    guard let text, !text.isEmpty else { return nil }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      throw ValidationError("\(option) needs an http or https URL, got \"\(text.prefix(200))\".")
    }
    return url
  }
}
