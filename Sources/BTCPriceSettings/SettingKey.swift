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
  /// Whether the file may give it as a YAML list (`sources`, `alert`), read as the items joined
  /// by commas.
  let takesList: Bool
  /// How the root command (`btc-price [options]`) takes it, and its `--help`; nil for a key it
  /// does not take (an API key, `serve`'s webhook).
  let option: SettingOption?
  /// Sets this key's value in settings from its text (with the home folder for a leading `~/`),
  /// or says what is wrong with it: ``apply(_:to:home:)``.
  let write: @Sendable (String, inout Settings, String?) throws(Problem) -> Void
  /// Whether settings give this key a value: ``isSet(in:)``.
  let given: @Sendable (Settings) -> Bool
  /// Takes this key's value from the lower layer when settings leave it unset.
  let inherit: @Sendable (inout Settings, Settings) -> Void
  /// `name: value` for a key that is set, for display; its `show` redacts a secret (an API key,
  /// a proxy's password, the holdings).
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
      + [holdings, costBasis]
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

  /// What is wrong with a value, without where it came from.
  struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}

// MARK: - The keys

extension SettingKey {
  static let sourcesKey = SettingKey(
    "sources", { $0.sources }, { $0.sources = $1 }, environment: "BTC_PRICE_SOURCES",
    takesList: true,
    option: .value(
      "Sources to ask, in order, comma-separated (env BTC_PRICE_SOURCES).",
      discussion:
        "Known: \(PriceSourceRegistry.all.map(\.source.id).joined(separator: ", ")) (the default order).",
      valueName: "list"),
    parse: { text, _ throws(Problem) in
      do throws(PriceSourceRegistry.InvalidList) {
        return try PriceSourceRegistry.chain(named: text).map(\.source.id)
      } catch {
        throw Problem(error.description)
      }
    }, show: { $0.joined(separator: ",") })

  static let currency = SettingKey(
    "currency", { $0.currency }, { $0.currency = $1 }, environment: "BTC_PRICE_CURRENCY",
    option: .value(
      "The currency to show the price in (env BTC_PRICE_CURRENCY; default USD).",
      discussion: "One of \(Currency.supported.map(\.code).joined(separator: ", ")).",
      valueName: "code"),
    parse: { text, _ throws(Problem) in
      do throws(Currency.UnknownCurrency) {
        return try Currency.parse(text)
      } catch {
        throw Problem(error.description)
      }
    }, show: \.code)

  static let interval = SettingKey(
    "interval", { $0.interval }, { $0.interval = $1 },
    option: .value(
      "Seconds between ticks; fractions allowed (default \(PriceDefaults.interval.secondsText)).",
      valueName: "seconds"),
    parse: { text, _ throws(Problem) in
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        (0.01...86_400).contains(seconds)
      else {
        throw Problem("must be a number of seconds from 0.01 to 86400, got \(quoted(text))")
      }
      return seconds
    }, show: { "\($0)" })

  static let primaryTimeout = SettingKey(
    "primary-timeout", { $0.primaryTimeout }, { $0.primaryTimeout = $1 },
    option: .value(
      "Seconds the first source may take before the next is asked (default "
        + "\(PriceDefaults.primaryTimeout.secondsText)).",
      valueName: "seconds"),
    parse: { text, _ throws(Problem) in
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        seconds > 0, seconds <= 86_400
      else {
        throw Problem("must be a positive number of seconds up to 86400, got \(quoted(text))")
      }
      return seconds
    }, show: { "\($0)" })

  static let format = SettingKey(
    "format", { $0.format }, { $0.format = $1 },
    option: .value(
      "Shape each line: {price} {price_int} {price_short} {sats} {amount} {currency} {time} "
        + "{source} {arrow} {change} {change_pct} {change_1h} {change_24h} {change_7d} "
        + "{change_30d} (each with _pct) {stale} {alert}; {{ and }} for braces.",
      valueName: "template"),
    parse: { text, _ throws(Problem) in
      do throws(PriceTemplate.ParseError) {
        return try PriceTemplate(text)
      } catch {
        throw Problem(error.description)
      }
    }, show: \.text)

  static let cachePath = SettingKey(
    "cache-path", { $0.cachePath }, { $0.cachePath = $1 },
    option: .value(
      "Cache file (default: $XDG_CACHE_HOME/btc-price/last-price.json).", valueName: "file"),
    parse: { text, home throws(Problem) in
      guard !text.isEmpty else { throw Problem("must not be empty") }
      return expandingHome(text, home: home)
    }, show: { $0 })

  // The proxy's own variables (https_proxy, NO_PROXY, ...) and SSL_CERT_FILE are read as curl
  // and OpenSSL read them, under these three settings (ProxySelector, TrustSource).
  static let proxy = SettingKey(
    "proxy", { $0.proxy }, { $0.proxy = $1 },
    option: .value(
      "Proxy for every source and stream: http://, socks5h:// or socks5://[user:password@]host:port; \"\" for none (over $https_proxy, $all_proxy).",
      valueName: "url"),
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
    "no-proxy", { $0.noProxy }, { $0.noProxy = $1 },
    option: .value(
      "Hosts to reach directly, comma-separated, as $NO_PROXY (domains, IPs, CIDR, *).",
      valueName: "list"),
    parse: { text, _ in text }, show: { $0 })

  static let caFile = SettingKey(
    "ca-file", { $0.caFile }, { $0.caFile = $1 },
    option: .value(
      "PEM file of certificate authorities to trust, e.g. a company proxy's (over $SSL_CERT_FILE).",
      valueName: "file"),
    parse: { text, home throws(Problem) in
      guard !text.isEmpty else { throw Problem("must not be empty") }
      return expandingHome(text, home: home)
    }, show: { $0 })

  /// `alert`: price alert rules, a list (`--alert`, repeatable). Rules hold no commas, so a list
  /// comes as one comma-separated text from every layer.
  static let alerts = SettingKey(
    "alert", { $0.alerts }, { $0.alerts = $1 }, environment: "BTC_PRICE_ALERTS", takesList: true,
    option: .repeatable(
      "Alert when a rule fires: above:PRICE, below:PRICE or move:PERCENT%/WINDOW; repeatable "
        + "(env BTC_PRICE_ALERTS).",
      discussion: "E.g. --alert above:100000 --alert move:2%/15m.",
      valueName: "rule"),
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
    "on-alert", { $0.onAlert }, { $0.onAlert = $1 }, environment: "BTC_PRICE_ON_ALERT",
    option: .value(
      "Run this command (by /bin/sh -c) for each alert, with the alert in BTC_PRICE_ALERT_* "
        + "variables (env BTC_PRICE_ON_ALERT).",
      valueName: "command"),
    parse: { text, _ throws(Problem) in
      guard !text.trimmingWhitespace.isEmpty else { throw Problem("must not be empty") }
      return text
    }, show: { $0 })

  /// `alert-webhook`: where `serve` POSTs each alert.
  static let alertWebhook = SettingKey(
    "alert-webhook", { $0.alertWebhook }, { $0.alertWebhook = $1 },
    environment: "BTC_PRICE_ALERT_WEBHOOK", option: nil,
    parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)

  /// `stream`: the exchanges' streams first (`--stream`, the default; `--no-stream`).
  static let stream = SettingKey(
    "stream", { $0.stream }, { $0.stream = $1 }, environment: "BTC_PRICE_STREAM",
    option: .negatableFlag(
      "Take the price from the exchanges' live trade streams, REST as the fall back (default); "
        + "--no-stream asks REST every tick; --once always does (env BTC_PRICE_STREAM)."),
    parse: { text, _ throws(Problem) in try bool(text) }, show: { "\($0)" })

  /// `history`: keep the price history for the chart and the changes (`--history`, the default;
  /// `--no-history`).
  static let history = SettingKey(
    "history", { $0.history }, { $0.history = $1 }, environment: "BTC_PRICE_HISTORY",
    option: .negatableFlag(
      "Keep the day's price history for the 24-hour change and the chart, from the exchanges' "
        + "candles a few times an hour (default); --no-history asks for none (env "
        + "BTC_PRICE_HISTORY)."),
    parse: { text, _ throws(Problem) in try bool(text) }, show: { "\($0)" })

  /// `holdings`: how much bitcoin the user holds, for `{value}` and `--json`'s `holdings`. Never
  /// repeated in a message, and nothing that serves, publishes or logs carries it.
  static let holdings = SettingKey(
    "holdings", { $0.holdings }, { $0.holdings = $1 }, environment: "BTC_PRICE_HOLDINGS",
    option: .value(
      "Bitcoin you hold, e.g. 0.25, for {value}, --live and --json; kept on this machine: never "
        + "served, published or logged (env BTC_PRICE_HOLDINGS).",
      valueName: "btc"),
    parse: { text, _ throws(Problem) in
      do throws(Holdings.ParseError) {
        return try Holdings.amount(parsing: text.trimmingWhitespace)
      } catch {
        throw Problem(error.description)
      }
    }, show: { _ in "<redacted>" })

  /// `cost-basis`: what the holdings cost in all, with its currency (`15000 USD`), for `{pnl}`.
  static let costBasis = SettingKey(
    "cost-basis", { $0.costBasis }, { $0.costBasis = $1 }, environment: "BTC_PRICE_COST_BASIS",
    option: .value(
      "What the holdings cost in all, with its currency, e.g. \"15000 USD\", for {pnl} and "
        + "{pnl_pct} (env BTC_PRICE_COST_BASIS).",
      valueName: "total"),
    parse: { text, _ throws(Problem) in
      do throws(Holdings.ParseError) {
        return try Holdings.CostBasis(parsing: text)
      } catch {
        throw Problem(error.description)
      }
    }, show: { _ in "<redacted>" })

  /// `<source>-url`: where to ask that source instead of its real endpoint.
  static func url(_ definition: PriceSourceDefinition) -> SettingKey {
    SettingKey(
      perSource: definition.urlOptionName, { $0.urls }, { $0.urls = $1 }, definition.source.id,
      environment: definition.urlEnvironmentVariable,
      option: .value(
        "\(definition.source.displayName) endpoint URL (env \(definition.urlEnvironmentVariable)).",
        valueName: "url"),
      parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)
  }

  /// `<source>-api-key`, for the sources that take one (`cryptocompare-api-key`).
  static func apiKey(_ definition: PriceSourceDefinition) -> SettingKey? {
    guard let apiKey = definition.apiKey else { return nil }
    return SettingKey(
      perSource: "\(definition.source.id)-api-key", { $0.apiKeys }, { $0.apiKeys = $1 },
      definition.source.id,
      environment: apiKey.environmentVariable, option: nil,
      parse: { text, _ throws(Problem) in
        guard !text.isEmpty else { throw Problem("must not be empty") }
        return Secret(text)
      }, show: { "\($0)" })
  }

  /// `<source>-stream-url`: where to open that exchange's stream instead of its real endpoint.
  static func streamURL(_ definition: PriceSourceDefinition) -> SettingKey? {
    guard definition.stream != nil else { return nil }
    return SettingKey(
      perSource: "\(definition.source.id)-stream-url", { $0.streamURLs }, { $0.streamURLs = $1 },
      definition.source.id,
      environment: definition.streamURLEnvironmentVariable,
      option: .value(
        "\(definition.source.displayName) stream URL, ws:// or wss:// (env "
          + "\(definition.streamURLEnvironmentVariable)).",
        valueName: "url"),
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
      perSource: "\(definition.source.id)-candles-url", { $0.candlesURLs }, { $0.candlesURLs = $1 },
      definition.source.id,
      environment: definition.candlesURLEnvironmentVariable,
      option: .value(
        "\(definition.source.displayName) price history (candles) URL (env "
          + "\(definition.candlesURLEnvironmentVariable)).",
        valueName: "url"),
      parse: { text, _ throws(Problem) in try webURL(text) }, show: \.absoluteString)
  }
}

// MARK: - Definitions from a place in Settings

// Each reads and writes its field through two closures rather than a key path: a key path's
// first use costs a one-shot more than all its settings do.
extension SettingKey {
  /// A key whose value is one optional field of ``Settings``.
  init<Value: Sendable>(
    _ name: String, _ get: @escaping @Sendable (Settings) -> Value?,
    _ set: @escaping @Sendable (inout Settings, Value?) -> Void,
    environment: String? = nil, takesList: Bool = false,
    option: SettingOption?,
    parse: @escaping @Sendable (String, String?) throws(Problem) -> Value,
    show: @escaping @Sendable (Value) -> String
  ) {
    self.init(
      name: name, environmentVariable: environment, takesList: takesList,
      option: option,
      write: { text, settings, home throws(Problem) in
        set(&settings, try parse(text, home))
      },
      given: { get($0) != nil },
      inherit: { settings, lower in
        if get(settings) == nil { set(&settings, get(lower)) }
      },
      shown: { settings in get(settings).map { "\(name): \(show($0))" } })
  }

  /// A key of one source, whose value is that source's entry in a field keyed by source id.
  init<Value: Sendable>(
    perSource name: String, _ get: @escaping @Sendable (Settings) -> [String: Value],
    _ set: @escaping @Sendable (inout Settings, [String: Value]) -> Void,
    _ sourceID: String, environment: String?,
    option: SettingOption?,
    parse: @escaping @Sendable (String, String?) throws(Problem) -> Value,
    show: @escaping @Sendable (Value) -> String
  ) {
    self.init(
      name: name, environmentVariable: environment, takesList: false,
      option: option,
      write: { text, settings, home throws(Problem) in
        var values = get(settings)
        values[sourceID] = try parse(text, home)
        set(&settings, values)
      },
      given: { get($0)[sourceID] != nil },
      inherit: { settings, lower in
        guard get(settings)[sourceID] == nil, let value = get(lower)[sourceID] else { return }
        var values = get(settings)
        values[sourceID] = value
        set(&settings, values)
      },
      shown: { settings in get(settings)[sourceID].map { "\(name): \(show($0))" } })
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

/// How the root command takes a setting, and what its `--help` says.
package struct SettingOption: Sendable {
  package enum Form: Sendable {
    /// `--interval 5` or `--interval=5`.
    case value
    /// `--stream` (true) or `--no-stream` (false).
    case negatableFlag
    /// `--alert RULE`, repeatable; the rules join with commas into one value.
    case repeatable
  }

  package let form: Form
  /// What `--help` calls its value (`seconds`); empty for a flag.
  package let valueName: String
  /// The words, made only when `--help` (or the man page, or a completion script) asks: a
  /// one-shot reads the keys on every start and never shows them.
  private let words: @Sendable () -> (help: String, discussion: String)

  /// The line `--help` gives it.
  package var help: String { words().help }
  /// More below that line; empty for none.
  package var discussion: String { words().discussion }

  static func value(
    _ help: @autoclosure @escaping @Sendable () -> String,
    discussion: @autoclosure @escaping @Sendable () -> String = "", valueName: String
  ) -> SettingOption {
    SettingOption(form: .value, valueName: valueName, words: { (help(), discussion()) })
  }

  static func negatableFlag(_ help: @autoclosure @escaping @Sendable () -> String)
    -> SettingOption
  {
    SettingOption(form: .negatableFlag, valueName: "", words: { (help(), "") })
  }

  static func repeatable(
    _ help: @autoclosure @escaping @Sendable () -> String,
    discussion: @autoclosure @escaping @Sendable () -> String, valueName: String
  ) -> SettingOption {
    SettingOption(form: .repeatable, valueName: valueName, words: { (help(), discussion()) })
  }
}

extension Settings {
  /// The root command's options that set a setting, each once by its key's name (`stream` for
  /// `--[no-]stream`), in the keys' order: what a reader of the command line learns from the
  /// keys rather than from a list of its own.
  package static var rootOptionList: [(name: String, option: SettingOption)] {
    SettingKey.all.compactMap { key in key.option.map { (key.name, $0) } }
  }
}
