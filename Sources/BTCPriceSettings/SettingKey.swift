import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One setting, defined once: its name (the long option's name, and the settings file's key),
/// the environment variable that sets it, how its text becomes a value, where that value lives
/// in ``Settings`` and how it is shown. The command line, the environment and the file all read
/// through it, so all three accept and refuse exactly the same values; layering, "is it set" and
/// the display are derived from the same definition.
struct SettingKey: Sendable {
  /// `interval`, `kraken-url`.
  let name: String
  /// `BTC_PRICE_SOURCES`; nil for a key the environment cannot set.
  let environmentVariable: String?
  /// Never repeated in a message: an API key, a proxy URL (it may carry a password).
  let isSecret: Bool
  /// Whether the file may give it as a YAML list (`sources`, `alert`), read as the items joined
  /// by commas.
  let takesList: Bool
  /// How the root command (`btc-price [options]`) takes it; nil for a key it does not take (an
  /// API key, `serve`'s webhook).
  let option: SettingOption?
  /// Sets this key's value in settings from its text (with the home folder for a leading `~/`),
  /// or says what is wrong with it: ``apply(_:to:home:)``.
  let write: @Sendable (String, inout Settings, String?) throws(Problem) -> Void
  /// Whether settings give this key a value: ``isSet(in:)``.
  let given: @Sendable (Settings) -> Bool
  /// Takes this key's value from the lower layer when settings leave it unset.
  let inherit: @Sendable (inout Settings, Settings) -> Void
  /// `name: value` for a key that is set, for display; secrets as `<redacted>`.
  let shown: @Sendable (Settings) -> String?

  /// Every key, in the order the documentation lists them; the source URLs and API keys are the
  /// registry's.
  static let all: [SettingKey] = {
    let sources = PriceSourceRegistry.all
    return [sourcesKey, currency, interval, primaryTimeout, format]
      + sources.map(url)
      + sources.compactMap(apiKey)
      + [cachePath, proxy, noProxy, caFile, alerts, onAlert, alertWebhook, stream]
      + sources.compactMap(streamURL)
      + [history]
      + sources.compactMap(candlesURL)
  }()

  static func named(_ name: String) -> SettingKey? {
    all.first { $0.name == name }
  }

  /// Sets this key's value in `settings` from its text, or says what is wrong with it.
  func apply(_ text: String, to settings: inout Settings, home: String?) throws(Problem) {
    try write(text, &settings, home)
  }

  /// Whether `settings` gives this key a value.
  func isSet(in settings: Settings) -> Bool {
    given(settings)
  }

  /// The root command's options that set a key, by long name without the dashes: what a reader
  /// of the command line learns from the keys rather than from a list of its own.
  static let rootOptions: [String: SettingOption] = {
    var options: [String: SettingOption] = [:]
    for key in all {
      guard let option = key.option else { continue }
      options[key.name] = option
      if option == .negatableFlag { options["no-" + key.name] = option }
    }
    return options
  }()

  /// What is wrong with a value, without where it came from.
  struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}

// MARK: - The keys

extension SettingKey {
  static let sourcesKey = SettingKey(
    "sources", \.sources, environment: "BTC_PRICE_SOURCES", takesList: true,
    parse: { text, _ throws(Problem) in
      do throws(PriceSourceRegistry.InvalidList) {
        return try PriceSourceRegistry.chain(named: text).map(\.source.id)
      } catch {
        throw Problem(error.description)
      }
    }, show: { $0.joined(separator: ",") })

  static let currency = SettingKey(
    "currency", \.currency, environment: "BTC_PRICE_CURRENCY",
    parse: { text, _ throws(Problem) in
      do throws(Currency.UnknownCurrency) {
        return try Currency.parse(text)
      } catch {
        throw Problem(error.description)
      }
    }, show: \.code)

  static let interval = SettingKey(
    "interval", \.interval,
    parse: { text, _ throws(Problem) in
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        (0.01...86_400).contains(seconds)
      else {
        throw Problem("must be a number of seconds from 0.01 to 86400, got \(quoted(text))")
      }
      return seconds
    }, show: { "\($0)" })

  static let primaryTimeout = SettingKey(
    "primary-timeout", \.primaryTimeout,
    parse: { text, _ throws(Problem) in
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        seconds > 0, seconds <= 86_400
      else {
        throw Problem("must be a positive number of seconds up to 86400, got \(quoted(text))")
      }
      return seconds
    }, show: { "\($0)" })

  static let format = SettingKey(
    "format", \.format,
    parse: { text, _ throws(Problem) in
      do throws(PriceTemplate.ParseError) {
        return try PriceTemplate(text)
      } catch {
        throw Problem(error.description)
      }
    }, show: \.text)

  static let cachePath = SettingKey(
    "cache-path", \.cachePath,
    parse: { text, home throws(Problem) in
      guard !text.isEmpty else { throw Problem("must not be empty") }
      return expandingHome(text, home: home)
    }, show: { $0 })

  // The proxy's own variables (https_proxy, NO_PROXY, ...) and SSL_CERT_FILE are read as curl
  // and OpenSSL read them, under these three settings (ProxySelector, TrustSource).
  static let proxy = SettingKey(
    "proxy", \.proxy, isSecret: true,
    parse: { text, _ throws(Problem) in
      // Empty is a choice: no proxy, whatever the environment says (as curl's --proxy "").
      if !text.trimmingWhitespace.isEmpty {
        do throws(ProxyURLError) {
          _ = try ProxyEndpoint(parsing: text)
        } catch {
          throw Problem(error.reason)
        }
      }
      return Secret(text)
    },
    show: { proxy in
      proxy.value.isEmpty
        ? "" : (try? ProxyEndpoint(parsing: proxy.value).redacted) ?? "\(proxy)"
    })

  static let noProxy = SettingKey(
    "no-proxy", \.noProxy, parse: { text, _ in text }, show: { $0 })

  static let caFile = SettingKey(
    "ca-file", \.caFile,
    parse: { text, home throws(Problem) in
      guard !text.isEmpty else { throw Problem("must not be empty") }
      return expandingHome(text, home: home)
    }, show: { $0 })

  /// `alert`: price alert rules, a list (`--alert`, repeatable). Rules hold no commas, so a list
  /// comes as one comma-separated text from every layer.
  static let alerts = SettingKey(
    "alert", \.alerts, environment: "BTC_PRICE_ALERTS", takesList: true, option: .repeatable,
    parse: { text, _ throws(Problem) in
      var rules: [AlertRule] = []
      for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        do throws(AlertRuleError) {
          rules.append(try AlertRule.parse(String(item)))
        } catch {
          throw Problem(error.description)
        }
      }
      return rules
    }, show: { "[\($0.map(\.description).joined(separator: ", "))]" })

  /// `on-alert`: the command run for each alert.
  static let onAlert = SettingKey(
    "on-alert", \.onAlert, environment: "BTC_PRICE_ON_ALERT",
    parse: { text, _ throws(Problem) in
      guard !text.trimmingWhitespace.isEmpty else { throw Problem("must not be empty") }
      return text
    }, show: { $0 })

  /// `alert-webhook`: where `serve` POSTs each alert.
  static let alertWebhook = SettingKey(
    "alert-webhook", \.alertWebhook, environment: "BTC_PRICE_ALERT_WEBHOOK", option: nil,
    parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)

  /// `stream`: the exchanges' streams first (`--stream`, the default; `--no-stream`).
  static let stream = SettingKey(
    "stream", \.stream, environment: "BTC_PRICE_STREAM", option: .negatableFlag,
    parse: { text, _ throws(Problem) in try bool(text) }, show: { "\($0)" })

  /// `history`: keep the price history for the chart and the changes (`--history`, the default;
  /// `--no-history`).
  static let history = SettingKey(
    "history", \.history, environment: "BTC_PRICE_HISTORY", option: .negatableFlag,
    parse: { text, _ throws(Problem) in try bool(text) }, show: { "\($0)" })

  /// `<source>-url`: where to ask that source instead of its real endpoint.
  static func url(_ definition: PriceSourceDefinition) -> SettingKey {
    SettingKey(
      perSource: definition.urlOptionName, \.urls, definition.source.id,
      environment: definition.urlEnvironmentVariable,
      parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)
  }

  /// `<source>-api-key`, for the sources that take one (`cryptocompare-api-key`).
  static func apiKey(_ definition: PriceSourceDefinition) -> SettingKey? {
    guard let apiKey = definition.apiKey else { return nil }
    return SettingKey(
      perSource: "\(definition.source.id)-api-key", \.apiKeys, definition.source.id,
      environment: apiKey.environmentVariable, isSecret: true, option: nil,
      parse: { text, _ throws(Problem) in
        guard !text.isEmpty else { throw Problem("must not be empty") }
        return Secret(text)
      }, show: { "\($0)" })
  }

  /// `<source>-stream-url`: where to open that exchange's stream instead of its real endpoint.
  static func streamURL(_ definition: PriceSourceDefinition) -> SettingKey? {
    guard definition.stream != nil else { return nil }
    return SettingKey(
      perSource: "\(definition.source.id)-stream-url", \.streamURLs, definition.source.id,
      environment: definition.streamURLEnvironmentVariable,
      parse: { text, _ throws(Problem) in
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
          scheme == "ws" || scheme == "wss", url.host?.isEmpty == false
        else { throw Problem("needs a ws or wss URL, got \(quoted(text))") }
        return url
      }, show: \.absoluteString)
  }

  /// `<source>-candles-url`: where to ask that exchange for its price history instead of its
  /// real endpoint.
  static func candlesURL(_ definition: PriceSourceDefinition) -> SettingKey? {
    guard definition.candles != nil else { return nil }
    return SettingKey(
      perSource: "\(definition.source.id)-candles-url", \.candlesURLs, definition.source.id,
      environment: definition.candlesURLEnvironmentVariable,
      parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)
  }
}

// MARK: - Definitions from a place in Settings

extension SettingKey {
  /// A key whose value is one optional field of ``Settings``.
  init<Value: Sendable>(
    _ name: String, _ field: WritableKeyPath<Settings, Value?> & Sendable,
    environment: String? = nil, isSecret: Bool = false, takesList: Bool = false,
    option: SettingOption? = .value,
    parse: @escaping @Sendable (String, String?) throws(Problem) -> Value,
    show: @escaping @Sendable (Value) -> String
  ) {
    self.init(
      name: name, environmentVariable: environment, isSecret: isSecret, takesList: takesList,
      option: option,
      write: { text, settings, home throws(Problem) in
        settings[keyPath: field] = try parse(text, home)
      },
      given: { $0[keyPath: field] != nil },
      inherit: { settings, lower in
        if settings[keyPath: field] == nil { settings[keyPath: field] = lower[keyPath: field] }
      },
      shown: { settings in settings[keyPath: field].map { "\(name): \(show($0))" } })
  }

  /// A key of one source, whose value is that source's entry in a field keyed by source id.
  init<Value: Sendable>(
    perSource name: String, _ field: WritableKeyPath<Settings, [String: Value]> & Sendable,
    _ sourceID: String, environment: String?, isSecret: Bool = false,
    option: SettingOption? = .value,
    parse: @escaping @Sendable (String, String?) throws(Problem) -> Value,
    show: @escaping @Sendable (Value) -> String
  ) {
    self.init(
      name: name, environmentVariable: environment, isSecret: isSecret, takesList: false,
      option: option,
      write: { text, settings, home throws(Problem) in
        settings[keyPath: field][sourceID] = try parse(text, home)
      },
      given: { $0[keyPath: field][sourceID] != nil },
      inherit: { settings, lower in
        if settings[keyPath: field][sourceID] == nil {
          settings[keyPath: field][sourceID] = lower[keyPath: field][sourceID]
        }
      },
      shown: { settings in settings[keyPath: field][sourceID].map { "\(name): \(show($0))" } })
  }
}

// MARK: - The checks keys share

extension SettingKey {
  /// An http or https URL with a host.
  static func webURL(_ text: String) throws(Problem) -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else { throw Problem("needs an http or https URL, got \(quoted(text))") }
    return url
  }

  /// `true`, `yes`, `on`, `1`, or their opposites.
  static func bool(_ text: String) throws(Problem) -> Bool {
    switch text.trimmingWhitespace.lowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: throw Problem("must be true or false, got \(quoted(text))")
    }
  }

  static func expandingHome(_ text: String, home: String?) -> String {
    guard text.hasPrefix("~/"), let home, !home.isEmpty else { return text }
    return home + text.dropFirst()
  }

  /// `"fast"`: the text shortened to 40 characters, on one line.
  static func quoted(_ text: String) -> String {
    let oneLine = String(
      text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    return "\"" + (oneLine.count > 40 ? String(oneLine.prefix(40)) + "…" : oneLine) + "\""
  }
}

/// How the root command takes a setting.
package enum SettingOption: Sendable {
  /// `--interval 5` or `--interval=5`.
  case value
  /// `--stream` (true) or `--no-stream` (false).
  case negatableFlag
  /// `--alert RULE`, repeatable; the rules join with commas into one value.
  case repeatable
}

extension Settings {
  /// The root command's options that set a setting, by long name without the dashes
  /// (`interval`, `no-stream`, `kraken-url`), and how each is taken.
  package static var rootOptions: [String: SettingOption] { SettingKey.rootOptions }
}
