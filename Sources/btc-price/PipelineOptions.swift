import ArgumentParser
import BTCPriceCore
import BTCPriceNetworking
import BTCPricePersistence

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    return Resolved(
      interval: .seconds(interval),
      primaryTimeout: .seconds(primaryTimeout),
      sources: chain,
      urls: urls,
      apiKeys: apiKeys,
      store: store,
      verbose: verbose)
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
