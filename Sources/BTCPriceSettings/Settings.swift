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
/// `alert-webhook`, `stream`, `<source>-stream-url`, `history`, `<source>-candles-url`,
/// `holdings`, `cost-basis`.
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
  public var urls: [String: URL] = [:]
  /// API keys by source id, for the sources that take one (`cryptocompare-api-key`).
  public var apiKeys: [String: Secret] = [:]
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
  public var streamURLs: [String: URL] = [:]
  /// `--history`/`--no-history`: keep the price history; nil for the default
  /// (``effectiveHistory``).
  public var history: Bool?
  /// `--<source>-candles-url` by source id.
  public var candlesURLs: [String: URL] = [:]
  /// `--holdings`: bitcoin the user holds, exact; private to this machine.
  public var holdings: Decimal?
  /// `--cost-basis`: what the holdings cost in all, in the currency they were bought in.
  public var costBasis: Holdings.CostBasis?

  /// No value set: each comes from a key's text (``SettingKey``), in any layer.
  public init() {}

  /// The layers merged, each value taken from the first layer that sets it: command line, then
  /// environment, then file. What none sets stays nil, for the command's defaults.
  public static func layered(commandLine: Settings, environment: Settings, file: Settings)
    -> Settings
  {
    commandLine.over(environment).over(file)
  }

  /// `self` with every value it leaves unset taken from `lower`, key by key.
  public func over(_ lower: Settings) -> Settings {
    var merged = self
    for key in SettingKey.all {
      key.inherit(&merged, lower)
    }
    return merged
  }

  /// The values that are set, one `key: value` per line in the keys' order; the API key only
  /// as `<redacted>`, a proxy's password left out.
  public var description: String {
    SettingKey.all.compactMap { $0.shown(self) }.joined(separator: "\n")
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
