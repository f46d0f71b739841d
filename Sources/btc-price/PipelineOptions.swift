import ArgumentParser
import BTCPriceCommandLine
import BTCPriceCore
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The options that shape the price pipeline: which sources, where, in which currency, how often,
/// and the cache. Each can also come from the environment or the settings file; the command line
/// wins, then the environment, then the file, then the defaults. All three layers go through the
/// same checks (`BTCPriceSettings`), so a value is refused the same way wherever it came from.
struct PipelineOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Seconds between ticks; fractions allowed (default \(PriceDefaults.interval.secondsText)).",
      valueName: "seconds"))
  var interval: String?

  @Option(
    name: .customLong("primary-timeout"),
    help: ArgumentHelp(
      "Seconds the first source may take before the next is asked (default "
        + "\(PriceDefaults.primaryTimeout.secondsText)).",
      valueName: "seconds"))
  var primaryTimeout: String?

  @Option(
    help: ArgumentHelp(
      "Sources to ask, in order, comma-separated (env BTC_PRICE_SOURCES).",
      discussion:
        "Known: \(PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")) (the default order).",
      valueName: "list"))
  var sources: String?

  @Option(
    help: ArgumentHelp(
      "The currency to show the price in (env BTC_PRICE_CURRENCY; default USD).",
      discussion: "One of \(Currency.supported.map(\.code).joined(separator: ", ")).",
      valueName: "code"))
  var currency: String?

  @OptionGroup var sourceURLs: SourceURLOptions

  // Optional, so that neither flag given lets the environment and the settings file decide.
  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Take the price from the exchanges' live trade streams, REST as the fall back (default); "
        + "--no-stream asks REST every tick; --once always does (env BTC_PRICE_STREAM)."))
  var stream: Bool?

  @OptionGroup var streamURLs: StreamURLOptions

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Keep the day's price history for the 24-hour change and the chart, from the exchanges' "
        + "candles a few times an hour (default); --no-history asks for none (env "
        + "BTC_PRICE_HISTORY)."))
  var history: Bool?

  @OptionGroup var candlesURLs: CandlesURLOptions

  @Option(
    name: .customLong("cache-path"),
    help: ArgumentHelp(
      "Cache file (default: $XDG_CACHE_HOME/btc-price/last-price.json).", valueName: "file"))
  var cachePath: String?

  @Option(
    help: ArgumentHelp(
      "Proxy for every source and stream: http://, socks5h:// or socks5://[user:password@]host:port; \"\" for none (over $https_proxy, $all_proxy).",
      valueName: "url"))
  var proxy: String?

  @Option(
    name: .customLong("no-proxy"),
    help: ArgumentHelp(
      "Hosts to reach directly, comma-separated, as $NO_PROXY (domains, IPs, CIDR, *).",
      valueName: "list"))
  var noProxy: String?

  @Option(
    name: .customLong("ca-file"),
    help: ArgumentHelp(
      "PEM file of certificate authorities to trust, e.g. a company proxy's (over $SSL_CERT_FILE).",
      valueName: "file"))
  var caFile: String?

  @Flag(name: .customLong("no-cache"), help: "Neither read nor write the cache file.")
  var noCache = false

  @Option(
    help: ArgumentHelp(
      "Settings file (default: $XDG_CONFIG_HOME/btc-price/config).", valueName: "file"))
  var config: String?

  @Option(
    name: .customLong("alert"),
    help: ArgumentHelp(
      "Alert when a rule fires: above:PRICE, below:PRICE or move:PERCENT%/WINDOW; repeatable "
        + "(env BTC_PRICE_ALERTS).",
      discussion: "E.g. --alert above:100000 --alert move:2%/15m.",
      valueName: "rule"))
  var alerts: [String] = []

  @Option(
    name: .customLong("on-alert"),
    help: ArgumentHelp(
      "Run this command (by /bin/sh -c) for each alert, with the alert in BTC_PRICE_ALERT_* "
        + "variables (env BTC_PRICE_ON_ALERT).",
      valueName: "command"))
  var onAlert: String?

  @Flag(
    help: "Show a desktop notification for each alert (notify-send on Linux, osascript on macOS).")
  var notify = false

  @Flag(
    name: [.customShort("v"), .long],
    help: ArgumentHelp(
      "Log every source attempt, its latency and outcome, and circuit changes to stderr."))
  var verbose = false

  func validate() throws {
    if let problem = RootArguments.pipelineProblem(noCache: noCache, cachePath: cachePath) {
      throw ValidationError(problem)
    }
  }

  /// The settings these options give, by settings key: the command line's layer.
  var settings: [String: String] {
    var given = sourceURLs.given.mapKeys { "\($0)-url" }
    given.merge(streamURLs.given.mapKeys { "\($0)-stream-url" }) { first, _ in first }
    given.merge(candlesURLs.given.mapKeys { "\($0)-candles-url" }) { first, _ in first }
    given["stream"] = stream.map { $0 ? "true" : "false" }
    given["history"] = history.map { $0 ? "true" : "false" }
    given["interval"] = interval
    given["primary-timeout"] = primaryTimeout
    given["sources"] = sources
    given["currency"] = currency
    given["cache-path"] = cachePath
    given["proxy"] = proxy
    given["no-proxy"] = noProxy
    given["ca-file"] = caFile
    given["alert"] = alerts.isEmpty ? nil : alerts.joined(separator: ",")
    given["on-alert"] = onAlert
    return given
  }

  /// Every layer merged: these options (and `--format`, which the command owns), the
  /// environment, the settings file.
  ///
  /// - Throws: `ValidationError` naming where a bad value came from (an option, a variable, or
  ///   the file and its line), for exit status 64.
  func resolved(environment: [String: String], format: String?, alertWebhook: String? = nil)
    throws -> ResolvedOptions
  {
    try Self.resolve(
      settings: settings, format: format, alertWebhook: alertWebhook, config: config,
      noCache: noCache, notify: notify, verbose: verbose, environment: environment)
  }

  /// Every layer merged, from the command line's settings however they were read (by
  /// ArgumentParser, or by ``RootArguments/read(_:)``).
  static func resolve(
    settings: [String: String], format: String?, alertWebhook: String? = nil, config: String?,
    noCache: Bool, notify: Bool, verbose: Bool, environment: [String: String]
  ) throws -> ResolvedOptions {
    var given = settings
    given["format"] = format
    given["alert-webhook"] = alertWebhook
    do {
      return try ResolvedOptions.resolve(
        commandLine: given, environment: environment, configPath: config, noCache: noCache,
        notify: notify, verbose: verbose)
    } catch {
      throw ValidationError(error.description)
    }
  }
}

extension Dictionary {
  fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
    [NewKey: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
  }
}
