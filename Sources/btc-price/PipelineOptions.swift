import ArgumentParser
import BTCPriceCore
import BTCPriceNetworking
import BTCPricePersistence
import Foundation

/// The options that shape the price pipeline: which sources, where, how often, and the cache.
struct PipelineOptions: ParsableArguments {
  /// What the options resolve to, with the environment's defaults applied.
  struct Resolved {
    let interval: Duration
    let primaryTimeout: Duration
    let sources: [PriceSourceDefinition]
    /// Endpoint overrides by source id.
    let urls: [String: URL]
    /// API keys by source id, for the sources that take one; never printed or logged.
    let apiKeys: [String: String]
    let store: FilePriceStore?
    /// Where the limits sources set (bans, refusals) are kept across runs.
    let limitStore: FileSourceLimitStore?
    /// What this run asks each source, to tell which kept limits still apply.
    let limitTargets: [String: SourceLimits.Target]
    let verbose: Bool
  }

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
      discussion:
        "Known: \(PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")) (the default order).",
      valueName: "list"))
  var sources: String?

  @OptionGroup var sourceURLs: SourceURLOptions

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
    if noCache, cachePath != nil {
      throw ValidationError("--no-cache and --cache-path exclude each other.")
    }
  }

  func resolved(environment: [String: String]) throws -> Resolved {
    let chain: [PriceSourceDefinition]
    do {
      chain = try PriceSourceRegistry.chain(named: sources ?? environment["BTC_PRICE_SOURCES"])
    } catch {
      throw ValidationError("--sources: \(error)")
    }
    var urls: [String: URL] = [:]
    for definition in PriceSourceRegistry.all {
      let id = definition.source.id
      let text = sourceURLs.given[id] ?? environment[definition.urlEnvironmentVariable]
      urls[id] = try Self.url(text, option: "--\(definition.urlOptionName)")
    }
    let store =
      noCache
      ? nil
      : FilePriceStore(
        fileURL: cachePath.map { URL(fileURLWithPath: $0) }
          ?? FilePriceStore.defaultFileURL(environment: environment),
        knownSources: PriceSourceRegistry.sources)
    var apiKeys: [String: String] = [:]
    for definition in PriceSourceRegistry.all {
      if let variable = definition.apiKey?.environmentVariable, let key = environment[variable],
        !key.isEmpty
      {
        apiKeys[definition.source.id] = key
      }
    }
    var limitTargets: [String: SourceLimits.Target] = [:]
    for definition in chain {
      let id = definition.source.id
      limitTargets[id] = SourceLimits.Target(
        endpoint: Self.endpoint(of: urls[id] ?? definition.defaultURL),
        apiKeyGiven: apiKeys[id] != nil)
    }
    return Resolved(
      interval: .seconds(interval),
      primaryTimeout: .seconds(primaryTimeout),
      sources: chain,
      urls: urls,
      apiKeys: apiKeys,
      store: store,
      limitStore: FileSourceLimitStore(fileURL: Self.limitsFileURL(environment: environment)),
      limitTargets: limitTargets,
      verbose: verbose)
  }

  /// `$XDG_STATE_HOME/btc-price/limits.json` (default `~/.local/state/…`); Application Support
  /// on Apple platforms.
  private static func limitsFileURL(environment: [String: String]) -> URL {
    #if canImport(Darwin)
      if let url = try? FileSourceLimitStore.applicationSupportFileURL() { return url }
    #endif
    return FileSourceLimitStore.defaultFileURL(environment: environment)
  }

  /// `scheme://host[:port]`: what a limit a server set applies to.
  private static func endpoint(of url: URL) -> String {
    let port = url.port.map { ":\($0)" } ?? ""
    return "\(url.scheme?.lowercased() ?? "https")://\(url.host?.lowercased() ?? "")\(port)"
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
