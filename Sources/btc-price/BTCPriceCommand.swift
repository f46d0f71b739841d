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
      SOURCES: asks each source in order until one answers with a valid price: by \
      default binance, cryptocompare, coinbase, kraken, bitstamp (choose with \
      --sources). The first may take --primary-timeout; each next one gets what is \
      left of the tick. A tick that gets no price within its interval has failed: \
      the last known price is shown with its own time, and the next success \
      replaces it.

      FAILURES: a source that fails 3 ticks in a row is left alone for 5 s, then \
      asked once; each failed retry doubles the pause, up to 5 min. HTTP 429 and 418 \
      (rate limit, ban): not asked again before their Retry-After. HTTP 401, 403, \
      451 (no API key, forbidden, restricted location): left alone for 1 h, with one \
      warning on stderr saying what to do. --verbose logs every attempt.

      OUTPUT: one line per tick on stdout, flushed at once; warnings go to stderr.
        <time> - <price>            e.g.  Nov 22, 14:03:05 - $68,901.23
        Failed to update value. Displaying last updated value from <time> - <price>
      <time> is local (MMM d, HH:mm:ss); <price> is like $68,901.23 in every \
      locale. With no value known yet, both are "-".

      JSON (--json): one object per line, keys in this order: timestamp (ISO 8601, \
      UTC), price (the exact decimal, as a string), currency, source (the source \
      that delivered the price), stale (true when the tick failed) and, when stale, \
      error (the reason). A stale line carries the last known value, or nulls.

      CACHE: $XDG_CACHE_HOME/btc-price/last-price.json (default \
      ~/.cache/btc-price/last-price.json) keeps the last good price across runs.

      ENVIRONMENT:
        BTC_PRICE_SOURCES            default for --sources
        BTC_PRICE_<NAME>_URL         default for --<name>-url
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
        btc-price --sources coinbase,kraken   only these two, in this order
        btc-price --verbose 2>btc-price.log   log every attempt to a file
        btc-price --binance-url https://api.binance.us/api/v3/ticker/price?symbol=BTCUSDT
      """,
    version: BTCPriceVersion.current,
    subcommands: [ServeCommand.self]
  )

  @Option(help: ArgumentHelp("Seconds between ticks; fractions allowed.", valueName: "seconds"))
  var interval: Double = 1

  @Option(
    name: .customLong("primary-timeout"),
    help: ArgumentHelp(
      "Seconds the first source may take before the next is asked.", valueName: "seconds"))
  var primaryTimeout: Double = 0.8

  @Option(
    help: ArgumentHelp(
      "Sources to ask, in order, comma-separated (env BTC_PRICE_SOURCES).",
      discussion: "Known: binance, cryptocompare, coinbase, kraken, bitstamp (the default order).",
      valueName: "list"))
  var sources: String?

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
    help: ArgumentHelp("Binance ticker URL (env BTC_PRICE_BINANCE_URL).", valueName: "url"))
  var binanceURL: String?

  @Option(
    name: .customLong("cryptocompare-url"),
    help: ArgumentHelp(
      "CryptoCompare generateAvg URL (env BTC_PRICE_CRYPTOCOMPARE_URL).", valueName: "url"))
  var cryptoCompareURL: String?

  @Option(
    name: .customLong("coinbase-url"),
    help: ArgumentHelp("Coinbase spot price URL (env BTC_PRICE_COINBASE_URL).", valueName: "url"))
  var coinbaseURL: String?

  @Option(
    name: .customLong("kraken-url"),
    help: ArgumentHelp("Kraken ticker URL (env BTC_PRICE_KRAKEN_URL).", valueName: "url"))
  var krakenURL: String?

  @Option(
    name: .customLong("bitstamp-url"),
    help: ArgumentHelp("Bitstamp ticker URL (env BTC_PRICE_BITSTAMP_URL).", valueName: "url"))
  var bitstampURL: String?

  @Option(
    name: .customLong("cache-path"),
    help: ArgumentHelp(
      "Cache file (default: $XDG_CACHE_HOME/btc-price/last-price.json).", valueName: "file"))
  var cachePath: String?

  @Flag(name: .customLong("no-cache"), help: "Neither read nor write the cache file.")
  var noCache = false

  @Flag(
    name: [.customShort("v"), .long],
    help: ArgumentHelp(
      "Log every source attempt, its latency and outcome, and circuit changes to stderr."))
  var verbose = false

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
    let pipeline = try resolvePipeline(environment: environment)
    let app = PriceApp(
      interval: .seconds(interval),
      primaryTimeout: .seconds(primaryTimeout),
      count: once ? 1 : count,
      sources: pipeline.sources,
      urls: pipeline.urls,
      cryptoCompareAPIKey: pipeline.apiKey,
      store: pipeline.store,
      output: TerminalOutput(
        mode: TerminalOutput.mode(json: json, live: live, environment: environment)),
      verbose: verbose)
    let outcome = await app.run()
    switch outcome {
    case .lastTickSucceeded: return
    case .lastTickFailed: throw ExitCode(1)
    case .interrupted(let signal): throw ExitCode(signal == SIGINT ? 130 : 0)
    }
  }

  /// The chain named by `--sources`, or the default one.
  static func entries(_ list: String?) throws -> [PriceSourceCatalog.Entry] {
    guard let list else { return PriceSourceCatalog.all }
    let known = PriceSourceCatalog.all.map(\.source.id).joined(separator: ", ")
    var entries: [PriceSourceCatalog.Entry] = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false) {
      let id = name.trimmingCharacters(in: .whitespaces)
      guard let entry = PriceSourceCatalog.entry(id: id) else {
        throw ValidationError(
          "--sources: unknown source \"\(id.prefix(40))\"; known sources: \(known).")
      }
      guard !entries.contains(where: { $0.source == entry.source }) else {
        throw ValidationError("--sources: \(entry.source.id) is listed twice.")
      }
      entries.append(entry)
    }
    return entries
  }

  static func url(_ text: String?, option: String) throws -> URL? {
    guard let text, !text.isEmpty else { return nil }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      throw ValidationError("\(option) needs an http or https URL, got \"\(text.prefix(200))\".")
    }
    return url
  }
}
