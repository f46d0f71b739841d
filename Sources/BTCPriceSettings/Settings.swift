import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The choices a run can take from the command line, the environment or the settings file, each
/// nil where that layer does not set it.
///
/// The settings file's keys mirror the long options: `sources`, `currency`, `interval`,
/// `primary-timeout`, `format`, `<source>-url`, `<source>-api-key` (`cryptocompare-api-key`),
/// `cache-path`, `proxy`, `no-proxy`, `ca-file`, `alert` (a list of rules), `on-alert`,
/// `alert-webhook`, `stream`, `<source>-stream-url`, `history`, `<source>-candles-url`.
public struct Settings: Equatable, Sendable, CustomStringConvertible {
  /// Source ids in the order to ask them (`--sources`).
  public var sources: [String]?
  public var currency: Currency?
  /// Seconds between ticks (`--interval`).
  public var interval: Double?
  /// Seconds the first source may take (`--primary-timeout`).
  public var primaryTimeout: Double?
  /// The compiled `--format` template.
  public var format: PriceTemplate?
  /// `--<source>-url` by source id.
  public var urls: [String: URL]
  /// API keys by source id, for the sources that take one (`cryptocompare-api-key`).
  public var apiKeys: [String: Secret]
  /// `--cache-path`, with a leading `~/` already expanded.
  public var cachePath: String?
  /// `--proxy`: a proxy URL (it may carry a password), or empty for "no proxy".
  public var proxy: Secret?
  /// `--no-proxy`: hosts reached directly, as `NO_PROXY`.
  public var noProxy: String?
  /// `--ca-file`: certificate authorities to trust instead of the system's.
  public var caFile: String?
  /// `--alert`, every rule; a layer that gives any replaces the lower layers' list.
  public var alerts: [AlertRule]?
  /// `--on-alert`: the command run for each alert, by `/bin/sh -c`.
  public var onAlert: String?
  /// `serve --alert-webhook`: where each alert is POSTed.
  public var alertWebhook: URL?
  /// `--stream`/`--no-stream`: the exchanges' streams first, REST as the fall back; nil for the
  /// default (``effectiveStream``).
  public var stream: Bool?
  /// `--<source>-stream-url` by source id.
  public var streamURLs: [String: URL]
  /// `--history`/`--no-history`: keep the price history; nil for the default
  /// (``effectiveHistory``).
  public var history: Bool?
  /// `--<source>-candles-url` by source id.
  public var candlesURLs: [String: URL]

  public init(
    sources: [String]? = nil, currency: Currency? = nil, interval: Double? = nil,
    primaryTimeout: Double? = nil, format: PriceTemplate? = nil, urls: [String: URL] = [:],
    apiKeys: [String: Secret] = [:], cachePath: String? = nil, proxy: Secret? = nil,
    noProxy: String? = nil, caFile: String? = nil, alerts: [AlertRule]? = nil,
    onAlert: String? = nil, alertWebhook: URL? = nil, stream: Bool? = nil,
    streamURLs: [String: URL] = [:], history: Bool? = nil, candlesURLs: [String: URL] = [:]
  ) {
    self.proxy = proxy
    self.noProxy = noProxy
    self.caFile = caFile
    self.sources = sources
    self.currency = currency
    self.interval = interval
    self.primaryTimeout = primaryTimeout
    self.format = format
    self.urls = urls
    self.apiKeys = apiKeys
    self.cachePath = cachePath
    self.alerts = alerts
    self.onAlert = onAlert
    self.alertWebhook = alertWebhook
    self.stream = stream
    self.streamURLs = streamURLs
    self.history = history
    self.candlesURLs = candlesURLs
  }

  /// The layers merged, each value taken from the first layer that sets it: command line, then
  /// environment, then file. What none sets stays nil, for the command's defaults.
  public static func layered(commandLine: Settings, environment: Settings, file: Settings)
    -> Settings
  {
    commandLine.over(environment).over(file)
  }

  /// `self` with every value it leaves unset taken from `lower`.
  public func over(_ lower: Settings) -> Settings {
    Settings(
      sources: sources ?? lower.sources,
      currency: currency ?? lower.currency,
      interval: interval ?? lower.interval,
      primaryTimeout: primaryTimeout ?? lower.primaryTimeout,
      format: format ?? lower.format,
      urls: urls.merging(lower.urls) { mine, _ in mine },
      apiKeys: apiKeys.merging(lower.apiKeys) { mine, _ in mine },
      cachePath: cachePath ?? lower.cachePath,
      proxy: proxy ?? lower.proxy,
      noProxy: noProxy ?? lower.noProxy,
      caFile: caFile ?? lower.caFile,
      alerts: alerts ?? lower.alerts,
      onAlert: onAlert ?? lower.onAlert,
      alertWebhook: alertWebhook ?? lower.alertWebhook,
      stream: stream ?? lower.stream,
      streamURLs: streamURLs.merging(lower.streamURLs) { mine, _ in mine },
      history: history ?? lower.history,
      candlesURLs: candlesURLs.merging(lower.candlesURLs) { mine, _ in mine })
  }

  /// The values that are set, one `key: value` per line in file order; the API key only as
  /// `<redacted>`.
  public var description: String {
    var lines: [String] = []
    if let sources { lines.append("sources: \(sources.joined(separator: ","))") }
    if let currency { lines.append("currency: \(currency.code)") }
    if let interval { lines.append("interval: \(interval)") }
    if let primaryTimeout { lines.append("primary-timeout: \(primaryTimeout)") }
    if let format { lines.append("format: \(format.text)") }
    for (id, url) in urls.sorted(by: { $0.key < $1.key }) {
      lines.append("\(id)-url: \(url.absoluteString)")
    }
    for (id, key) in apiKeys.sorted(by: { $0.key < $1.key }) {
      lines.append("\(id)-api-key: \(key)")
    }
    if let cachePath { lines.append("cache-path: \(cachePath)") }
    if let proxy {
      let shown = (try? ProxyEndpoint(parsing: proxy.value).redacted) ?? "\(proxy)"
      lines.append("proxy: \(proxy.value.isEmpty ? "" : shown)")
    }
    if let noProxy { lines.append("no-proxy: \(noProxy)") }
    if let caFile { lines.append("ca-file: \(caFile)") }
    if let alerts { lines.append("alert: [\(alerts.map(\.description).joined(separator: ", "))]") }
    if let onAlert { lines.append("on-alert: \(onAlert)") }
    if let alertWebhook { lines.append("alert-webhook: \(alertWebhook.absoluteString)") }
    if let stream { lines.append("stream: \(stream)") }
    for (id, url) in streamURLs.sorted(by: { $0.key < $1.key }) {
      lines.append("\(id)-stream-url: \(url.absoluteString)")
    }
    if let history { lines.append("history: \(history)") }
    for (id, url) in candlesURLs.sorted(by: { $0.key < $1.key }) {
      lines.append("\(id)-candles-url: \(url.absoluteString)")
    }
    return lines.joined(separator: "\n")
  }
}

extension Settings {
  /// Command line, then environment, then file, then default: the first layer that gives a value
  /// wins. For one value; ``layered(commandLine:environment:file:)`` merges whole layers.
  public static func resolve<Value>(
    commandLine: Value?, environment: Value?, file: Value?, default defaultValue: Value
  ) -> Value {
    commandLine ?? environment ?? file ?? defaultValue
  }
}
