import BTCPriceCore
import BTCPriceFeature
import BTCPricePersistence
import BTCPricePipeline
import BTCPriceSettings
import BTCPriceSources
import BTCPriceTerminal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a run's options resolve to, every layer (command line, environment, settings file) and
/// default applied: the pipeline's configuration, the output's template, the files, the proxies
/// and trust, the alerts, and where each setting came from.
public struct ResolvedOptions: Sendable {
  /// A value that cannot be used, said with where it came from; exit status 64.
  public struct Invalid: Error, CustomStringConvertible {
    public let description: String
  }

  public let interval: Duration
  /// The currency, the chain (the sources that serve it), their URLs and keys, the deadline.
  public let configuration: PricePipeline.Configuration
  /// Sources left out of the default chain because they have no market in the currency.
  public let leftOut: [PriceSourceDefinition]
  public let format: PriceTemplate?
  public let store: FilePriceStore?
  /// Where the price history is kept: beside the price cache; nil with `--no-cache`.
  public let candleStore: FileCandleStore?
  /// Where the limits sources set (bans, refusals) are kept across runs.
  public let limitStore: FileSourceLimitStore?
  public let verbose: Bool
  /// Which proxy each source goes through.
  public let proxies: ProxySelector
  /// The certificate authorities TLS trusts.
  public let trust: TrustSource
  /// `--alert`: the rules, every layer applied.
  public let alerts: [AlertRule]
  /// Where the rules' state is kept across runs (next to the limits).
  public let alertStore: FileAlertStateStore?
  /// `--on-alert`: the command run for each alert.
  public let onAlert: String?
  /// `--notify`: a desktop notification for each alert.
  public let notify: Bool
  /// `serve --alert-webhook`, every layer applied.
  public let alertWebhook: URL?
  /// The layers, for where each value came from (`doctor`).
  public let layers: SettingsLayers
  /// `--holdings` and `--cost-basis`: for the terminal's views only; `serve` and `publish` never
  /// carry them.
  public let holdings: Holdings?

  /// `--stream`/`--no-stream`, every layer applied: the exchanges' streams first, REST as the
  /// fall back (the default, ``PriceDefaults/stream``).
  public var stream: Bool { configuration.stream }

  /// Every layer merged and checked.
  ///
  /// - Parameters:
  ///   - commandLine: the options given, by name without the dashes (`interval`, `kraken-url`,
  ///     `stream` as `true` or `false`): the settings file's keys.
  ///   - configPath: `--config`; nil for the default settings file.
  ///   - noCache: `--no-cache`: neither read nor write the cache.
  ///   - notify: `--notify`.
  /// - Throws: ``Invalid`` naming where a bad value came from (an option, a variable, or the file
  ///   and its line).
  public static func resolve(
    commandLine: [String: String], environment: [String: String], configPath: String?,
    noCache: Bool = false, notify: Bool = false, verbose: Bool = false
  ) throws(Invalid) -> ResolvedOptions {
    let layers: SettingsLayers
    do {
      layers = try Settings.loadLayers(
        commandLine: commandLine, environment: environment, configPath: configPath)
    } catch {
      throw Invalid(description: "\(error)")
    }
    let settings = layers.merged
    if commandLine["on-alert"] != nil || notify, settings.alerts?.isEmpty ?? true {
      throw Invalid(description: "--on-alert and --notify need a rule: --alert above:PRICE, …")
    }
    if settings.costBasis != nil, settings.holdings == nil {
      throw Invalid(description: "--cost-basis needs --holdings: the amount it was paid for")
    }
    if settings.format?.showsHoldings == true, settings.holdings == nil {
      throw Invalid(
        description: "--format shows the holdings ({value}, {value_change_24h}, {pnl} or "
          + "{pnl_pct}), which need --holdings")
    }
    let currency = settings.effectiveCurrency
    let chain: [PriceSourceDefinition]
    let leftOut: [PriceSourceDefinition]
    do {
      (chain, leftOut) = try PriceSourceRegistry.chain(ids: settings.sources, for: currency)
    } catch {
      throw Invalid(description: "\(error)")
    }
    let configuration = PricePipeline.Configuration(
      currency: currency, sources: chain, urls: settings.urls,
      apiKeys: settings.apiKeys.mapValues(\.value),
      primaryTimeout: settings.effectivePrimaryTimeout, stream: settings.effectiveStream,
      streamURLs: settings.streamURLs, interval: settings.effectiveInterval,
      history: settings.effectiveHistory, candlesURLs: settings.candlesURLs)
    let markets = configuration.marketURLs
    for definition in chain {
      if case .failure(let error) = markets[definition.source.id] {
        throw Invalid(description: "\(error).")
      }
    }
    let limitsFileURL = limitsFileURL(environment: environment)
    let store =
      noCache
      ? nil
      : FilePriceStore(
        fileURL: settings.cachePath.map { URL(fileURLWithPath: $0) }
          ?? FilePriceStore.defaultFileURL(environment: environment, currency: currency),
        knownSources: PriceSourceRegistry.sources, currency: currency)
    return ResolvedOptions(
      interval: settings.effectiveInterval,
      configuration: configuration,
      leftOut: leftOut,
      format: settings.format,
      store: store,
      candleStore: store.map {
        FileCandleStore(
          besidePriceFile: $0.fileURL, knownSources: PriceSourceRegistry.sources,
          currency: currency)
      },
      limitStore: FileSourceLimitStore(fileURL: limitsFileURL),
      verbose: verbose,
      proxies: ProxySelector(
        explicit: settings.proxy?.value, noProxy: settings.noProxy, environment: environment),
      trust: TrustSource.choose(caFile: settings.caFile, environment: environment),
      alerts: settings.alerts ?? [],
      alertStore: FileAlertStateStore(
        fileURL: limitsFileURL.deletingLastPathComponent().appendingPathComponent("alerts.json")),
      onAlert: settings.onAlert,
      notify: notify,
      alertWebhook: settings.alertWebhook,
      layers: layers,
      holdings: settings.holdings.map { Holdings(amount: $0, costBasis: settings.costBasis) })
  }

  /// Where the trust's file or folder came from: the `ca-file` setting's own layer, or the
  /// variable OpenSSL reads.
  public var trustOrigin: SettingOrigin {
    switch trust {
    case .system: .default
    case .file(_, let origin), .directory(_, let origin):
      switch origin {
      case .caFileSetting: layers.origin(of: "ca-file")
      case .environment(let variable): .environment(variable: variable)
      }
    }
  }

  /// `$XDG_STATE_HOME/btc-price/limits.json` when set, on every system; without it, Application
  /// Support on Apple platforms and `~/.local/state/…` elsewhere.
  private static func limitsFileURL(environment: [String: String]) -> URL {
    #if canImport(Darwin)
      let platformDefault = try? FileSourceLimitStore.applicationSupportFileURL()
    #else
      let platformDefault: URL? = nil
    #endif
    return FileSourceLimitStore.defaultFileURL(
      environment: environment, platformDefault: platformDefault)
  }
}
