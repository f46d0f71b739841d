import BTCPriceCore
import BTCPriceTerminal
import Foundation

/// One setting: its name in the file (the long option's name), and how its text becomes a value.
/// Shared by the file and the environment, so both accept and refuse exactly the same values.
enum SettingKey: Equatable {
  case sources, currency, interval, primaryTimeout, format
  case url(sourceID: String)
  case cryptoCompareAPIKey, cachePath

  /// The file keys, in the order the documentation lists them.
  static func all(sourceIDs: [String]) -> [SettingKey] {
    [.sources, .currency, .interval, .primaryTimeout, .format]
      + sourceIDs.map { .url(sourceID: $0) } + [.cryptoCompareAPIKey, .cachePath]
  }

  static func named(_ name: String, sourceIDs: [String]) -> SettingKey? {
    all(sourceIDs: sourceIDs).first { $0.name == name }
  }

  var name: String {
    switch self {
    case .sources: "sources"
    case .currency: "currency"
    case .interval: "interval"
    case .primaryTimeout: "primary-timeout"
    case .format: "format"
    case .url(let sourceID): "\(sourceID)-url"
    case .cryptoCompareAPIKey: "cryptocompare-api-key"
    case .cachePath: "cache-path"
    }
  }

  /// Secrets are never repeated in a message.
  var isSecret: Bool { self == .cryptoCompareAPIKey }

  /// Sets this key's value in `settings` from its text, or says what is wrong with it.
  func apply(
    _ text: String, to settings: inout Settings, sourceIDs: [String], home: String?
  ) throws(Problem) {
    switch self {
    case .sources:
      settings.sources = try Self.sources(text, known: sourceIDs)
    case .currency:
      do {
        settings.currency = try Currency.parse(text)
      } catch {
        throw Problem(error.description)
      }
    case .interval:
      guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
        (0.01...86_400).contains(seconds)
      else {
        throw Problem("must be a number of seconds from 0.01 to 86400, got \(Self.quoted(text))")
      }
      settings.interval = seconds
    case .primaryTimeout:
      guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
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
    case .cryptoCompareAPIKey:
      guard !text.isEmpty else { throw Problem("must not be empty") }
      settings.cryptoCompareAPIKey = Secret(text)
    case .cachePath:
      guard !text.isEmpty else { throw Problem("must not be empty") }
      if text.hasPrefix("~/"), let home, !home.isEmpty {
        settings.cachePath = home + text.dropFirst()
      } else {
        settings.cachePath = text
      }
    }
  }

  private static func sources(_ text: String, known: [String]) throws(Problem) -> [String] {
    var ids: [String] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      let id = name.trimmingCharacters(in: .whitespaces).lowercased()
      guard known.contains(id) else {
        throw Problem(
          "unknown source \(quoted(id)); known sources: \(known.joined(separator: ", "))")
      }
      guard !ids.contains(id) else { throw Problem("lists \(id) twice") }
      ids.append(id)
    }
    return ids
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
