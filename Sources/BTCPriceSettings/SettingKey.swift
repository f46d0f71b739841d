import BTCPriceCore
import BTCPriceFeature
import BTCPriceSources

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One setting: its name (the long option's name, and the settings file's key), and how its text
/// becomes a value. Shared by the command line, the environment and the file, so all three accept
/// and refuse exactly the same values.
enum SettingKey: Equatable {
  case sources, currency, interval, primaryTimeout, format
  case url(sourceID: String)
  case apiKey(sourceID: String)
  case cachePath
  case proxy, noProxy, caFile
  /// `alert`: price alert rules, a list (`--alert`, repeatable).
  case alerts
  /// `on-alert`: the command run for each alert.
  case onAlert
  /// `alert-webhook`: where `serve` POSTs each alert.
  case alertWebhook
  /// `stream`: the exchanges' streams first (`--stream`, the default; `--no-stream`), true or false.
  case stream
  /// `<source>-stream-url`: where to open that exchange's stream instead of its real endpoint.
  case streamURL(sourceID: String)
  /// `history`: keep the price history for the chart and the 24-hour change (`--history`, the
  /// default; `--no-history`), true or false.
  case history
  /// `<source>-candles-url`: where to ask that exchange for its price history instead of its
  /// real endpoint.
  case candlesURL(sourceID: String)

  /// Every key, in the order the documentation lists them; the source URLs and API keys are the
  /// registry's.
  static var all: [SettingKey] {
    [.sources, .currency, .interval, .primaryTimeout, .format]
      + PriceSourceRegistry.all.map { .url(sourceID: $0.source.id) }
      + PriceSourceRegistry.all.filter { $0.apiKey != nil }.map { .apiKey(sourceID: $0.source.id) }
      + [.cachePath, .proxy, .noProxy, .caFile, .alerts, .onAlert, .alertWebhook, .stream]
      + PriceSourceRegistry.all.filter { $0.stream != nil }.map {
        .streamURL(sourceID: $0.source.id)
      }
      + [.history]
      + PriceSourceRegistry.all.filter { $0.candles != nil }.map {
        .candlesURL(sourceID: $0.source.id)
      }
  }

  static func named(_ name: String) -> SettingKey? {
    all.first { $0.name == name }
  }

  var name: String {
    switch self {
    case .sources: "sources"
    case .currency: "currency"
    case .interval: "interval"
    case .primaryTimeout: "primary-timeout"
    case .format: "format"
    case .url(let sourceID): "\(sourceID)-url"
    case .apiKey(let sourceID): "\(sourceID)-api-key"
    case .cachePath: "cache-path"
    case .proxy: "proxy"
    case .noProxy: "no-proxy"
    case .caFile: "ca-file"
    case .alerts: "alert"
    case .onAlert: "on-alert"
    case .alertWebhook: "alert-webhook"
    case .stream: "stream"
    case .streamURL(let sourceID): "\(sourceID)-stream-url"
    case .history: "history"
    case .candlesURL(let sourceID): "\(sourceID)-candles-url"
    }
  }

  /// Secrets are never repeated in a message.
  var isSecret: Bool {
    switch self {
    // A proxy URL may carry a password.
    case .apiKey, .proxy: return true
    default: return false
    }
  }

  /// Sets this key's value in `settings` from its text, or says what is wrong with it.
  func apply(_ text: String, to settings: inout Settings, home: String?) throws(Problem) {
    switch self {
    case .sources:
      do {
        settings.sources = try PriceSourceRegistry.chain(named: text).map(\.source.id)
      } catch {
        throw Problem(error.description)
      }
    case .currency:
      do {
        settings.currency = try Currency.parse(text)
      } catch {
        throw Problem(error.description)
      }
    case .interval:
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        (0.01...86_400).contains(seconds)
      else {
        throw Problem("must be a number of seconds from 0.01 to 86400, got \(Self.quoted(text))")
      }
      settings.interval = seconds
    case .primaryTimeout:
      guard let seconds = Double(text.trimmingWhitespace), seconds.isFinite,
        seconds > 0, seconds <= 86_400
      else {
        throw Problem(
          "must be a positive number of seconds up to 86400, got \(Self.quoted(text))")
      }
      settings.primaryTimeout = seconds
    case .format:
      do {
        settings.format = try PriceTemplate(text)
      } catch {
        throw Problem(error.description)
      }
    case .url(let sourceID):
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host?.isEmpty == false
      else { throw Problem("needs an http or https URL, got \(Self.quoted(text))") }
      settings.urls[sourceID] = url
    case .apiKey(let sourceID):
      guard !text.isEmpty else { throw Problem("must not be empty") }
      settings.apiKeys[sourceID] = Secret(text)
    case .cachePath:
      guard !text.isEmpty else { throw Problem("must not be empty") }
      settings.cachePath = Self.expandingHome(text, home: home)
    case .proxy:
      // Empty is a choice: no proxy, whatever the environment says (as curl's --proxy "").
      if !text.trimmingWhitespace.isEmpty {
        do {
          _ = try ProxyEndpoint(parsing: text)
        } catch {
          throw Problem(error.reason)
        }
      }
      settings.proxy = Secret(text)
    case .noProxy:
      settings.noProxy = text
    case .caFile:
      guard !text.isEmpty else { throw Problem("must not be empty") }
      settings.caFile = Self.expandingHome(text, home: home)
    case .alerts:
      // Rules hold no commas, so a list comes as one comma-separated text from every layer.
      var rules: [AlertRule] = []
      for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        do {
          rules.append(try AlertRule.parse(String(item)))
        } catch {
          throw Problem(error.description)
        }
      }
      settings.alerts = rules
    case .onAlert:
      guard !text.trimmingWhitespace.isEmpty else { throw Problem("must not be empty") }
      settings.onAlert = text
    case .alertWebhook:
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host?.isEmpty == false
      else { throw Problem("needs an http or https URL, got \(Self.quoted(text))") }
      settings.alertWebhook = url
    case .stream:
      settings.stream = try Self.bool(text)
    case .history:
      settings.history = try Self.bool(text)
    case .streamURL(let sourceID):
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "ws" || scheme == "wss", url.host?.isEmpty == false
      else { throw Problem("needs a ws or wss URL, got \(Self.quoted(text))") }
      settings.streamURLs[sourceID] = url
    case .candlesURL(let sourceID):
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host?.isEmpty == false
      else { throw Problem("needs an http or https URL, got \(Self.quoted(text))") }
      settings.candlesURLs[sourceID] = url
    }
  }

  /// Whether `settings` gives this key a value.
  func isSet(in settings: Settings) -> Bool {
    switch self {
    case .sources: settings.sources != nil
    case .currency: settings.currency != nil
    case .interval: settings.interval != nil
    case .primaryTimeout: settings.primaryTimeout != nil
    case .format: settings.format != nil
    case .url(let sourceID): settings.urls[sourceID] != nil
    case .apiKey(let sourceID): settings.apiKeys[sourceID] != nil
    case .cachePath: settings.cachePath != nil
    case .proxy: settings.proxy != nil
    case .noProxy: settings.noProxy != nil
    case .caFile: settings.caFile != nil
    case .alerts: settings.alerts != nil
    case .onAlert: settings.onAlert != nil
    case .alertWebhook: settings.alertWebhook != nil
    case .stream: settings.stream != nil
    case .streamURL(let sourceID): settings.streamURLs[sourceID] != nil
    case .history: settings.history != nil
    case .candlesURL(let sourceID): settings.candlesURLs[sourceID] != nil
    }
  }

  /// `true`, `yes`, `on`, `1`, or their opposites.
  private static func bool(_ text: String) throws(Problem) -> Bool {
    switch text.trimmingWhitespace.lowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: throw Problem("must be true or false, got \(Self.quoted(text))")
    }
  }

  private static func expandingHome(_ text: String, home: String?) -> String {
    guard text.hasPrefix("~/"), let home, !home.isEmpty else { return text }
    return home + text.dropFirst()
  }

  /// `"fast"`: the text shortened to 40 characters, on one line.
  static func quoted(_ text: String) -> String {
    let oneLine = String(
      text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    return "\"" + (oneLine.count > 40 ? String(oneLine.prefix(40)) + "…" : oneLine) + "\""
  }

  /// What is wrong with a value, without where it came from.
  struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}
