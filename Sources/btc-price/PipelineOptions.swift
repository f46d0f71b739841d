import ArgumentParser
import BTCPriceCore
import BTCPriceNetworking
import BTCPricePersistence
import BTCPriceSettings
import BTCPriceTerminal

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
  /// What the options resolve to, every layer and default applied.
  struct Resolved {
    let interval: Duration
    let primaryTimeout: Duration
    let currency: Currency
    /// The chain, in order: the sources that serve the currency.
    let sources: [PriceSourceDefinition]
    /// Sources left out of the default chain because they have no market in the currency.
    let leftOut: [PriceSourceDefinition]
    /// Endpoint overrides by source id, as given (the chain sets their pair for the currency).
    let urls: [String: URL]
    /// API keys by source id, for the sources that take one; never printed or logged.
    let apiKeys: [String: String]
    let format: PriceTemplate?
    let store: FilePriceStore?
    /// Where the limits sources set (bans, refusals) are kept across runs.
    let limitStore: FileSourceLimitStore?
    /// What this run asks each source, to tell which kept limits still apply.
    let limitTargets: [String: SourceLimits.Target]
    let verbose: Bool
    /// `--alert`: the rules, every layer applied.
    let alerts: [AlertRule]
    /// Where the rules' state is kept across runs (next to the limits).
    let alertStore: FileAlertStateStore?
    /// `--on-alert`: the command run for each alert.
    let onAlert: String?
    /// `--notify`: a desktop notification for each alert.
    let notify: Bool
    /// `serve --alert-webhook`, every layer applied.
    let alertWebhook: URL?
  }

  @Option(
    help: ArgumentHelp(
      "Seconds between ticks; fractions allowed (default 1).", valueName: "seconds"))
  var interval: String?

  @Option(
    name: .customLong("primary-timeout"),
    help: ArgumentHelp(
      "Seconds the first source may take before the next is asked (default 0.8).",
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

  @Option(
    name: .customLong("cache-path"),
    help: ArgumentHelp(
      "Cache file (default: $XDG_CACHE_HOME/btc-price/last-price.json).", valueName: "file"))
  var cachePath: String?

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
    if noCache, cachePath != nil {
      throw ValidationError("--no-cache and --cache-path exclude each other.")
    }
  }

  /// Every layer merged: these options (and `--format`, which the command owns), the
  /// environment, the settings file.
  ///
  /// - Throws: `ValidationError` naming where a bad value came from (an option, a variable, or
  ///   the file and its line), for exit status 64.
  func resolved(environment: [String: String], format: String?, alertWebhook: String? = nil)
    throws -> Resolved
  {
    let home = environment["HOME"]
    let settings: Settings
    do {
      var given = sourceURLs.given.mapKeys { "\($0)-url" }
      given["interval"] = interval
      given["primary-timeout"] = primaryTimeout
      given["sources"] = sources
      given["currency"] = currency
      given["format"] = format
      given["cache-path"] = cachePath
      given["alert"] = alerts.isEmpty ? nil : alerts.joined(separator: ",")
      given["on-alert"] = onAlert
      given["alert-webhook"] = alertWebhook
      let commandLine = try Settings.fromCommandLine(given, home: home)
      let fromEnvironment = try Settings.fromEnvironment(environment)
      let path = config ?? SettingsFile.defaultPath(environment: environment)
      let file = try path.map { try SettingsFile(path: $0).load(home: home) } ?? Settings()
      settings = Settings.layered(
        commandLine: commandLine, environment: fromEnvironment, file: file)
    } catch {
      throw ValidationError("\(error)")
    }

    if onAlert != nil || notify, settings.alerts?.isEmpty ?? true {
      throw ValidationError("--on-alert and --notify need a rule: --alert above:PRICE, …")
    }
    let currency = settings.currency ?? .usd
    let (chain, leftOut) = try Self.chain(settings.sources, currency: currency)
    for definition in chain {
      do {
        _ = try definition.url(for: currency, base: settings.urls[definition.source.id])
      } catch {
        throw ValidationError("\(error).")
      }
    }
    let apiKeys = settings.apiKeys.mapValues(\.value)
    let store =
      noCache
      ? nil
      : FilePriceStore(
        fileURL: settings.cachePath.map { URL(fileURLWithPath: $0) }
          ?? FilePriceStore.defaultFileURL(environment: environment, currency: currency),
        knownSources: PriceSourceRegistry.sources, currency: currency)
    var limitTargets: [String: SourceLimits.Target] = [:]
    for definition in chain {
      let id = definition.source.id
      limitTargets[id] = SourceLimits.Target(
        settings.urls[id] ?? definition.defaultURL, apiKeyGiven: apiKeys[id] != nil)
    }
    return Resolved(
      interval: .seconds(settings.interval ?? 1),
      primaryTimeout: .seconds(settings.primaryTimeout ?? 0.8),
      currency: currency,
      sources: chain,
      leftOut: leftOut,
      urls: settings.urls,
      apiKeys: apiKeys,
      format: settings.format,
      store: store,
      limitStore: FileSourceLimitStore(fileURL: Self.limitsFileURL(environment: environment)),
      limitTargets: limitTargets,
      verbose: verbose,
      alerts: settings.alerts ?? [],
      alertStore: FileAlertStateStore(
        fileURL: Self.limitsFileURL(environment: environment).deletingLastPathComponent()
          .appendingPathComponent("alerts.json")),
      onAlert: settings.onAlert,
      notify: notify,
      alertWebhook: settings.alertWebhook)
  }

  /// The chain for `currency`: by default every source that serves it; a list someone gave must
  /// name only such sources, since asking one that does not would fail on every tick.
  private static func chain(_ ids: [String]?, currency: Currency) throws
    -> (chain: [PriceSourceDefinition], leftOut: [PriceSourceDefinition])
  {
    let serving = PriceSourceRegistry.serving(currency)
    guard let ids else {
      return (serving, PriceSourceRegistry.all.filter { $0.markets[currency] == nil })
    }
    let chain = ids.compactMap(PriceSourceRegistry.definition(id:))
    if let lacking = chain.first(where: { $0.markets[currency] == nil }) {
      throw ValidationError(
        "\(lacking.source.id) has no BTC/\(currency.code) market; sources for "
          + "\(currency.code): \(serving.map(\.source.id).joined(separator: ", ")).")
    }
    return (chain, [])
  }

  /// `$XDG_STATE_HOME/btc-price/limits.json` (default `~/.local/state/…`); Application Support
  /// on Apple platforms.
  private static func limitsFileURL(environment: [String: String]) -> URL {
    #if canImport(Darwin)
      if let url = try? FileSourceLimitStore.applicationSupportFileURL() { return url }
    #endif
    return FileSourceLimitStore.defaultFileURL(environment: environment)
  }
}

extension Dictionary {
  fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
    [NewKey: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
  }
}
